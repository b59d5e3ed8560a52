CREATE TABLE `zip1` (
  `id` int(11) NOT NULL,
  `v` varchar(20) DEFAULT NULL,
  `n` bigint(20) DEFAULT NULL,
  `b` blob DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `by_v` (`v`(10))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=1
;
CREATE TABLE `zip2` (
  `id` int(11) NOT NULL,
  `v` varchar(120) DEFAULT NULL,
  `n` bigint(20) DEFAULT NULL,
  `b` blob DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `by_v` (`v`(10))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=2
;
CREATE TABLE `zip4` (
  `id` int(11) NOT NULL,
  `v` varchar(120) DEFAULT NULL,
  `n` bigint(20) DEFAULT NULL,
  `b` blob DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `by_v` (`v`(10))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4
;
CREATE TABLE `zip8` (
  `id` int(11) NOT NULL,
  `v` varchar(120) DEFAULT NULL,
  `n` bigint(20) DEFAULT NULL,
  `b` blob DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `by_v` (`v`(10))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
;
CREATE TABLE `zip16` (
  `id` int(11) NOT NULL,
  `v` varchar(120) DEFAULT NULL,
  `n` bigint(20) DEFAULT NULL,
  `b` blob DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `by_v` (`v`(10))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=16
;
