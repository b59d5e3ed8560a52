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
