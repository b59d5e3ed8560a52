// Statements compared with a private MariaDB (the fixture is mariadb_edges.h): ALTER TABLE,
// INSERT ... SELECT and ON DUPLICATE KEY UPDATE, CHECKSUM TABLE, LOAD DATA, stored routines,
// CREATE TABLE ... SELECT, triggers and foreign keys, each script line for line as the server
// answers it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "tests/cli/mariadb_edges.h"

namespace {

using strata::testing::MariadbEdgesTest;
using strata::testing::RunCommand;
using strata::testing::TempDir;

// ALTER TABLE's changes on the server's terms: columns added (FIRST, AFTER, with defaults),
// dropped, changed and renamed, keys added, dropped and renamed, values converted as the
// server converts them (strict refusals naming the row, mended with warnings otherwise), the
// AUTO_INCREMENT counter carried over or set, RENAME TABLE, TRUNCATE, CREATE TABLE ... LIKE,
// savepoints, and each refusal's error. Several thousand rows cross the copy's batches.
TEST_F(MariadbEdgesTest, AlterTableAsTheServerDoesIt) {
  std::string big = "CREATE TABLE big (id INT PRIMARY KEY, a VARCHAR(40), n INT, KEY kn (n));\n";
  std::mt19937 rng(42);
  for (int part = 0; part < 5; ++part) {
    big += "INSERT INTO big VALUES ";
    for (int i = 0; i < 700; ++i) {
      const int id = part * 700 + i + 1;
      big += fmt::format("{}({}, 'v{}-{}', {})", i ? ", " : "", id, rng() % 100000, id, rng() % 50);
    }
    big += ";\n";
  }
  ExpectSame(
      big +
      R"(ALTER TABLE big ADD COLUMN c DECIMAL(10,2) NOT NULL DEFAULT 1.5 FIRST, MODIFY a VARCHAR(60), DROP INDEX kn, ADD UNIQUE KEY ua (a);
SELECT COUNT(*), SUM(id), SUM(n), SUM(c), MIN(a), MAX(a), SUM(LENGTH(a)) FROM big;
CHECKSUM TABLE big;
SELECT * FROM big WHERE id IN (1, 999, 1000, 1001, 3500) ORDER BY id;
ALTER TABLE big DROP PRIMARY KEY, CHANGE n m BIGINT NOT NULL AFTER c;
SELECT COUNT(*), SUM(id), SUM(m), MIN(a) FROM big;
SELECT * FROM big ORDER BY id LIMIT 3;
ALTER TABLE big ADD PRIMARY KEY (m);
ALTER TABLE big ADD PRIMARY KEY (m, id), MODIFY a VARCHAR(5);
ALTER TABLE big ADD PRIMARY KEY (m, id);
SELECT COUNT(*), SUM(id), SUM(m) FROM big;
CHECKSUM TABLE big;
ALTER TABLE big FORCE;
CHECKSUM TABLE big;
SELECT id, m FROM big ORDER BY m, id LIMIT 4;
CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10), n INT, e ENUM('x','y','z'));
INSERT INTO t VALUES (1,'abc',300,'x'),(2,NULL,-5,'z'),(3,'12',7,'y');
ALTER TABLE t MODIFY n TINYINT;
ALTER TABLE t MODIFY n TINYINT UNSIGNED;
ALTER TABLE t MODIFY a INT;
ALTER TABLE t MODIFY e ENUM('z','y','x');
SELECT * FROM t;
ALTER TABLE t MODIFY e ENUM('x','y');
ALTER TABLE t ADD UNIQUE KEY ue (e);
ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (n);
ALTER TABLE t CONVERT TO CHARACTER SET latin1;
SELECT * FROM t ORDER BY id;
CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=100;
INSERT INTO ai VALUES (NULL),(NULL);
TRUNCATE TABLE ai;
INSERT INTO ai VALUES (NULL);
ALTER TABLE ai AUTO_INCREMENT = 50;
INSERT INTO ai VALUES (NULL),(NULL);
DELETE FROM ai WHERE id > 50;
ALTER TABLE ai ADD COLUMN v INT;
INSERT INTO ai (v) VALUES (1);
SELECT * FROM ai;
SET sql_mode='';
ALTER TABLE t MODIFY a VARCHAR(1) NOT NULL;
SELECT * FROM t ORDER BY id;
SET sql_mode=DEFAULT;
ALTER TABLE t DROP COLUMN id, DROP COLUMN a, DROP COLUMN n, DROP COLUMN e;
ALTER TABLE t ALTER COLUMN n SET DEFAULT 42, ALTER e DROP DEFAULT, ADD COLUMN (p INT DEFAULT 3, q CHAR(2) DEFAULT 'q');
INSERT INTO t (id, a) VALUES (9, 'z');
SELECT * FROM t ORDER BY id;
ALTER TABLE t DROP COLUMN IF EXISTS nope, DROP INDEX IF EXISTS nope, RENAME COLUMN p TO pp;
SELECT * FROM t ORDER BY id;
CREATE TABLE t2 LIKE t;
INSERT INTO t2 (id, a) VALUES (1, 'k');
RENAME TABLE t TO t3, t2 TO t;
SHOW TABLES;
RENAME TABLE t3 TO t4, nope TO t5;
SHOW TABLES;
ALTER TABLE t3 RENAME TO t6;
ALTER TABLE nope ADD COLUMN x INT;
RENAME TABLE t6 TO t;
ALTER TABLE t6 RENAME COLUMN a TO n;
ALTER TABLE t6 RENAME INDEX nope TO x;
ALTER TABLE t6 ADD COLUMN q2 INT AFTER nope;
ALTER TABLE t6 ADD COLUMN n INT;
ALTER TABLE t6 MODIFY nope INT;
ALTER TABLE t6 DROP INDEX nope;
ALTER TABLE t6 DROP COLUMN nope;
ALTER TABLE t6 DROP PRIMARY KEY;
ALTER TABLE t6 DROP PRIMARY KEY;
ALTER TABLE t6 ADD KEY kn (n), ADD KEY kn (a);
ALTER TABLE t6 ADD KEY kn (nope);
SELECT * FROM t6 ORDER BY id;
BEGIN;
INSERT INTO t6 (id) VALUES (20);
SAVEPOINT a;
INSERT INTO t6 (id) VALUES (21);
SAVEPOINT b;
INSERT INTO t6 (id) VALUES (22);
ROLLBACK TO SAVEPOINT a;
INSERT INTO t6 (id) VALUES (23);
RELEASE SAVEPOINT a;
ROLLBACK TO b;
COMMIT;
SELECT id FROM t6 ORDER BY id;
ROLLBACK TO a;
)");
}

