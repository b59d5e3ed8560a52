CREATE TABLE `edge_numbers` (
  `id` int(11) NOT NULL,
  `f` float(7,3) DEFAULT NULL,
  `d` double(12,2) DEFAULT NULL,
  `z` int(5) unsigned zerofill DEFAULT NULL,
  `zb` bigint(20) unsigned zerofill DEFAULT NULL,
  `zd` decimal(8,2) unsigned zerofill DEFAULT NULL,
  `dn` decimal(30,10) DEFAULT NULL,
  `fl` float DEFAULT NULL,
  `db` double DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
