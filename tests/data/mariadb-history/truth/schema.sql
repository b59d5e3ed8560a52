CREATE TABLE `t_autoinc` (
  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `payload` varchar(200) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB AUTO_INCREMENT=4101 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE `t_uuid` (
  `id` char(36) NOT NULL,
  `seq` int(11) NOT NULL,
  `note` varchar(40) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE `t_ulid` (
  `id` char(26) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `seq` int(11) NOT NULL,
  `created_ms` bigint(20) NOT NULL,
  `n` int(11) NOT NULL,
  `note` varchar(40) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE `t_bin16` (
  `id` binary(16) NOT NULL,
  `seq` int(11) NOT NULL,
  `label` varchar(40) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE `t_sec` (
  `id` int(10) unsigned NOT NULL,
  `email` varchar(64) NOT NULL,
  `grp` smallint(6) NOT NULL,
  `created` datetime NOT NULL,
  `note` varchar(100) DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_email` (`email`),
  KEY `k_grp_created` (`grp`,`created`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
