CREATE TABLE `ddl_test` (
  `id` int(11) NOT NULL,
  `original_col1` varchar(50) DEFAULT NULL,
  `verify_column` int(11) DEFAULT NULL,
  `data_v3` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`data_v3`)),
  `data_v5` decimal(10,2) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_original_col1` (`original_col1`),
  KEY `idx_data_v5` (`data_v5`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
