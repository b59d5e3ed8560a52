-- Executed by make.sh against a fresh private MariaDB instance.
-- Row data is deterministic except UUID() values in t_uuid and time columns.
CREATE DATABASE strata_fx CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
USE strata_fx;

-- (a) 2000 rows, AUTO_INCREMENT PK, nullable column, secondary index.
--     ROW_FORMAT defaults to DYNAMIC; clustered index has 2 levels.
CREATE TABLE t_int (
  id   INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  val  INT NULL,
  KEY k_val (val)
) ENGINE=InnoDB;
INSERT INTO t_int (name, val)
  SELECT CONCAT('name-', seq, '-', REPEAT(CHAR(97 + seq % 26 USING ascii), seq % 61)),
         IF(seq % 7 = 0, NULL, (seq * 37) % 1000)
  FROM seq_1_to_2000;

-- (b) 2000 rows keyed by UUID() text (random-order inserts, page splits).
--     CHAR(36) in utf8mb4 is stored variable-length (36..144 bytes) in DYNAMIC.
CREATE TABLE t_uuid (
  id CHAR(36) NOT NULL PRIMARY KEY,
  n  INT NOT NULL
) ENGINE=InnoDB;
INSERT INTO t_uuid SELECT UUID(), seq FROM seq_1_to_2000;

-- (c)/(d) same schema in the two pre-DYNAMIC row formats.
CREATE TABLE t_redundant (
  id  INT NOT NULL PRIMARY KEY,
  big BIGINT NOT NULL,
  s   VARCHAR(60) NULL,
  c   CHAR(10) NOT NULL,
  d   DATE NULL,
  n   INT NULL,
  KEY k_n (n)
) ENGINE=InnoDB ROW_FORMAT=REDUNDANT;
INSERT INTO t_redundant
  SELECT seq, CAST(seq AS SIGNED) * 1000003 - 500000000, IF(seq % 5 = 0, NULL, REPEAT(CHAR(65 + seq % 26 USING ascii), seq % 60)),
         CONCAT('c', seq), IF(seq % 3 = 0, NULL, DATE('2020-01-01') + INTERVAL seq DAY),
         IF(seq % 4 = 0, NULL, CAST(seq AS SIGNED) % 17 - 8)
  FROM seq_1_to_300;
CREATE TABLE t_compact LIKE t_redundant;
ALTER TABLE t_compact ROW_FORMAT=COMPACT;
INSERT INTO t_compact SELECT * FROM t_redundant;

-- (e) off-page (externally stored) BLOB/TEXT columns: two 40 KB values,
--     plus small rows that stay in-page.
CREATE TABLE t_blob (
  id   INT NOT NULL PRIMARY KEY,
  note VARCHAR(20) NOT NULL,
  body LONGBLOB NULL,
  txt  TEXT NULL
) ENGINE=InnoDB;
INSERT INTO t_blob VALUES
  (1, 'small', 'tiny blob', 'tiny text'),
  (2, 'big-blob', (SELECT GROUP_CONCAT(LPAD(seq, 8, '0') ORDER BY seq SEPARATOR '') FROM seq_1_to_5000), 'short'),
  (3, 'big-text', NULL, (SELECT GROUP_CONCAT(MD5(seq) ORDER BY seq SEPARATOR '') FROM seq_1_to_1250)),
  (4, 'null', NULL, NULL);

-- (f) old (non-full_crc32) tablespace format: tables created while
--     innodb_checksum_algorithm=crc32 get FSP flags without the 0x10 marker.
SET GLOBAL innodb_checksum_algorithm = crc32;
CREATE TABLE t_crc32 (
  id  INT NOT NULL PRIMARY KEY,
  s   VARCHAR(40) NOT NULL,
  n   INT NULL,
  KEY k_n (n)
) ENGINE=InnoDB ROW_FORMAT=DYNAMIC;
CREATE TABLE t_crc32_compact LIKE t_crc32;
ALTER TABLE t_crc32_compact ROW_FORMAT=COMPACT;
SET GLOBAL innodb_checksum_algorithm = full_crc32;
INSERT INTO t_crc32 SELECT seq, CONCAT('crc32-row-', seq), IF(seq % 6 = 0, NULL, seq % 50) FROM seq_1_to_300;
INSERT INTO t_crc32_compact SELECT * FROM t_crc32;
