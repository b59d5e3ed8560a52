CREATE TABLE `key_shapes` (
  `name` varchar(40) NOT NULL,
  `n` int(11) NOT NULL,
  `code` char(6) DEFAULT NULL,
  `email` varchar(60) DEFAULT NULL,
  `note` varchar(200) DEFAULT NULL,
  PRIMARY KEY (`name`(4),`n`),
  UNIQUE KEY `code` (`code`),
  UNIQUE KEY `email` (`email`),
  UNIQUE KEY `uk_code_n` (`code`,`n`),
  KEY `n` (`n`),
  KEY `n_2` (`n`,`code`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
