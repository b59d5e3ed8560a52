CREATE TABLE `mi_reorder` (
  `c` int(11) DEFAULT NULL,
  `b` varchar(10) DEFAULT NULL,
  `id` int(11) NOT NULL,
  `a` int(11) DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
