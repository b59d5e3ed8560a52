-- Executed by make.sh against a fresh private MariaDB instance.
-- Deterministic except the UUID() values (t_uuid, t_bin16) and time columns.
CREATE DATABASE hist CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
USE hist;

-- Crockford base32 (0-9, A-Z without I L O U) of the low 5*width bits of n.
DELIMITER //
CREATE FUNCTION crockford32(n BIGINT UNSIGNED, width INT) RETURNS VARCHAR(32) CHARACTER SET ascii
  DETERMINISTIC NO SQL
BEGIN
  DECLARE s VARCHAR(32) CHARACTER SET ascii DEFAULT '';
  WHILE width > 0 DO
    SET s = CONCAT(SUBSTRING('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (n & 31) + 1, 1), s);
    SET n = n >> 5;
    SET width = width - 1;
  END WHILE;
  RETURN s;
END//
DELIMITER ;

-- 3000 rows, BIGINT AUTO_INCREMENT PK (ids 1..3000, appended in key order).
CREATE TABLE t_autoinc (
  id      BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  payload VARCHAR(200) NOT NULL
) ENGINE=InnoDB;
INSERT INTO t_autoinc (payload)
  SELECT CONCAT('row-', seq, '-', LEFT(REPEAT(MD5(seq), 2), 20 + seq % 41)) FROM seq_1_to_3000;

-- 3000 rows, CHAR(36) utf8mb4 PK holding UUID() text (MariaDB UUID() is a
-- version-1 UUID, so successive values are nearly in text order; the rows are
-- inserted in a pseudo-random order, ORDER BY MD5(seq), to model random keys).
CREATE TABLE t_uuid (
  id   CHAR(36) NOT NULL PRIMARY KEY,
  seq  INT NOT NULL,
  note VARCHAR(40) NOT NULL
) ENGINE=InnoDB;
CREATE TEMPORARY TABLE tmp_uuid (seq INT NOT NULL PRIMARY KEY, u CHAR(36) NOT NULL);
INSERT INTO tmp_uuid SELECT seq, UUID() FROM seq_1_to_3000;
INSERT INTO t_uuid SELECT u, seq, CONCAT('uuid row ', seq) FROM tmp_uuid ORDER BY MD5(seq);
DROP TEMPORARY TABLE tmp_uuid;

-- 3000 rows, CHAR(26) ascii_bin PK holding ULID-like strings: 10 Crockford
-- base32 chars of a millisecond timestamp (2025-01-01T00:00:00Z + seq*250 ms,
-- increasing) + 16 chars (80 bits) taken from MD5('ulid-<seq>'); inserted in
-- timestamp (= key) order.
CREATE TABLE t_ulid (
  id         CHAR(26) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
  seq        INT NOT NULL,
  created_ms BIGINT NOT NULL,
  n          INT NOT NULL,
  note       VARCHAR(40) NOT NULL
) ENGINE=InnoDB;
INSERT INTO t_ulid
  SELECT CONCAT(crockford32(1735689600000 + seq * 250, 10),
                crockford32(CONV(SUBSTRING(MD5(CONCAT('ulid-', seq)), 1, 10), 16, 10), 8),
                crockford32(CONV(SUBSTRING(MD5(CONCAT('ulid-', seq)), 11, 10), 16, 10), 8)),
         seq, 1735689600000 + seq * 250, seq, CONCAT('ulid row ', seq)
  FROM seq_1_to_3000;

-- 3000 rows, BINARY(16) PK = UNHEX(REPLACE(UUID(),'-','')) (UUID_TO_BIN without
-- the time swap; inserted in generation order).
CREATE TABLE t_bin16 (
  id    BINARY(16) NOT NULL PRIMARY KEY,
  seq   INT NOT NULL,
  label VARCHAR(40) NOT NULL
) ENGINE=InnoDB;
INSERT INTO t_bin16 SELECT UNHEX(REPLACE(UUID(), '-', '')), seq, CONCAT('bin16 row ', seq) FROM seq_1_to_3000;

-- 3000 rows, INT PK + a UNIQUE secondary index and a two-column secondary index.
CREATE TABLE t_sec (
  id      INT UNSIGNED NOT NULL PRIMARY KEY,
  email   VARCHAR(64) NOT NULL,
  grp     SMALLINT NOT NULL,
  created DATETIME NOT NULL,
  note    VARCHAR(100) NULL,
  UNIQUE KEY uk_email (email),
  KEY k_grp_created (grp, created)
) ENGINE=InnoDB;
INSERT INTO t_sec
  SELECT seq, CONCAT('user', LPAD(seq * 7919 % 100003, 6, '0'), '@example.com'), seq % 50,
         TIMESTAMP'2024-01-01 00:00:00' + INTERVAL seq * 37 MINUTE,
         IF(seq % 9 = 0, NULL, CONCAT('note ', seq))
  FROM seq_1_to_3000;

ANALYZE TABLE t_autoinc, t_uuid, t_ulid, t_bin16, t_sec;
