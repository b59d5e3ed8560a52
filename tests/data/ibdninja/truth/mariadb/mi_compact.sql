CREATE TABLE `mi_compact` (
  `added` smallint(6) DEFAULT -7,
  `id` int(11) NOT NULL,
  `keep1` char(4) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,
  `keep2` decimal(10,2) DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=COMPACT
;
