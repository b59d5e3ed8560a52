CREATE TABLE `instant_add_col` (
  `id` int(11) NOT NULL,
  `name` varchar(100) DEFAULT NULL,
  `value` int(11) DEFAULT NULL,
  `new_col1` int(11) DEFAULT 0,
  `new_col2` varchar(50) DEFAULT 'default_value',
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
