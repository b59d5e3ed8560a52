-- MariaDB's instant ALTER TABLE in every shape its metadata record takes: columns reordered,
-- dropped (each way a dropped column is stored: fixed, short and long variable, NULL and NOT
-- NULL) and added after a drop, in DYNAMIC, COMPACT and REDUNDANT rows, under a variable-length
-- key, and in a tree of several levels. Rows are written before and after each ALTER, so old
-- rows hold dropped values and lack added ones. Run on MariaDB only (make-mariadb-truth.sh).
SET SESSION alter_algorithm = 'INSTANT';

CREATE TABLE mi_reorder (id INT PRIMARY KEY, a INT, b VARCHAR(10), c INT) ENGINE=InnoDB;
INSERT INTO mi_reorder VALUES (1, 10, 'x', 100), (2, NULL, 'yy', 200);
ALTER TABLE mi_reorder MODIFY c INT FIRST;
INSERT INTO mi_reorder (id, a, b, c) VALUES (3, 30, 'zzz', 300);
ALTER TABLE mi_reorder MODIFY b VARCHAR(10) AFTER c;
INSERT INTO mi_reorder (id, a, b, c) VALUES (4, 40, NULL, 400);

CREATE TABLE mi_drop_add (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(20), c DATETIME(3)) ENGINE=InnoDB;
INSERT INTO mi_drop_add VALUES (1, 11, 'one', '2020-01-02 03:04:05.678'), (2, 22, NULL, NULL), (3, 33, 'three', '1999-12-31 23:59:59.999');
ALTER TABLE mi_drop_add DROP COLUMN a, ADD COLUMN d INT NOT NULL DEFAULT 42 AFTER id;
INSERT INTO mi_drop_add (id, b, c, d) VALUES (4, 'four', '2021-06-07 08:09:10.500', 7);
ALTER TABLE mi_drop_add ADD COLUMN e VARCHAR(10) DEFAULT 'dflt', ADD COLUMN f TEXT;
INSERT INTO mi_drop_add (id, b, c, d, e, f) VALUES (5, 'five', NULL, 5, NULL, REPEAT('f', 300));
UPDATE mi_drop_add SET b = 'two' WHERE id = 2;
DELETE FROM mi_drop_add WHERE id = 3;

CREATE TABLE mi_compact (
  id INT PRIMARY KEY,
  v100 VARCHAR(100) CHARACTER SET utf8mb4,
  v20 VARCHAR(20) CHARACTER SET latin1 NOT NULL,
  ch CHAR(10) CHARACTER SET utf8mb4,
  big BIGINT NOT NULL,
  t TEXT,
  keep1 CHAR(4) CHARACTER SET latin1,
  keep2 DECIMAL(10,2)
) ENGINE=InnoDB ROW_FORMAT=COMPACT;
INSERT INTO mi_compact VALUES (1, 'hundred', 'twenty', 'char', 9000000000, REPEAT('t', 1000), 'k1', 1.25),
  (2, NULL, '', NULL, -1, NULL, NULL, NULL);
ALTER TABLE mi_compact DROP COLUMN v100, DROP COLUMN v20, DROP COLUMN ch, DROP COLUMN big, DROP COLUMN t;
INSERT INTO mi_compact VALUES (3, 'k3', 3.5);
ALTER TABLE mi_compact ADD COLUMN added SMALLINT DEFAULT -7 FIRST;
INSERT INTO mi_compact (id, keep1, keep2, added) VALUES (4, 'k4', NULL, 4);

CREATE TABLE mi_redundant (id INT PRIMARY KEY, a VARCHAR(30), b INT, c INT) ENGINE=InnoDB ROW_FORMAT=REDUNDANT;
INSERT INTO mi_redundant VALUES (1, 'alpha', 1, 10), (2, NULL, 2, NULL);
ALTER TABLE mi_redundant ADD COLUMN d VARCHAR(10) DEFAULT 'dd';
INSERT INTO mi_redundant VALUES (3, 'gamma', 3, 30, 'd3');
ALTER TABLE mi_redundant DROP COLUMN b;
INSERT INTO mi_redundant VALUES (4, 'delta', 40, NULL);
ALTER TABLE mi_redundant MODIFY d VARCHAR(10) AFTER id;
INSERT INTO mi_redundant (id, a, c, d) VALUES (5, 'eps', 50, 'd5');

CREATE TABLE mi_varpk (k VARCHAR(20) PRIMARY KEY, a INT, b VARCHAR(10), n INT NOT NULL) ENGINE=InnoDB;
INSERT INTO mi_varpk VALUES ('apple', 1, 'red', 10), ('banana', NULL, 'yellow', 20);
ALTER TABLE mi_varpk DROP COLUMN a, ADD COLUMN z DATE DEFAULT '2024-02-29';
INSERT INTO mi_varpk (k, b, n, z) VALUES ('cherry', 'dark', 30, NULL), ('', '', 0, '2000-01-01');

-- Enough rows for a tree of two levels before the ALTERs, so the metadata record and the
-- column map sit below a root that is not a leaf.
CREATE TABLE mi_many (id INT PRIMARY KEY, a INT, pad CHAR(200), b INT NOT NULL) ENGINE=InnoDB;
INSERT INTO mi_many SELECT seq, seq * 2, CONCAT('row ', seq), seq % 7 FROM seq_1_to_3000;
ALTER TABLE mi_many DROP COLUMN a, ADD COLUMN c VARCHAR(12) NOT NULL DEFAULT 'added' AFTER id;
INSERT INTO mi_many (id, c, pad, b) SELECT seq, CONCAT('new ', seq), 'after', 1 FROM seq_3001_to_3500;
UPDATE mi_many SET c = 'updated' WHERE id % 500 = 0;
