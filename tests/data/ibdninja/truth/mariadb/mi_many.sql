CREATE TABLE `mi_many` (
  `id` int(11) NOT NULL,
  `c` varchar(12) NOT NULL DEFAULT 'added',
  `pad` char(200) DEFAULT NULL,
  `b` int(11) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
