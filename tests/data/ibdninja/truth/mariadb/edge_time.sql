CREATE TABLE `edge_time` (
  `id` int(11) NOT NULL,
  `t` time(3) DEFAULT NULL,
  `t0` time DEFAULT NULL,
  `dt` datetime(6) DEFAULT NULL,
  `y` year(4) DEFAULT NULL,
  `bt` bit(5) DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