// INSERT ... SELECT (from the table written too) and ON DUPLICATE KEY UPDATE: VALUES(c), the
// colliding row's own columns, assignments seeing those before them, a change of the primary
// key, a collision on a unique key, and REPLACE ... SELECT.
TEST_F(MariadbEdgesTest, InsertSelectAndOnDuplicateKeyUpdate) {
  ExpectSame(
      R"(CREATE TABLE c (id INT PRIMARY KEY, name VARCHAR(10), hits INT NOT NULL DEFAULT 0, UNIQUE KEY un (name));
INSERT INTO c VALUES (1, 'a', 1), (2, 'b', 1);
INSERT INTO c VALUES (1, 'x', 5) ON DUPLICATE KEY UPDATE hits = hits + VALUES(hits);
INSERT INTO c VALUES (3, 'b', 7), (4, 'd', 1) ON DUPLICATE KEY UPDATE hits = hits + 100, name = CONCAT(name, '!');
SELECT * FROM c ORDER BY id;
INSERT INTO c (id, name) VALUES (1, 'zz') ON DUPLICATE KEY UPDATE hits = hits;
INSERT INTO c VALUES (1, 'q', 1) ON DUPLICATE KEY UPDATE id = 10;
INSERT INTO c VALUES (4, 'q', 1) ON DUPLICATE KEY UPDATE id = 10;
INSERT INTO c VALUES (2, 'q', 1) ON DUPLICATE KEY UPDATE hits = 'abc';
INSERT INTO c SELECT id, name, 50 FROM c WHERE id < 3 ON DUPLICATE KEY UPDATE hits = VALUES(hits) + 1;
SELECT * FROM c ORDER BY id;
REPLACE INTO c SELECT id + 1, CONCAT(name, '2'), hits FROM c WHERE id = 10;
SELECT * FROM c ORDER BY id;
CREATE TABLE d (id INT AUTO_INCREMENT PRIMARY KEY, v DOUBLE, b VARBINARY(4), n VARCHAR(3));
INSERT INTO d (v, b, n) VALUES (0.1, 0x00FF, 'abc'), (1e300, 'ab', NULL);
INSERT INTO d (v, b, n) SELECT v * 2, b, CONCAT(n, 'x') FROM d;
INSERT INTO d (v) SELECT id FROM d WHERE id > 100;
INSERT INTO d SELECT id FROM d;
INSERT IGNORE INTO d SELECT * FROM d WHERE id < 3;
INSERT INTO d (v, b, n) (SELECT v, b, 'toolong' FROM d WHERE id = 1);
SELECT id, v, HEX(b), n FROM d ORDER BY id;
CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, a INT, b INT, UNIQUE KEY ua(a));
INSERT INTO t (a,b) VALUES (1,1) ON DUPLICATE KEY UPDATE b=b+1;
INSERT INTO t (a,b) VALUES (1,1) ON DUPLICATE KEY UPDATE b=b+1;
INSERT INTO t VALUES (NULL,1,1) ON DUPLICATE KEY UPDATE b=b+10;
INSERT INTO t SET a=1, b=5 ON DUPLICATE KEY UPDATE b=VALUES(b);
SELECT * FROM t;
CREATE TABLE u (id INT PRIMARY KEY, a INT, c VARCHAR(5), UNIQUE KEY ua(a));
INSERT INTO u VALUES (1,1,'x'),(2,2,'y');
INSERT IGNORE INTO u VALUES (1,5,'n') ON DUPLICATE KEY UPDATE c='upd';
INSERT IGNORE INTO u VALUES (1,5,'n') ON DUPLICATE KEY UPDATE c='toolongvalue';
INSERT IGNORE INTO u VALUES (1,5,'n') ON DUPLICATE KEY UPDATE a=2;
SELECT * FROM u;
CREATE TABLE r (i INT, bi BIGINT UNSIGNED, f DOUBLE);
INSERT INTO r VALUES (0.5e0, 0.5e0, 0.5), (1.5e0, 1.5e0, 1.5), (2.5e0, 2.5e0, 2.5), (-2.5e0, 3.5e0, -2.5), (-0.5e0, 4.5e0, -0.5);
INSERT INTO r (i, bi) SELECT f, f + 3 FROM r;
ALTER TABLE r MODIFY f INT;
SELECT * FROM r;
CREATE TABLE x (a INT, b INT, KEY a (a));
ALTER TABLE x ADD INDEX (a), ADD UNIQUE (a, b), ADD KEY (b);
ALTER TABLE x DROP INDEX a_3, DROP INDEX a_2;
ALTER TABLE x DROP INDEX a_2;
CREATE TABLE k (id INT PRIMARY KEY, u INT UNIQUE, v INT);
INSERT INTO k VALUES (1, 10, 0), (2, 20, 0);
INSERT IGNORE INTO k VALUES (3, 10, 5) ON DUPLICATE KEY UPDATE id = 2;
SELECT * FROM k ORDER BY id;
)");
}

