CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(200), n BIGINT, b BLOB) ENGINE=InnoDB PAGE_COMPRESSED=1;
INSERT INTO t SELECT seq, CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 150)),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 300000),
  CASE WHEN seq % 40 = 0 THEN REPEAT(CONCAT(MD5(seq), SHA1(seq)), 120) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_600;
DELETE FROM t WHERE id % 13 = 0;
UPDATE t SET v = CONCAT('updated ', id), n = -n WHERE id % 7 = 0;
