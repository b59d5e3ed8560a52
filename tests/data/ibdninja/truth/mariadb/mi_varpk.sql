CREATE TABLE `mi_varpk` (
  `k` varchar(20) NOT NULL,
  `b` varchar(10) DEFAULT NULL,
  `n` int(11) NOT NULL,
  `z` date DEFAULT '2024-02-29',
  PRIMARY KEY (`k`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