// CHECKSUM TABLE's figure is the server's for the same rows: NULLs, the NULL bitmap of records
// with and without a variable-length column, every fixed-size type's record bytes, CHAR padded
// in its character set, and a table that is not there.
TEST_F(MariadbEdgesTest, ChecksumTableIsTheServers) {
  ExpectSame(R"(CREATE TABLE a (id INT PRIMARY KEY, n INT, b BIGINT UNSIGNED);
INSERT INTO a VALUES (1, NULL, 5), (2, -3, 18446744073709551615), (3, 7, NULL);
CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(10), c CHAR(3), l CHAR(4) CHARACTER SET latin1, t TEXT, bl BLOB, bi BINARY(4));
INSERT INTO b VALUES (1, 'xy', 'a', 'é', 'text', 0x0001, 'q'), (2, NULL, NULL, NULL, NULL, NULL, NULL), (3, '', '', '', '', '', '');
CREATE TABLE c (id INT NOT NULL, d DATE, dt DATETIME(3), ts TIMESTAMP(2) NULL, tm TIME(1), y YEAR, dec1 DECIMAL(10,3), f FLOAT, db DOUBLE);
INSERT INTO c VALUES (1, '2024-02-29', '2024-02-29 12:34:56.789', '2024-01-01 00:00:00.5', '-12:00:01.5', 2024, -123.456, 1.5, -2.25), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE e (id TINYINT, s SMALLINT, m MEDIUMINT, en ENUM('a','b','c'), st SET('x','y','z'), bt BIT(3), b9 BIT(9), b64 BIT(64));
INSERT INTO e VALUES (-1, -300, 70000, 'b', 'x,z', 5, 300, 1), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE g (id INT PRIMARY KEY, u UUID, i4 INET4, i6 INET6, p POINT);
INSERT INTO g VALUES (1, '123e4567-e89b-12d3-a456-426655440000', '10.0.0.1', '::1', POINT(1,2)), (2, NULL, NULL, NULL, NULL);
CREATE TABLE em (id INT);
CREATE TABLE nn (a INT NOT NULL, b INT NOT NULL);
INSERT INTO nn VALUES (1, 2), (3, 4);
CREATE TABLE n9 (a1 INT, a2 INT, a3 INT, a4 INT, a5 INT, a6 INT, a7 INT, a8 INT, a9 INT);
INSERT INTO n9 VALUES (1,NULL,3,NULL,5,NULL,7,NULL,9), (NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CHECKSUM TABLE a, b, c, e, g, em, nn, n9, nope;
CHECKSUM TABLE a EXTENDED;
DELETE FROM a WHERE id = 2;
CHECKSUM TABLE a;
)");
}

// LOAD DATA INFILE as the server reads a file: tab-separated lines with escapes and \N, a CSV
// with quotes (doubled inside), IGNORE n LINES, a column list, lines with too few or too many
// fields, IGNORE and REPLACE, and a file that is not there.
TEST_F(MariadbEdgesTest, LoadDataReadsFilesAsTheServerDoes) {
  const auto tsv = tmp_.path() / "rows.tsv", csv = tmp_.path() / "rows.csv";
  std::ofstream(tsv) << "1\tabc\t\\N\n2\t\"q\"\t5\n3\n4\tx\t6\textra\n5\ttab\\there\t-1\n6\tnl\\nhere\t\\N\n";
  std::ofstream(csv) << "id,name,n\n\"1\",\"a,b\",\n\"2\",\"say \"\"hi\"\"\",NULL\n3,plain,7\n";
  ExpectSame(fmt::format(R"(CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), n INT);
LOAD DATA INFILE '{0}' INTO TABLE t;
LOAD DATA INFILE '{0}' IGNORE INTO TABLE t;
SELECT id, name, HEX(name), n FROM t ORDER BY id;
DELETE FROM t;
LOAD DATA INFILE '{1}' INTO TABLE t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' LINES TERMINATED BY '\n' IGNORE 1 LINES;
SELECT * FROM t ORDER BY id;
LOAD DATA INFILE '{1}' REPLACE INTO TABLE t FIELDS TERMINATED BY ',' ENCLOSED BY '"' IGNORE 1 ROWS (id, name);
LOAD DATA INFILE '{1}' IGNORE INTO TABLE t FIELDS TERMINATED BY ',' ENCLOSED BY '"' IGNORE 1 ROWS (id, name);
SELECT * FROM t ORDER BY id;
SET sql_mode = '';
LOAD DATA INFILE '{1}' REPLACE INTO TABLE t FIELDS TERMINATED BY ',' ENCLOSED BY '"' IGNORE 1 ROWS (name, id);
SELECT * FROM t ORDER BY id;
LOAD DATA INFILE '{0}.missing' INTO TABLE t;
)",
                         tsv.string(), csv.string()));
}

