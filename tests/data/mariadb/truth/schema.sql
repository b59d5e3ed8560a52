CREATE TABLE `t_int` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(100) NOT NULL,
  `val` int(11) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `k_val` (`val`)
) ENGINE=InnoDB AUTO_INCREMENT=2048 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE `t_uuid` (
  `id` char(36) NOT NULL,
  `n` int(11) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE `t_redundant` (
  `id` int(11) NOT NULL,
  `big` bigint(20) NOT NULL,
  `s` varchar(60) DEFAULT NULL,
  `c` char(10) NOT NULL,
  `d` date DEFAULT NULL,
  `n` int(11) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `k_n` (`n`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=REDUNDANT;
CREATE TABLE `t_compact` (
  `id` int(11) NOT NULL,
  `big` bigint(20) NOT NULL,
  `s` varchar(60) DEFAULT NULL,
  `c` char(10) NOT NULL,
  `d` date DEFAULT NULL,
  `n` int(11) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `k_n` (`n`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=COMPACT;
CREATE TABLE `t_blob` (
  `id` int(11) NOT NULL,
  `note` varchar(20) NOT NULL,
  `body` longblob DEFAULT NULL,
  `txt` text DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE `t_crc32` (
  `id` int(11) NOT NULL,
  `s` varchar(40) NOT NULL,
  `n` int(11) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `k_n` (`n`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=DYNAMIC;
CREATE TABLE `t_crc32_compact` (
  `id` int(11) NOT NULL,
  `s` varchar(40) NOT NULL,
  `n` int(11) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `k_n` (`n`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=COMPACT;
