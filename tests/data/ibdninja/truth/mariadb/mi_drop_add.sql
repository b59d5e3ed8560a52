CREATE TABLE `mi_drop_add` (
  `id` int(11) NOT NULL,
  `d` int(11) NOT NULL DEFAULT 42,
  `b` varchar(20) DEFAULT NULL,
  `c` datetime(3) DEFAULT NULL,
  `e` varchar(10) DEFAULT 'dflt',
  `f` text DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