// Stored procedures and functions as a user writes them with the client's DELIMITER: OUT and
// INOUT parameters, loops with labels, CASE, cursors with a NOT FOUND handler, SELECT ... INTO
// (no row is a warning), CONTINUE and EXIT handlers, SIGNAL and RESIGNAL, nested CALLs,
// functions in SELECT, WHERE, UPDATE and INSERT, the refusals at CREATE time, and where a
// failed routine failed (note 4094, counted in the text SHOW CREATE gives).
TEST_F(MariadbEdgesTest, RoutinesRunAsTheServerRunsThem) {
  ExpectSame(R"SQL(CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20), n INT);
INSERT INTO t VALUES (1,'one',10),(2,'two',20),(3,'three',30);
DELIMITER //
CREATE PROCEDURE p_out(IN a INT, OUT b INT, INOUT c VARCHAR(10))
BEGIN
  SET b = a * 2;
  SET c = CONCAT(c, '!');
END//
CREATE PROCEDURE p_loops()
BEGIN
  DECLARE i INT DEFAULT 0;
  DECLARE s VARCHAR(100) DEFAULT '';
  outer_loop: LOOP
    SET i = i + 1;
    IF i > 10 THEN LEAVE outer_loop; END IF;
    IF i % 2 = 0 THEN ITERATE outer_loop; END IF;
    SET s = CONCAT(s, i, ',');
  END LOOP outer_loop;
  SELECT s, i;
  SET i = 0;
  REPEAT SET i = i + 3; UNTIL i > 10 END REPEAT;
  SELECT i AS after_repeat;
  CASE i WHEN 12 THEN SELECT 'twelve'; WHEN 13 THEN SELECT 'thirteen'; ELSE SELECT 'other'; END CASE;
  CASE WHEN i > 100 THEN SELECT 'big'; WHEN i > 10 THEN SELECT 'medium' AS size; END CASE;
END//
CREATE PROCEDURE p_cursor()
BEGIN
  DECLARE done INT DEFAULT 0;
  DECLARE a INT;
  DECLARE b VARCHAR(20);
  DECLARE total INT DEFAULT 0;
  DECLARE nms VARCHAR(200) DEFAULT '';
  DECLARE cur CURSOR FOR SELECT id, v FROM t ORDER BY id;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  OPEN cur;
  read_loop: LOOP
    FETCH cur INTO a, b;
    IF done THEN LEAVE read_loop; END IF;
    SET total = total + a;
    SET nms = CONCAT(nms, b, ' ');
  END LOOP;
  CLOSE cur;
  SELECT total, nms;
END//
CREATE PROCEDURE p_into(IN k INT)
BEGIN
  DECLARE x VARCHAR(20) DEFAULT 'none';
  SELECT v INTO x FROM t WHERE id = k;
  SELECT x;
END//
CREATE PROCEDURE p_handler()
BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION SELECT 'caught' AS msg;
  INSERT INTO t VALUES (1, 'dup', 0);
  SELECT 'not reached';
END//
CREATE PROCEDURE p_handler2()
BEGIN
  DECLARE CONTINUE HANDLER FOR 1062 SET @dup = 'yes';
  INSERT INTO t VALUES (1, 'dup', 0);
  SELECT @dup AS dup_seen;
END//
CREATE PROCEDURE p_signal(IN x INT)
BEGIN
  IF x < 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'negative not allowed';
  END IF;
  SELECT x;
END//
CREATE FUNCTION f_double(x INT) RETURNS INT DETERMINISTIC
BEGIN
  RETURN x * 2;
END//
CREATE FUNCTION f_name(k INT) RETURNS VARCHAR(20) READS SQL DATA
BEGIN
  DECLARE r VARCHAR(20);
  DECLARE EXIT HANDLER FOR NOT FOUND RETURN 'missing';
  SELECT v INTO r FROM t WHERE id = k;
  RETURN r;
END//
DELIMITER ;
CALL p_out(21, @b, @c);
SELECT @b, @c;
SET @c = 'hi';
CALL p_out(5, @b, @c);
SELECT @b, @c;
CALL p_loops();
CALL p_cursor();
CALL p_into(2);
CALL p_into(9);
CALL p_handler();
CALL p_handler2();
CALL p_signal(5);
CALL p_signal(-1);
SELECT f_double(21), f_double(n) FROM t WHERE id = 2;
SELECT f_name(1), f_name(3);
SELECT f_name(99);
CALL nosuch();
CALL p_out(1);
CALL p_out(1, 2, @c);
DROP PROCEDURE nosuch;
DROP PROCEDURE IF EXISTS nosuch;
CREATE PROCEDURE p_into(IN k INT) SELECT 1;
CREATE PROCEDURE IF NOT EXISTS p_into(IN k INT) SELECT 1;
DROP FUNCTION f_double;
SELECT f_double(1);
CREATE PROCEDURE p_single() SELECT COUNT(*) FROM t;
CALL p_single;
CALL p_single();
DELIMITER //
CREATE PROCEDURE p_bad() BEGIN LEAVE nowhere; END//
CREATE PROCEDURE p_bad2() BEGIN RETURN 1; END//
CREATE FUNCTION f_bad() RETURNS INT BEGIN SELECT 1; RETURN 1; END//
CREATE PROCEDURE p_strict() BEGIN DECLARE x TINYINT; SET x = 1000; SELECT x; END//
CREATE PROCEDURE p_nf() BEGIN DECLARE x INT; DECLARE c CURSOR FOR SELECT id FROM t; OPEN c; FETCH c INTO x; FETCH c INTO x; FETCH c INTO x; FETCH c INTO x; END//
DELIMITER ;
CALL p_strict();
CALL p_nf();
SELECT * FROM t ORDER BY id;
DELIMITER //
CREATE PROCEDURE r3()
BEGIN
SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'spread', MYSQL_ERRNO = 1234
;
END//
CREATE PROCEDURE p_nested(INOUT acc INT)
BEGIN
  DECLARE i INT DEFAULT 0;
  WHILE i < 3 DO
    CALL p_out(i, @twice, @s);
    SET acc = acc + @twice;
    SET i = i + 1;
  END WHILE;
END//
CREATE PROCEDURE p_resignal()
BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    SET @seen = 'handler ran';
    RESIGNAL SET MESSAGE_TEXT = 'changed on the way out';
  END;
  INSERT INTO t VALUES (2, 'again', 0);
END//
CREATE FUNCTION f_grade(score INT) RETURNS VARCHAR(10) DETERMINISTIC
BEGIN
  DECLARE g VARCHAR(10);
  CASE
    WHEN score >= 30 THEN SET g = 'high';
    WHEN score >= 20 THEN SET g = 'mid';
    ELSE SET g = 'low';
  END CASE;
  RETURN g;
END//
DELIMITER ;
CALL r3();
SET @acc = 100;
CALL p_nested(@acc);
SELECT @acc;
CALL p_resignal();
SELECT @seen;
SELECT id, f_grade(n) FROM t WHERE f_grade(n) <> 'low' ORDER BY id;
UPDATE t SET v = f_grade(n) WHERE id = 3;
INSERT INTO t VALUES (4, f_grade(25), f_double(7));
SELECT * FROM t ORDER BY id;
)SQL");
}

