CREATE TABLE `instant_add_drop` (
  `col_uint` int(10) unsigned NOT NULL,
  `col_datetime_0` datetime DEFAULT NULL,
  `col_datetime_6` datetime(6) DEFAULT NULL,
  PRIMARY KEY (`col_uint`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
