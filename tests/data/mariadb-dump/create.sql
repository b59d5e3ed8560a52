-- Executed by make.sh (mariadb --default-character-set=utf8mb4)
-- against a fresh private MariaDB instance started with
-- --default-time-zone=+00:00. Every value is deterministic.
CREATE DATABASE dumptest CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
USE dumptest;

-- A string with every character mariadb-dump escapes (' " \ LF CR NUL ^Z)
-- and the tab, which it writes raw.
SET @esc = CONCAT('quote '' dquote " backslash \\ newline', CHAR(10 USING utf8mb4),
                  'cr', CHAR(13 USING utf8mb4), 'tab', CHAR(9 USING utf8mb4),
                  'nul', CHAR(0 USING utf8mb4), 'ctrlz', CHAR(26 USING utf8mb4), 'end');
-- Non-ASCII text: 2-byte (Latin, Greek, Cyrillic), 3-byte (CJK, Hangul) and
-- 4-byte (emoji, one with a skin-tone modifier) UTF-8.
SET @utf8 = 'café naïve Zürich Ærøskøbing Ωμέγα Привет 日本語 中文 한국어 😀🎉👍🏽';
-- The 256 byte values 0x00..0xFF in ascending order (a binary string).
SET @bytes = (SELECT UNHEX(GROUP_CONCAT(LPAD(HEX(seq), 2, '0') ORDER BY seq SEPARATOR ''))
              FROM seq_0_to_255);

-- Integers: every width, signed and unsigned, minimum/maximum, NULLs,
-- NOT NULL DEFAULT columns, a UNIQUE and a two-column secondary key, an
-- AUTO_INCREMENT gap, and a row with id 0 (why mariadb-dump sets
-- SQL_MODE='NO_AUTO_VALUE_ON_ZERO').
CREATE TABLE t_int (
  id          INT NOT NULL AUTO_INCREMENT,
  ti          TINYINT NULL,
  ti_u        TINYINT UNSIGNED NULL,
  si          SMALLINT NULL,
  si_u        SMALLINT UNSIGNED NULL,
  mi          MEDIUMINT NULL,
  mi_u        MEDIUMINT UNSIGNED NULL,
  i           INT NULL,
  i_u         INT UNSIGNED NULL,
  bi          BIGINT NULL,
  bi_u        BIGINT UNSIGNED NULL,
  code        VARCHAR(20) NOT NULL,
  qty         INT NOT NULL DEFAULT 0,
  flag        TINYINT NOT NULL DEFAULT 1,
  big_default BIGINT UNSIGNED NOT NULL DEFAULT 18446744073709551615,
  PRIMARY KEY (id),
  UNIQUE KEY uk_code (code),
  KEY k_i_bi (i, bi)
) ENGINE=InnoDB;
INSERT INTO t_int (ti, ti_u, si, si_u, mi, mi_u, i, i_u, bi, bi_u, code, qty, flag, big_default) VALUES
  (-128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0, 'min', -2147483648, -128, 0),
  (127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807,
   18446744073709551615, 'max', 2147483647, 127, 18446744073709551615),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'zero', 0, 0, 0),
  (-1, 1, -1, 1, -1, 1, -1, 1, -1, 1, 'minus-one', -1, -1, 1);
INSERT INTO t_int (code) VALUES ('nulls-and-defaults');
INSERT INTO t_int (ti, ti_u, si, si_u, mi, mi_u, i, i_u, bi, bi_u, code, qty)
  SELECT CAST(seq AS SIGNED) * 37 % 256 - 128, seq * 53 % 256,
         CAST(seq AS SIGNED) * 1237 % 65536 - 32768, seq * 2477 % 65536,
         CAST(seq AS SIGNED) * 104729 % 16777216 - 8388608, seq * 224737 % 16777216,
         CAST(seq AS SIGNED) * 1000003 * IF(seq % 2 = 0, 1, -1), seq * 85999999 % 4294967296,
         CAST(seq AS SIGNED) * 123456789012345 * IF(seq % 3 = 0, 1, -1), seq * 369000000000000007,
         CONCAT('gen-', LPAD(seq, 2, '0')), IF(seq % 4 = 0, NULL, seq)
  FROM seq_1_to_40 WHERE seq % 4 <> 0
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL, NULL, seq, NULL, NULL, NULL, CONCAT('gen-', LPAD(seq, 2, '0')), 0
  FROM seq_1_to_40 WHERE seq % 4 = 0
  ORDER BY 11;
INSERT INTO t_int (id, code, qty) VALUES (1000, 'after-gap', 7);
INSERT INTO t_int (code, qty) VALUES ('after-gap-auto', 8);
SET @saved_mode = @@sql_mode;
SET sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO');
INSERT INTO t_int (id, ti, code) VALUES (0, 0, 'id-zero');
SET sql_mode = @saved_mode;