// CREATE TABLE ... SELECT: the columns the statement defines that the SELECT does not fill
// first, then the SELECT's with the types of the columns they read (so a value too long or out
// of range for them is refused after, as there), literals typed as the server types them, keys
// the statement adds, REPLACE on a duplicate, and an existing table left alone. (IGNORE is left
// out: on this table MariaDB 10.11 keeps 1 a and 2 b of (1 a, 2 b, 3 c, 4 a) and drops 3 c,
// where from a two-column table it keeps all three; SqlSessionTest covers IGNORE.)
TEST_F(MariadbEdgesTest, CreateTableSelectTakesTheSourceColumns) {
  ExpectSame(R"(CREATE TABLE src (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL DEFAULT 'x',
  price DECIMAL(8,2), note TEXT, d DATE, t TINYINT UNSIGNED);
INSERT INTO src (name, price, note, d, t) VALUES ('a', 1.50, 'n1', '2024-01-02', 7), ('b', NULL, NULL, NULL, 0),
  ('c', 3.25, 'n3', '2023-12-31', 255), ('a', 9.99, '', '2000-02-29', NULL);
CREATE TABLE c1 AS SELECT * FROM src;
SELECT * FROM c1 ORDER BY id;
INSERT INTO c1 (id, name, t) VALUES (9, REPEAT('y', 21), 1);
INSERT INTO c1 (id, name, t) VALUES (9, 'ok', 256);
INSERT INTO c1 (id, t) VALUES (10, 1);
SELECT id, name, t FROM c1 WHERE id > 4;
CREATE TABLE c2 SELECT id, name AS label, t FROM src WHERE price IS NOT NULL ORDER BY id DESC LIMIT 2;
SELECT * FROM c2 ORDER BY id;
CREATE TABLE c3 (id INT PRIMARY KEY, extra INT DEFAULT 7) SELECT id, name FROM src;
SELECT * FROM c3 ORDER BY id;
CREATE TABLE c4 (PRIMARY KEY (id)) SELECT id, 'lit' AS k, 42 AS n FROM src;
SELECT * FROM c4 ORDER BY id;
INSERT INTO c4 VALUES (5, 'long', 1);
CREATE TABLE c5 (UNIQUE KEY (name)) SELECT name FROM src;
SHOW TABLES;
CREATE TABLE c7 (PRIMARY KEY (id), UNIQUE KEY (name)) REPLACE SELECT id, name FROM src ORDER BY id;
SELECT * FROM c7 ORDER BY id;
CREATE TABLE IF NOT EXISTS c7 SELECT 'other' AS name;
SELECT COUNT(*) FROM c7;
CREATE TABLE c1 SELECT 1;
CREATE TABLE c8 SELECT 1 AS one, 'é' AS e, -5 AS neg;
SELECT * FROM c8;
INSERT INTO c8 VALUES (2, 'ab', 1);
)");
}

