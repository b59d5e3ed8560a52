CREATE DATABASE zipdb;
USE zipdb;
CREATE TABLE zip1 (
  id INT NOT NULL PRIMARY KEY,
  v VARCHAR(20),
  n BIGINT,
  b BLOB,
  KEY by_v (v(10))
) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=1 DEFAULT CHARSET=utf8mb4;
INSERT INTO zip1 SELECT seq, LEFT(CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 90)), 20),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 500000),
  CASE WHEN seq % 50 = 0 AND 1 > 1 THEN REPEAT(CONCAT('blob', seq), 900) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_1200;
DELETE FROM zip1 WHERE id % 7 = 0;
UPDATE zip1 SET v = LEFT(CONCAT(v, ' updated'), 20), n = -n WHERE id % 5 = 0;
INSERT INTO zip1 VALUES (5000, 'after the deletes', 1, NULL);
CREATE TABLE zip2 (
  id INT NOT NULL PRIMARY KEY,
  v VARCHAR(120),
  n BIGINT,
  b BLOB,
  KEY by_v (v(10))
) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=2 DEFAULT CHARSET=utf8mb4;
INSERT INTO zip2 SELECT seq, LEFT(CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 90)), 120),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 500000),
  CASE WHEN seq % 50 = 0 AND 2 > 1 THEN REPEAT(CONCAT('blob', seq), 900) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_1200;
DELETE FROM zip2 WHERE id % 7 = 0;
UPDATE zip2 SET v = LEFT(CONCAT(v, ' updated'), 120), n = -n WHERE id % 5 = 0;
INSERT INTO zip2 VALUES (5000, 'after the deletes', 1, NULL);
CREATE TABLE zip4 (
  id INT NOT NULL PRIMARY KEY,
  v VARCHAR(120),
  n BIGINT,
  b BLOB,
  KEY by_v (v(10))
) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4 DEFAULT CHARSET=utf8mb4;
INSERT INTO zip4 SELECT seq, LEFT(CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 90)), 120),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 500000),
  CASE WHEN seq % 50 = 0 AND 4 > 1 THEN REPEAT(CONCAT('blob', seq), 900) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_1200;
DELETE FROM zip4 WHERE id % 7 = 0;
UPDATE zip4 SET v = LEFT(CONCAT(v, ' updated'), 120), n = -n WHERE id % 5 = 0;
INSERT INTO zip4 VALUES (5000, 'after the deletes', 1, NULL);
CREATE TABLE zip8 (
  id INT NOT NULL PRIMARY KEY,
  v VARCHAR(120),
  n BIGINT,
  b BLOB,
  KEY by_v (v(10))
) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 DEFAULT CHARSET=utf8mb4;
INSERT INTO zip8 SELECT seq, LEFT(CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 90)), 120),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 500000),
  CASE WHEN seq % 50 = 0 AND 8 > 1 THEN REPEAT(CONCAT('blob', seq), 900) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_1200;
DELETE FROM zip8 WHERE id % 7 = 0;
UPDATE zip8 SET v = LEFT(CONCAT(v, ' updated'), 120), n = -n WHERE id % 5 = 0;
INSERT INTO zip8 VALUES (5000, 'after the deletes', 1, NULL);
CREATE TABLE zip16 (
  id INT NOT NULL PRIMARY KEY,
  v VARCHAR(120),
  n BIGINT,
  b BLOB,
  KEY by_v (v(10))
) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=16 DEFAULT CHARSET=utf8mb4;
INSERT INTO zip16 SELECT seq, LEFT(CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 90)), 120),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 500000),
  CASE WHEN seq % 50 = 0 AND 16 > 1 THEN REPEAT(CONCAT('blob', seq), 900) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_1200;
DELETE FROM zip16 WHERE id % 7 = 0;
UPDATE zip16 SET v = LEFT(CONCAT(v, ' updated'), 120), n = -n WHERE id % 5 = 0;
INSERT INTO zip16 VALUES (5000, 'after the deletes', 1, NULL);