-- Fixed and floating point. FLOAT/DOUBLE values are ones whose printed form
-- reads back as the same value (at most 6 significant digits for FLOAT).
CREATE TABLE t_num (
  id     SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT,
  label  VARCHAR(20) NOT NULL,
  money  DECIMAL(10,2) NULL,
  whole  DECIMAL(5,0) NULL,
  fine   DECIMAL(20,6) NULL,
  wide   DECIMAL(65,30) NULL,
  f      FLOAT NULL,
  d      DOUBLE NULL,
  price  DECIMAL(8,3) NOT NULL DEFAULT 9.990,
  ratio  DOUBLE NOT NULL DEFAULT 0.5,
  f_def  FLOAT NOT NULL DEFAULT -1.5,
  PRIMARY KEY (id),
  KEY k_money (money)
) ENGINE=InnoDB;
INSERT INTO t_num (label, money, whole, fine, wide, f, d) VALUES
  ('zero', 0, 0, 0, 0, 0, 0),
  ('zero-fraction', 100.00, 12345, 42.000000, 1.000000000000000000000000000000, 1.5, 1.5),
  ('negative', -12345678.90, -99999, -0.000001,
   -12345678901234567890123456789012345.123456789012345678901234567890, -0.25, -0.25),
  ('maximum', 99999999.99, 99999, 99999999999999.999999,
   99999999999999999999999999999999999.999999999999999999999999999999, 3.14159, 3.14159),
  ('minimum', -99999999.99, -99999, -99999999999999.999999,
   -99999999999999999999999999999999999.999999999999999999999999999999, -3.14159, -3.141592653589793),
  ('large', 1234567.89, 1, 0.5, 0.000000000000000000000000000001, 1e20, 1e20),
  ('large-negative', -0.01, -1, -0.5, -0.000000000000000000000000000001, -1e20, -1.7976931348623157e308),
  ('small', 0.10, 10, 0.100000, 0.1, 0.125, 0.1),
  ('misc-1', 1.05, 100, 1234.5678, 3.141592653589793238462643383279, 65504, 3.141592653589793),
  ('misc-2', -7.50, -7, -7.25, -2.718281828459045, -7, 2.718281828459045),
  ('misc-3', 42.42, 42, 1e-6, 42, 0.00001, 1e-300),
  ('misc-4', 5, 5, 5, 5, 1234.5, 123456789.125),
  ('misc-5', 6, 6, 6, 6, 100000, 1e15);
INSERT INTO t_num (label) VALUES ('nulls-and-defaults');
INSERT INTO t_num (label, money, price, ratio, f_def) VALUES ('explicit', 1, 0, -2.5, 0.75);

-- Strings keyed by a VARCHAR. Keys use only [a-z0-9-] so the collation order
-- (utf8mb4_general_ci) is also the byte order.
CREATE TABLE t_str (
  k       VARCHAR(40) NOT NULL,
  c       CHAR(10) NULL,
  vc      VARCHAR(300) NULL,
  tt      TINYTEXT NULL,
  tx      TEXT NULL,
  mt      MEDIUMTEXT NULL,
  lt      LONGTEXT NULL,
  status  VARCHAR(16) NOT NULL DEFAULT 'new',
  note    VARCHAR(100) NOT NULL DEFAULT '',
  PRIMARY KEY (k),
  UNIQUE KEY uk_c (c),
  KEY k_vc (vc(16)),
  KEY k_status_note (status, note)
) ENGINE=InnoDB;
INSERT INTO t_str (k, c, vc, tt, tx, mt, lt, status, note) VALUES
  ('escapes',
   CONCAT('''', '"', '\\', CHAR(10 USING utf8mb4), CHAR(13 USING utf8mb4), CHAR(9 USING utf8mb4),
          CHAR(0 USING utf8mb4), CHAR(26 USING utf8mb4)),
   @esc, @esc, @esc, @esc, @esc, 'esc', @esc),
  ('utf8', 'Zürich日本😀', @utf8, @utf8, @utf8, @utf8, @utf8, 'ünïcödé', '日本語 😀'),
  ('empty', '', '', '', '', '', '', '', ''),
  ('null-word', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'),
  ('backslash-sequences', 'a\\nb', 'a\\nb\\tc\\0d\\\\e\\Zf\\''g\\"h\\rj', '\\', '\\\\',
   'ends with a backslash \\', CONCAT('\\', CHAR(10 USING utf8mb4), '\\'), 'bs', 'C:\\temp\\new'),
  ('sql-lookalikes', 'a;b', CONCAT('end of statement; ', CHAR(10 USING utf8mb4), '-- not a comment',
   CHAR(10 USING utf8mb4), '/* not a comment */ `tick` #hash'),
   '''); DROP TABLE t_str; --', 'INSERT INTO `t_str` VALUES (''x'');', '),(', '/*!40000 ALTER */;',
   'sql', CONCAT(');', CHAR(10 USING utf8mb4), 'UNLOCK TABLES;')),
  ('spaces', 'ab  ', '  lead and trail  ', ' ', CONCAT('tab at end', CHAR(9 USING utf8mb4)),
   CONCAT('newline at end', CHAR(10 USING utf8mb4)), '   ', 'sp ', ' sp'),
  ('long', 'long', REPEAT('v', 300), REPEAT('t', 255),
   REPEAT(CONCAT('text é ', CHAR(9 USING utf8mb4), '中 ', CHAR(10 USING utf8mb4)), 300),
   REPEAT(CONCAT('mediumtext é 中 😀 ''q'' "d" \\ ', CHAR(10 USING utf8mb4)), 2000),
   REPEAT('longtext-0123456789 ', 1000), 'long', 'sizes: vc 300, tt 255, mt > 64 KiB');