// Triggers as a user writes them: BEFORE triggers that refuse a row (SIGNAL) or change NEW,
// AFTER triggers writing an audit table with NEW and OLD (AUTO_INCREMENT values included),
// UPDATE triggers firing for rows matched but unchanged, a failing trigger undoing its whole
// statement (its error and where it failed listed after), the refusals at CREATE TRIGGER, DROP
// TRIGGER, and a dropped table taking its triggers.
TEST_F(MariadbEdgesTest, TriggersFireAsTheServerFiresThem) {
  ExpectSame(
      R"SQL(CREATE TABLE acct (id INT AUTO_INCREMENT PRIMARY KEY, owner VARCHAR(20), balance DECIMAL(10,2) NOT NULL DEFAULT 0, updated INT DEFAULT 0);
CREATE TABLE audit (n INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(10), acct INT, old_balance DECIMAL(10,2), new_balance DECIMAL(10,2));
DELIMITER ;;
CREATE TRIGGER acct_bi BEFORE INSERT ON acct FOR EACH ROW
BEGIN
  IF NEW.balance < 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'negative opening balance';
  END IF;
  SET NEW.owner = UPPER(NEW.owner);
END;;
CREATE TRIGGER acct_ai AFTER INSERT ON acct FOR EACH ROW
  INSERT INTO audit (what, acct, new_balance) VALUES ('open', NEW.id, NEW.balance);;
CREATE TRIGGER acct_bu BEFORE UPDATE ON acct FOR EACH ROW SET NEW.updated = OLD.updated + 1;;
CREATE TRIGGER acct_au AFTER UPDATE ON acct FOR EACH ROW
  INSERT INTO audit (what, acct, old_balance, new_balance) VALUES ('change', NEW.id, OLD.balance, NEW.balance);;
CREATE TRIGGER acct_ad AFTER DELETE ON acct FOR EACH ROW
  INSERT INTO audit (what, acct, old_balance) VALUES ('close', OLD.id, OLD.balance);;
DELIMITER ;
INSERT INTO acct (owner, balance) VALUES ('ann', 10), ('bob', 20.5);
INSERT INTO acct (owner, balance) VALUES ('cy', 5), ('dee', -1);
SELECT * FROM acct ORDER BY id;
UPDATE acct SET balance = balance * 2 WHERE id <= 2;
UPDATE acct SET balance = balance WHERE id = 1;
DELETE FROM acct WHERE id = 2;
SELECT * FROM acct ORDER BY id;
SELECT * FROM audit ORDER BY n;
CREATE TRIGGER acct_ai AFTER INSERT ON acct FOR EACH ROW SET @x = 1;
CREATE TRIGGER bad1 AFTER INSERT ON acct FOR EACH ROW SET NEW.owner = 'x';
CREATE TRIGGER bad2 BEFORE INSERT ON acct FOR EACH ROW SET @x = OLD.owner;
CREATE TRIGGER bad3 BEFORE DELETE ON acct FOR EACH ROW SET @x = NEW.owner;
CREATE TRIGGER bad4 BEFORE UPDATE ON acct FOR EACH ROW SET OLD.owner = 'x';
CREATE TRIGGER bad5 BEFORE UPDATE ON nosuch FOR EACH ROW SET @x = 1;
CREATE TRIGGER bad6 BEFORE UPDATE ON acct FOR EACH ROW SELECT 1;
DROP TRIGGER nosuch;
DROP TRIGGER IF EXISTS nosuch;
DROP TRIGGER acct_bu;
UPDATE acct SET balance = 1 WHERE id = 1;
SELECT * FROM acct ORDER BY id;
DROP TABLE acct;
CREATE TABLE acct (id INT PRIMARY KEY);
INSERT INTO acct VALUES (1);
SELECT COUNT(*) FROM audit;
DROP TRIGGER acct_ai;
)SQL");
}

