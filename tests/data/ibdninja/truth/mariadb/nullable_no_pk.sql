CREATE TABLE `nullable_no_pk` (
  `col1` int(11) DEFAULT NULL,
  `col2` varchar(100) DEFAULT NULL,
  `col3` int(11) DEFAULT NULL,
  `col4` varchar(50) DEFAULT NULL,
  KEY `idx_col1` (`col1`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
