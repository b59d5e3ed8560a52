-- Strata's own additions to ibdNinja's scripts: values whose printing has rules of its own,
-- run on MariaDB by tests/data/ibdninja/make-mariadb-truth.sh (there is no MySQL file of them).
CREATE TABLE edge_numbers (
  id INT NOT NULL PRIMARY KEY,
  f FLOAT(7,3),
  d DOUBLE(12,2),
  z INT(5) UNSIGNED ZEROFILL,
  zb BIGINT UNSIGNED ZEROFILL,
  zd DECIMAL(8,2) UNSIGNED ZEROFILL,
  dn DECIMAL(30,10),
  fl FLOAT,
  db DOUBLE
) ENGINE=InnoDB;
INSERT INTO edge_numbers VALUES
  (1, -1.5, -0.01, 42, 1, 12.5, -0.5, 123456.703125, 1e-16),
  (2, 1234.5678, 12345678.9, 0, 18446744073709551615, 0, 12345678901234567890.0123456789, 3.4e38, -2.2250738585072014e-308),
  (3, -9999.999, 0, 99999, 0, 999999.99, 0, -0.0, 1e15),
  (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

CREATE TABLE edge_text (
  id INT NOT NULL PRIMARY KEY,
  v VARCHAR(40) CHARACTER SET utf8mb4,
  l VARCHAR(40) CHARACTER SET latin1,
  c CHAR(8) CHARACTER SET latin1,
  b VARBINARY(16),
  t TEXT
) ENGINE=InnoDB;
INSERT INTO edge_text VALUES
  (1, 'tab\there', 'café €uro', 'pad  ', X'00410042', 'line\nbreak \\ back'),
  (2, '', '', '', X'', ''),
  (3, '😀 emoji', 'ñandú', 'x', X'FF', REPEAT('long text ', 2000)),
  (4, NULL, NULL, NULL, NULL, NULL);

CREATE TABLE edge_time (
  id INT NOT NULL PRIMARY KEY,
  t TIME(3),
  t0 TIME,
  dt DATETIME(6),
  y YEAR,
  bt BIT(5)
) ENGINE=InnoDB;
INSERT INTO edge_time VALUES
  (1, '-00:00:01.500', '-838:59:59', '1000-01-01 00:00:00.000001', 1901, b'10101'),
  (2, '838:59:58.999', '00:00:00', '9999-12-31 23:59:59.999999', 2155, b'0'),
  (3, '-12:30:00.001', '12:00:00', '2024-02-29 12:00:00.5', 2000, b'11111');