// Functions and triggers inside other statements: a function writing another table from a
// SELECT's rows, its writes undone with a statement that fails, 1442 for a write to the table
// the calling statement changes, the types dumps write (RETURNS varchar(50) CHARSET ...), and
// a condition a handler took not left among the CALL's warnings.
TEST_F(MariadbEdgesTest, RoutinesInsideOtherStatements) {
  ExpectSame(R"SQL(DROP DATABASE IF EXISTS ri_r01; CREATE DATABASE ri_r01; USE ri_r01;
CREATE TABLE t (id INT PRIMARY KEY, v INT);
CREATE TABLE u (id INT PRIMARY KEY);
INSERT INTO t VALUES (1, 10); INSERT INTO u VALUES (1);
DELIMITER //
CREATE FUNCTION bump(i INT) RETURNS INT MODIFIES SQL DATA BEGIN UPDATE t SET v = v + 1 WHERE id = i; RETURN i; END//
DELIMITER ;
SELECT bump(1) FROM u;
SELECT * FROM t;
DROP DATABASE ri_r01;
DROP DATABASE IF EXISTS ri_r02; CREATE DATABASE ri_r02; USE ri_r02;
CREATE TABLE t (id INT PRIMARY KEY);
DELIMITER //
CREATE FUNCTION ins(v INT) RETURNS INT BEGIN INSERT INTO t VALUES (v); RETURN v; END//
DELIMITER ;
SELECT ins(1), ins(1);
SELECT * FROM t;
START TRANSACTION;
SELECT ins(101), ins(101);
COMMIT;
SELECT * FROM t;
DROP DATABASE ri_r02;
DROP DATABASE IF EXISTS ri_r05; CREATE DATABASE ri_r05; USE ri_r05;
CREATE TABLE t (id INT PRIMARY KEY, v INT);
INSERT INTO t VALUES (1, 10), (2, 20);
DELIMITER //
CREATE FUNCTION bump(i INT) RETURNS INT MODIFIES SQL DATA BEGIN UPDATE t SET v = v + 1 WHERE id = i; RETURN i; END//
DELIMITER ;
SET innodb_lock_wait_timeout = 2;
UPDATE t SET v = bump(id);
SELECT * FROM t;
DROP DATABASE ri_r05;
DROP DATABASE IF EXISTS ri_r04; CREATE DATABASE ri_r04; USE ri_r04;
DELIMITER ;;
CREATE FUNCTION greet(who VARCHAR(20)) RETURNS varchar(50) CHARSET utf8mb4 COLLATE utf8mb4_general_ci
    DETERMINISTIC
RETURN CONCAT('Hello, ', who, '!') ;;
CREATE PROCEDURE p(a VARCHAR(10) CHARACTER SET latin1) BEGIN DECLARE v VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT 'A'; SELECT a, v; END ;;
DELIMITER ;
SELECT greet('x');
CALL p('b');
DROP DATABASE ri_r04;
DROP DATABASE IF EXISTS ri_r09; CREATE DATABASE ri_r09; USE ri_r09;
CREATE PROCEDURE inner_p() SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'boom';
DELIMITER //
CREATE PROCEDURE outer_p()
BEGIN
  DECLARE CONTINUE HANDLER FOR SQLEXCEPTION SET @caught = 1;
  CALL inner_p();
END//
DELIMITER ;
CALL outer_p();
SELECT @@warning_count, @@error_count;
DROP DATABASE ri_r09;
)SQL");
}

// Foreign keys as InnoDB keeps them: 1452 for a child row without its parent (checked after
// each row, so a row may reference itself), 1451 for a parent row its children keep, CASCADE
// and SET NULL through levels and over a _ci collation, the 15-level limit (1296 after warning
// 152), no cascading update into the table being updated, the 1005 refusals with their
// warnings 150/121, the index a key needs (1553) and its columns' types (1832/1833), DROP and
// TRUNCATE of a parent, ALTER ADD/DROP FOREIGN KEY, foreign_key_checks=0, IGNORE.
// Keys of UNSIGNED integers (sakila's are): a child's value finds its parent row.
TEST_F(MariadbEdgesTest, ForeignKeysOnUnsignedKeys) {
  ExpectSame(R"SQL(CREATE TABLE p (id TINYINT UNSIGNED PRIMARY KEY, b SMALLINT UNSIGNED, UNIQUE KEY (b));
CREATE TABLE c (id INT PRIMARY KEY, pid TINYINT UNSIGNED, pb SMALLINT UNSIGNED,
  FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE, FOREIGN KEY (pb) REFERENCES p (b) ON UPDATE CASCADE);
INSERT INTO p VALUES (1, 100), (200, 65535);
INSERT INTO c VALUES (1, 1, 100), (2, 200, 65535), (3, 200, NULL);
INSERT INTO c VALUES (4, 2, NULL);
UPDATE p SET b = 7 WHERE id = 1;
DELETE FROM p WHERE id = 200;
SELECT * FROM c;
)SQL");
}