INSERT INTO t_str (k) VALUES ('nulls-and-defaults');
INSERT INTO t_str (k, c, vc, tt, tx, status)
  SELECT CONCAT('row-', LPAD(seq, 3, '0')), CONCAT('c', seq),
         CONCAT('value ', seq, ' ', REPEAT('ab', seq)),
         IF(seq % 3 = 0, NULL, CONCAT('tiny ', seq)),
         IF(seq % 5 = 0, NULL, CONCAT('text ', seq, ' ', MD5(seq))),
         ELT(1 + seq % 3, 'new', 'open', 'closed')
  FROM seq_1_to_30;

-- Binary data keyed by a BINARY(16) "UUID" (16 bytes from MD5, and a few
-- keys made of the bytes that need escaping); all 256 byte values, and
-- byte pairs that would be UTF-8 lead bytes followed by a quote/backslash.
CREATE TABLE t_bin (
  id   BINARY(16) NOT NULL,
  seq  INT NOT NULL,
  b4   BINARY(4) NULL,
  vb   VARBINARY(300) NULL,
  tb   TINYBLOB NULL,
  bl   BLOB NULL,
  mb   MEDIUMBLOB NULL,
  lb   LONGBLOB NULL,
  tag  VARBINARY(8) NOT NULL DEFAULT 'none',
  PRIMARY KEY (id),
  UNIQUE KEY uk_seq (seq),
  KEY k_b4 (b4)
) ENGINE=InnoDB;
INSERT INTO t_bin (id, seq, b4, vb, tb, bl, mb, lb, tag) VALUES
  (UNHEX(MD5('dumptest-1')), 1, UNHEX('00275C1A'), @bytes, LEFT(@bytes, 255),
   REPEAT(REVERSE(@bytes), 4), REPEAT(@bytes, 257), REPEAT(@bytes, 80), 'all256'),
  (UNHEX(REPEAT('00', 16)), 2, 'ab', '', '', '', '', '', ''),
  (UNHEX('275C220D0A1A00095C5C2727000000FF'), 3, UNHEX('0D0A0900'),
   UNHEX('C327E05CF09F2722C30AE2805CF0E29C'), CAST(@esc AS BINARY), CAST(@utf8 AS BINARY),
   UNHEX('5C5C5C00000027'), UNHEX('1A1A0D0D0A0A'), UNHEX('00FF5C27')),
  (UNHEX(REPEAT('FF', 16)), 4, UNHEX('FFFFFFFF'), UNHEX('80'), UNHEX('C0'), UNHEX('FE'), UNHEX('FF'), UNHEX('00'), 'ff');
INSERT INTO t_bin (id, seq) VALUES (UNHEX('7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F'), 5);
INSERT INTO t_bin (id, seq, b4, vb, tb, bl, tag)
  SELECT UNHEX(MD5(CONCAT('dumptest-', seq))), seq, UNHEX(LEFT(MD5(seq), 8)),
         REPEAT(UNHEX(MD5(seq)), seq % 5), IF(seq % 3 = 0, NULL, UNHEX(SHA1(seq))),
         IF(seq % 7 = 0, NULL, UNHEX(SHA2(seq, 512))), CAST(CONCAT('g', seq) AS BINARY)
  FROM seq_10_to_49;

