-- Keys as people write them: unnamed ones (the server names them after their first column,
-- then col_2, ...), a CONSTRAINT's name standing for the key's, a UNIQUE written on the column
-- itself, and a primary key on a column prefix, whose prefix every secondary index carries.
-- Read with this script as --create-table, not the server's SHOW CREATE TABLE (which names
-- every key).
CREATE TABLE key_shapes (
  name VARCHAR(40) NOT NULL,
  n INT NOT NULL,
  code CHAR(6) UNIQUE,
  email VARCHAR(60),
  note VARCHAR(200),
  PRIMARY KEY (name(4), n),
  UNIQUE (email),
  KEY (n),
  KEY (n, code),
  CONSTRAINT uk_code_n UNIQUE (code, n)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
SET SESSION max_recursive_iterations = 10000;
INSERT INTO key_shapes
SELECT * FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000)
  SELECT CONCAT(ELT(1 + i % 3, 'alpha', 'beta', 'gamma'), '-', i) AS name, i AS n,
         IF(i % 7 = 0, NULL, LPAD(HEX(i * 7919 % 1000003), 6, '0')) AS code,
         IF(i % 5 = 0, NULL, CONCAT('user', i, '@example.org')) AS email,
         REPEAT(CHAR(97 + i % 26), i % 150) AS note
  FROM s) AS rows_;