TEST_F(MariadbEdgesTest, ForeignKeysAsInnoDBKeepsThem) {
  ExpectSame(R"SQL(CREATE TABLE p (id INT PRIMARY KEY, name VARCHAR(10));
CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p(id) ON DELETE CASCADE);
CREATE TABLE c2 (id INT PRIMARY KEY, pid INT, CONSTRAINT fk_x FOREIGN KEY (pid) REFERENCES p(id) ON DELETE SET NULL ON UPDATE CASCADE, q INT, FOREIGN KEY myidx (q) REFERENCES p(id) ON UPDATE RESTRICT ON DELETE NO ACTION);
INSERT INTO p VALUES (1,'a'),(2,'b'),(3,'c');
INSERT INTO c VALUES (10, 4);
INSERT INTO c VALUES (10, 1), (11, NULL), (12, 2), (13, 3);
INSERT INTO c2 VALUES (20, 1, 2), (21, 3, NULL);
DELETE FROM p WHERE id = 2;
UPDATE p SET id = 5 WHERE id = 1;
UPDATE p SET id = 6 WHERE id = 3;
DELETE FROM c WHERE id = 13;
UPDATE p SET id = 6 WHERE id = 3;
SELECT * FROM c2 ORDER BY id; SELECT * FROM c ORDER BY id;
DELETE FROM p WHERE id = 1;
SELECT * FROM c ORDER BY id; SELECT * FROM c2 ORDER BY id;
UPDATE c SET pid = 9 WHERE id = 11;
INSERT IGNORE INTO c VALUES (30, 8), (31, 6);
SELECT * FROM c ORDER BY id;
REPLACE INTO p VALUES (6, 'again');
SELECT * FROM c ORDER BY id;
DROP TABLE p;
TRUNCATE p;
DROP TABLE c2, c, p;
CREATE TABLE p (id INT PRIMARY KEY, name VARCHAR(10) NOT NULL, UNIQUE KEY (name));
CREATE TABLE bad (id INT, x INT, FOREIGN KEY (x) REFERENCES nope(id));
CREATE TABLE bad (id INT, x VARCHAR(10), FOREIGN KEY (x) REFERENCES p(nope));
CREATE TABLE bad (id INT, x BIGINT, FOREIGN KEY (x) REFERENCES p(id));
CREATE TABLE bad (id INT, x INT NOT NULL, CONSTRAINT k FOREIGN KEY (x) REFERENCES p(id) ON DELETE SET NULL);
SHOW WARNINGS;
CREATE TABLE ok1 (id INT PRIMARY KEY, pn VARCHAR(20), CONSTRAINT k1 FOREIGN KEY (pn) REFERENCES p(name) ON UPDATE CASCADE);
CREATE TABLE ok2 (id INT PRIMARY KEY, x INT, CONSTRAINT k1 FOREIGN KEY (x) REFERENCES p(id));
CREATE TABLE ok3 (id INT PRIMARY KEY, x INT, CONSTRAINT k3 FOREIGN KEY (x) REFERENCES p(id), CONSTRAINT k3 FOREIGN KEY (id) REFERENCES p(id));
INSERT INTO p VALUES (1, 'Ann'), (2, 'bob');
INSERT INTO ok1 VALUES (1, 'ann'), (2, 'BOB'), (3, NULL);
UPDATE p SET name = 'Anna' WHERE id = 1;
SELECT * FROM ok1 ORDER BY id;
ALTER TABLE ok1 DROP INDEX k1;
ALTER TABLE p DROP INDEX name;
ALTER TABLE ok1 DROP COLUMN pn;
ALTER TABLE p MODIFY name VARCHAR(30) NOT NULL;
ALTER TABLE ok1 MODIFY pn VARCHAR(30);
ALTER TABLE ok1 DROP FOREIGN KEY nope;
ALTER TABLE ok1 DROP FOREIGN KEY IF EXISTS nope;
ALTER TABLE ok1 ADD CONSTRAINT k1 FOREIGN KEY (id) REFERENCES p(id);
ALTER TABLE ok1 ADD CONSTRAINT k2 FOREIGN KEY (id) REFERENCES p(id);
DELETE FROM ok1 WHERE id = 3;
ALTER TABLE ok1 ADD CONSTRAINT k2 FOREIGN KEY (id) REFERENCES p(id);
INSERT INTO ok1 VALUES (5, NULL);
ALTER TABLE ok1 DROP FOREIGN KEY k2;
INSERT INTO ok1 VALUES (5, NULL);
ALTER TABLE ok1 DROP FOREIGN KEY k1;
DROP TABLE p;
SET foreign_key_checks = 0;
INSERT INTO ok1 VALUES (6, 'nobody');
CREATE TABLE later (id INT, x INT, FOREIGN KEY (x) REFERENCES nope(id));
INSERT INTO later VALUES (1, 1);
DROP TABLE p;
SET foreign_key_checks = 1;
INSERT INTO later VALUES (2, 2);
SELECT * FROM later ORDER BY id;
CREATE TABLE chain (id INT PRIMARY KEY, up INT, FOREIGN KEY (up) REFERENCES chain(id) ON DELETE CASCADE ON UPDATE CASCADE);
INSERT INTO chain VALUES (1,1),(2,1),(3,2),(4,3),(5,4),(6,5),(7,6),(8,7),(9,8),(10,9),(11,10),(12,11),(13,12),(14,13),(15,14),(16,15),(17,16),(18,17),(19,18),(20,19);
INSERT INTO chain VALUES (21, 22), (22, 22);
DELETE FROM chain WHERE id = 5;
SELECT COUNT(*) FROM chain;
UPDATE chain SET id = 100 WHERE id = 20;
UPDATE chain SET id = 100 WHERE id = 19;
DELETE FROM chain WHERE id = 6;
SELECT * FROM chain ORDER BY id;
DELETE FROM chain WHERE id = 1;
SELECT COUNT(*) FROM chain;
SET foreign_key_checks = 0;
CREATE TABLE c9 (id INT PRIMARY KEY, x INT, FOREIGN KEY (x) REFERENCES p9 (nope));
CREATE TABLE p9 (id INT PRIMARY KEY);
SET foreign_key_checks = 1;
INSERT INTO p9 VALUES (1);
DELETE FROM p9;
INSERT INTO c9 VALUES (1, 1);
UPDATE p9 SET id = 2;
ALTER TABLE p9 ADD COLUMN z INT;
DROP TABLE p9;
)SQL");
}

}  // namespace