-- Dates and times, keyed by a composite primary key (DATE, SMALLINT).
-- `modified` is always given explicitly (its default is CURRENT_TIMESTAMP).
CREATE TABLE t_time (
  day      DATE NOT NULL,
  n        SMALLINT NOT NULL,
  d        DATE NULL,
  dt       DATETIME NULL,
  dt6      DATETIME(6) NULL,
  ts       TIMESTAMP NULL,
  modified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  created  DATETIME NOT NULL DEFAULT '2000-01-01 00:00:00',
  label    VARCHAR(30) NOT NULL DEFAULT '',
  PRIMARY KEY (day, n),
  KEY k_ts (ts),
  UNIQUE KEY uk_label_n (label, n)
) ENGINE=InnoDB;
INSERT INTO t_time (day, n, d, dt, dt6, ts, modified, created, label) VALUES
  ('2024-02-29', 1, '2024-02-29', '2024-02-29 23:59:59', '2024-02-29 23:59:59.999999',
   '2024-02-29 12:00:00', '2024-03-01 00:00:00', '2024-02-29 00:00:00', 'leap-day'),
  ('2024-02-29', -2, '2024-03-01', '2024-03-01 00:00:00', '2024-03-01 00:00:00.000001',
   '2024-03-01 00:00:00', '2024-03-01 00:00:01', '2024-03-01 00:00:00', 'leap-day'),
  ('1000-01-01', 1, '1000-01-01', '1000-01-01 00:00:00', '1000-01-01 00:00:00.000000',
   '1970-01-01 00:00:01', '1970-01-01 00:00:01', '1000-01-01 00:00:00', 'minimum'),
  ('9999-12-31', 32767, '9999-12-31', '9999-12-31 23:59:59', '9999-12-31 23:59:59.999999',
   '2038-01-19 03:14:07', '2038-01-19 03:14:07', '9999-12-31 23:59:59', 'maximum'),
  ('2000-01-01', -32768, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000000',
   '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', 'zero-dates'),
  ('2001-02-03', 4, '2001-02-03', '2001-02-03 04:05:06', '2001-02-03 04:05:06.500000',
   '2001-02-03 04:05:06', '2001-02-03 04:05:06', '2001-02-03 04:05:06', 'half-second');
INSERT INTO t_time (day, n, modified, label) VALUES ('2000-01-01', 0, '2000-01-01 00:00:00', 'nulls-and-defaults');
INSERT INTO t_time (day, n, d, dt, dt6, ts, modified, created, label)
  SELECT DATE('2020-01-01') + INTERVAL (seq DIV 3) DAY, seq % 3,
         DATE('1999-12-31') + INTERVAL (seq * 97) DAY,
         TIMESTAMP('2020-01-01 00:00:00') + INTERVAL (seq * 3607) SECOND,
         TIMESTAMP('2020-01-01 00:00:00') + INTERVAL (seq * 1000003) MICROSECOND,
         IF(seq % 4 = 0, NULL, TIMESTAMP('2020-09-13 12:26:40') + INTERVAL (seq * 86399) SECOND),
         TIMESTAMP('2021-01-01 00:00:00') + INTERVAL seq MINUTE,
         TIMESTAMP('2019-06-30 23:59:59') - INTERVAL seq HOUR,
         CONCAT('gen-', seq)
  FROM seq_1_to_30;

-- sysbench-like, 100000 rows: mariadb-dump (net_buffer_length 16 MiB) writes
-- it as one INSERT of just under 16 MiB plus a second, smaller one. The
-- values are derived from the id and repeat inside a row, so they compress.
CREATE TABLE big (
  id   INT NOT NULL AUTO_INCREMENT,
  k    INT NOT NULL DEFAULT 0,
  c    CHAR(120) NOT NULL DEFAULT '',
  pad  CHAR(60) NOT NULL DEFAULT '',
  PRIMARY KEY (id),
  KEY k_1 (k)
) ENGINE=InnoDB;
INSERT INTO big (k, c, pad)
  SELECT 1 + seq * 7919 % 50000,
         LEFT(REPEAT(CONCAT(LPAD(seq, 11, '0'), '-', LEFT(MD5(seq), 8), '-'), 6), 119),
         REPEAT(CHAR(97 + seq % 26 USING ascii), 59)
  FROM seq_1_to_100000 ORDER BY seq;

-- One row of more than 10 MB: since MariaDB 10.11.x mariadb-dump puts every
-- row of an extended INSERT on a line of its own, so only a huge row makes
-- a line longer than 10 MB.
CREATE TABLE huge (
  id    INT NOT NULL,
  note  VARCHAR(40) NOT NULL,
  body  LONGTEXT NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
INSERT INTO huge VALUES
  (1, 'small, before', 'a short row before the huge one'),
  (2, 'huge', REPEAT(CONCAT('huge row: it''s "quoted", a \\ backslash,', CHAR(9 USING utf8mb4),
                            'tab, é 中 😀, CR', CHAR(13 USING utf8mb4), ' and LF', CHAR(10 USING utf8mb4)),
                     155000)),
  (3, 'small, after', 'a short row after it');
