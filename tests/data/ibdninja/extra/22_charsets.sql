-- Text in character sets other than UTF-8 and latin1: the client prints every one of them
-- converted to UTF-8 (the connection's), so the inspector must too. Fixed-width ones (ucs2,
-- utf32) keep CHAR at full width; utf16 and the multi-byte Asian ones vary.
CREATE TABLE edge_charsets (
  id INT NOT NULL PRIMARY KEY,
  c1251 VARCHAR(20) CHARACTER SET cp1251,
  l2 VARCHAR(30) CHARACTER SET latin2,
  gr VARCHAR(20) CHARACTER SET greek,
  k8 VARCHAR(20) CHARACTER SET koi8r,
  u2 VARCHAR(20) CHARACTER SET ucs2,
  u16 VARCHAR(20) CHARACTER SET utf16,
  u32 VARCHAR(20) CHARACTER SET utf32,
  gbk VARCHAR(20) CHARACTER SET gbk,
  sj VARCHAR(20) CHARACTER SET sjis,
  fixed2 CHAR(6) CHARACTER SET ucs2,
  fixed4 CHAR(6) CHARACTER SET utf32,
  fixed1 CHAR(6) CHARACTER SET cp1251,
  t TEXT CHARACTER SET utf16
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
INSERT INTO edge_charsets VALUES
  (1, 'Привет, мир', 'Příliš žluťoučký kůň', 'Καλημέρα', 'Здравствуй', 'Grüße ☃', 'emoji 😀 here', '𝄞 clef', '你好世界', 'こんにちは', 'ab', 'Щ 😀', 'Юг', 'long utf16 😀 text'),
  (2, '', '', '', '', '', '', '', '', '', '', '', '', ''),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 'tab\there', 'pad  ', 'ΑΒΓ  ', 'щ', 'back\\slash', 'new\nline', 'x', '中', 'ｶﾀｶﾅ', 'abcdef', 'a', 'b  ', REPEAT('Ж', 3000));

-- MariaDB's own types: UUID (stored with its time fields swapped when it is an RFC 4122
-- version 1-5 UUID), INET6 and INET4.
CREATE TABLE edge_mariadb_types (
  id INT NOT NULL PRIMARY KEY,
  u UUID,
  i6 INET6,
  i4 INET4
) ENGINE=InnoDB;
INSERT INTO edge_mariadb_types VALUES
  (1, '6ccd780c-baba-1026-9564-5b8c656024db', '2001:db8::ff00:42:8329', '192.168.0.1'),
  (2, '00000000-0000-0000-0000-000000000000', '::', '0.0.0.0'),
  (3, 'ffffffff-ffff-ffff-ffff-ffffffffffff', '::ffff:10.1.2.3', '255.255.255.255'),
  (4, '123e4567-e89b-42d3-a456-426614174000', 'fe80::1', '10.0.0.1'),
  (5, '123e4567-e89b-c2d3-c456-426614174000', '::1.2.3.4', '127.0.0.1'),
  (6, NULL, NULL, NULL);
