CREATE TABLE `edge_mariadb_types` (
  `id` int(11) NOT NULL,
  `u` uuid DEFAULT NULL,
  `i6` inet6 DEFAULT NULL,
  `i4` inet4 DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
