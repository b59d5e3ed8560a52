CREATE TABLE `blob_external` (
  `id` int(11) NOT NULL,
  `description` varchar(100) DEFAULT NULL,
  `data` longblob DEFAULT NULL,
  `extra` text DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=DYNAMIC
;
