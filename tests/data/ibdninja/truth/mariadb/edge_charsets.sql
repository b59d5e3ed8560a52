CREATE TABLE `edge_charsets` (
  `id` int(11) NOT NULL,
  `c1251` varchar(20) CHARACTER SET cp1251 COLLATE cp1251_general_ci DEFAULT NULL,
  `l2` varchar(30) CHARACTER SET latin2 COLLATE latin2_general_ci DEFAULT NULL,
  `gr` varchar(20) CHARACTER SET greek COLLATE greek_general_ci DEFAULT NULL,
  `k8` varchar(20) CHARACTER SET koi8r COLLATE koi8r_general_ci DEFAULT NULL,
  `u2` varchar(20) CHARACTER SET ucs2 COLLATE ucs2_general_ci DEFAULT NULL,
  `u16` varchar(20) CHARACTER SET utf16 COLLATE utf16_general_ci DEFAULT NULL,
  `u32` varchar(20) CHARACTER SET utf32 COLLATE utf32_general_ci DEFAULT NULL,
  `gbk` varchar(20) CHARACTER SET gbk COLLATE gbk_chinese_ci DEFAULT NULL,
  `sj` varchar(20) CHARACTER SET sjis COLLATE sjis_japanese_ci DEFAULT NULL,
  `fixed2` char(6) CHARACTER SET ucs2 COLLATE ucs2_general_ci DEFAULT NULL,
  `fixed4` char(6) CHARACTER SET utf32 COLLATE utf32_general_ci DEFAULT NULL,
  `fixed1` char(6) CHARACTER SET cp1251 COLLATE cp1251_general_ci DEFAULT NULL,
  `t` text CHARACTER SET utf16 COLLATE utf16_general_ci DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
;
