CREATE TABLE `edge_text` (
  `id` int(11) NOT NULL,
  `v` varchar(40) DEFAULT NULL,
  `l` varchar(40) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,
  `c` char(8) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,
  `b` varbinary(16) DEFAULT NULL,
  `t` text DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
