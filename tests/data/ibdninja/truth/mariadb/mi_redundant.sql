CREATE TABLE `mi_redundant` (
  `id` int(11) NOT NULL,
  `d` varchar(10) DEFAULT NULL,
  `a` varchar(30) DEFAULT NULL,
  `c` int(11) DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=REDUNDANT
;
