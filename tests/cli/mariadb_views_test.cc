// Views against the private MariaDB: the definitions SHOW CREATE VIEW and mariadb-dump print,
// reads, writes and WITH CHECK OPTION through them, their errors, and a mariadb-dump of views
// loaded by `strata sql` and `strata import` reading as the server reads them.
#include <fmt/format.h>

#include "tests/cli/mariadb_edges.h"

namespace strata::testing {
namespace {

// Reads through views: the definition kept as the server prints it (its `*` expanded, NOT
// pushed inwards, functions under their canonical names), WHERE, ORDER BY and LIMIT of the
// query joined to the view's, views over views, aggregates and LIMIT inside the view (read
// whole, or from a copy of its rows when the query filters, sorts or aggregates them).
TEST_F(MariadbEdgesTest, ViewsReadAsTheServerReadsThem) {
  ExpectSame(R"SQL(CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), c DECIMAL(5,2), d DATE);
INSERT INTO t VALUES (1,10,'x',1.5,'2020-01-01'),(2,20,'y',2.25,NULL),(3,NULL,'z',NULL,'1999-12-31'),(4,40,'x',0,NULL),(5,5,NULL,-3,NULL);
CREATE VIEW v AS SELECT id, a+1 AS a1, b FROM t WHERE id < 5;
CREATE VIEW v_all AS SELECT * FROM t;
CREATE ALGORITHM=MERGE VIEW v_named (x, y) AS SELECT id, UPPER(b) FROM t;
CREATE VIEW v_over AS SELECT id, a1 * 2 AS twice FROM v WHERE a1 > 5;
CREATE VIEW v_agg AS SELECT COUNT(*) AS n, SUM(a), MAX(b) FROM t;
CREATE VIEW v_limit AS SELECT id, b FROM t ORDER BY id DESC LIMIT 3;
CREATE VIEW v_const AS SELECT 1 AS one, 'abc', NULL AS nothing;
CREATE VIEW v_logic AS SELECT id FROM t WHERE NOT (a > 10 OR b = 'y') AND NOT (a = 5 AND (b IS NULL OR c < 0)) AND a NOT IN (7) AND b LIKE '%' ORDER BY 1 DESC;
CREATE VIEW v_alias AS SELECT x.a AS q FROM t AS x WHERE x.id BETWEEN 2 AND 4 ORDER BY q;
SHOW CREATE VIEW v; SHOW CREATE VIEW v_all; SHOW CREATE VIEW v_named; SHOW CREATE VIEW v_over;
SHOW CREATE VIEW v_agg; SHOW CREATE VIEW v_limit; SHOW CREATE VIEW v_const; SHOW CREATE VIEW v_logic; SHOW CREATE VIEW v_alias;
SHOW CREATE TABLE v;
SELECT * FROM v; SELECT * FROM v_all WHERE d IS NULL ORDER BY c; SELECT * FROM v_named;
SELECT y, x FROM v_named WHERE y <> 'X' ORDER BY x DESC LIMIT 2;
SELECT * FROM v_over; SELECT twice + 1 AS t1 FROM v_over ORDER BY t1 DESC;
SELECT * FROM v_agg; SELECT n FROM v_agg;
SELECT * FROM v_limit; SELECT id FROM v_limit LIMIT 1, 5;
SELECT * FROM v_agg WHERE n > 3; SELECT n + 1 FROM v_agg WHERE n > 30;
SELECT * FROM v_limit WHERE b = 'x' ORDER BY id; SELECT COUNT(*), MIN(b) FROM v_limit; SELECT * FROM v_limit ORDER BY b;
CREATE VIEW v_over_limit AS SELECT id FROM v_limit WHERE id > 3;
SELECT * FROM v_over_limit; SELECT * FROM v_over_limit WHERE id < 5;
SELECT * FROM v_const; SELECT one + 1 FROM v_const;
SELECT * FROM v_logic; SELECT * FROM v_alias;
SELECT COUNT(*), MIN(a1) FROM v;
SELECT ID, B FROM v WHERE a1 IS NOT NULL;
SHOW FULL TABLES; SHOW TABLES LIKE 'v_%';
SHOW COLUMNS FROM v_all LIKE 'b';
UPDATE t SET a = a * 10 WHERE id = 1;
SELECT * FROM v_over;
)SQL");
}

// Writes through views: UPDATE, INSERT and DELETE land in the view's table, the view's WHERE
// bounds what they touch, WITH [CASCADED | LOCAL] CHECK OPTION refuses rows the view would not
// show (1369), and what cannot be written names why.
TEST_F(MariadbEdgesTest, WritesThroughViewsAsTheServerTakesThem) {
  ExpectSame(R"SQL(CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10));
INSERT INTO t VALUES (1,10,'x'),(2,20,'y'),(3,30,'z');
CREATE VIEW v AS SELECT id, a, a+1 AS a1, b FROM t WHERE a < 25;
CREATE VIEW vc AS SELECT id, a, b FROM t WHERE a < 25 WITH CHECK OPTION;
CREATE VIEW vl AS SELECT id, a, b FROM vc WHERE a > 5 WITH LOCAL CHECK OPTION;
CREATE VIEW vn AS SELECT id, a FROM v WHERE a > 5;
CREATE VIEW vcasc AS SELECT id, a FROM v WHERE a > 5 WITH CASCADED CHECK OPTION;
CREATE VIEW vagg AS SELECT COUNT(*) AS n FROM t;
UPDATE v SET b = 'q' WHERE id = 1;
UPDATE v SET a = a + 100;
SELECT * FROM t;
UPDATE v SET a1 = 3;
INSERT INTO v (id, a, b) VALUES (4, 1, 'n');
INSERT INTO v VALUES (5, 1, 2, 'm');
INSERT INTO v (id, a1) VALUES (6, 1);
INSERT INTO vc VALUES (7, 100, 'big');
INSERT INTO vc VALUES (8, 5, 'ok');
INSERT IGNORE INTO vc VALUES (9, 100, 'big'), (10, 6, 'fine');
UPDATE vc SET a = 50 WHERE id = 8;
INSERT INTO vl VALUES (11, 1, 'small');
INSERT INTO vl VALUES (12, 100, 'big');
INSERT INTO vn VALUES (13, 100);
INSERT INTO vcasc VALUES (14, 100);
INSERT INTO vcasc VALUES (15, 7);
UPDATE vl SET a = 0 WHERE id = 8;
DELETE FROM v WHERE b = 'n';
DELETE FROM vc;
SELECT * FROM t;
INSERT INTO vagg VALUES (1);
UPDATE vagg SET n = 1;
DELETE FROM vagg;
INSERT INTO v (id, nope) VALUES (1, 1);
UPDATE v SET nope = 1;
SELECT nope FROM v;
SELECT * FROM v WHERE nope = 1;
REPLACE INTO vc VALUES (1, 11, 'r');
INSERT INTO vc VALUES (1, 12, 'd') ON DUPLICATE KEY UPDATE b = 'dup';
SELECT * FROM t;
CREATE TABLE req (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(10) NOT NULL);
CREATE VIEW req_a AS SELECT id, a FROM req;
INSERT INTO req_a VALUES (3, 3);
CREATE VIEW vlo AS SELECT * FROM t LIMIT 2;
CREATE VIEW vx AS SELECT * FROM vlo;
UPDATE vx SET a = 1; DELETE FROM vx; INSERT INTO vx VALUES (1, 1, 'x');
)SQL");
}

// The statements around views: CREATE OR REPLACE, ALTER VIEW, IF NOT EXISTS, DROP VIEW of
// several, DROP TABLE of a view and DROP VIEW of a table, names taken by tables, columns that
// do not exist, lists of the wrong length, names twice, a CHECK OPTION on what cannot be
// written, variables in the definition.
TEST_F(MariadbEdgesTest, ViewStatementsAndTheirErrors) {
  ExpectSame(R"SQL(CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10));
CREATE VIEW v AS SELECT a FROM t;
CREATE VIEW v AS SELECT b FROM t;
CREATE VIEW IF NOT EXISTS v AS SELECT b FROM t;
CREATE OR REPLACE VIEW v AS SELECT b, id FROM t;
SHOW CREATE VIEW v;
ALTER VIEW v AS SELECT id FROM t WHERE id > 1;
SHOW CREATE VIEW v;
ALTER VIEW nosuch AS SELECT 1;
CREATE VIEW t AS SELECT 1;
CREATE TABLE v (x INT);
CREATE VIEW bad AS SELECT nope FROM t;
CREATE VIEW bad AS SELECT a FROM t WHERE nope = 1;
CREATE VIEW bad AS SELECT a FROM t ORDER BY nope;
CREATE VIEW bad AS SELECT * FROM nosuch;
CREATE VIEW bad AS SELECT a, a FROM t;
CREATE VIEW bad (x) AS SELECT a, b FROM t;
CREATE VIEW bad AS SELECT COUNT(*) FROM t WITH CHECK OPTION;
CREATE VIEW bad AS SELECT @x;
CREATE VIEW bad AS SELECT a FROM t LIMIT 1 WITH CHECK OPTION;
SHOW CREATE VIEW t;
SHOW CREATE VIEW nosuch;
DROP TABLE v;
DROP VIEW t;
DROP VIEW v, nosuch;
DROP VIEW IF EXISTS v, nosuch;
SHOW FULL TABLES;
CREATE VIEW v1 AS SELECT a FROM t;
CREATE VIEW v2 AS SELECT a FROM v1;
DROP VIEW v1;
SELECT * FROM v2;
DROP VIEW v2;
SHOW TABLES;
)SQL");
}

// What the server refuses or rewrites around views: writes through an ALGORITHM=TEMPTABLE
// view, ON DUPLICATE KEY UPDATE past a CHECK OPTION, view names that differ from a table's in
// case only, ALTER VIEW keeping the attributes it does not name, functions that do not exist,
// columns named after expressions (twice, too long), RENAME TABLE of a view, a view where a
// table is, a trigger on a view, a table column a view reads dropped, MERGE where nothing can be
// merged, names ending in a space, the NULL columns of a dump's placeholder view, a view in
// another database.
TEST_F(MariadbEdgesTest, ViewsRefuseWhatTheServerRefuses) {
  ExpectSame(R"SQL(CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(5));
INSERT INTO t VALUES (1,1,'x'),(2,2,'y'),(3,20,'z');
CREATE ALGORITHM=TEMPTABLE VIEW tv AS SELECT * FROM t;
DELETE FROM tv; UPDATE tv SET a = 0; INSERT INTO tv VALUES (9, 9, 'n');
CREATE ALGORITHM=TEMPTABLE VIEW tv2 AS SELECT * FROM t WITH CHECK OPTION;
SELECT COUNT(*) FROM t;
CREATE VIEW cv AS SELECT * FROM t WHERE a < 10 WITH CHECK OPTION;
INSERT INTO cv VALUES (1,7,'q') ON DUPLICATE KEY UPDATE a = 50;
INSERT IGNORE INTO cv VALUES (1,7,'q') ON DUPLICATE KEY UPDATE a = 60;
INSERT INTO cv VALUES (3,7,'q') ON DUPLICATE KEY UPDATE b = 'w';
SELECT * FROM t;
CREATE VIEW w AS SELECT 1 AS z;
CREATE TABLE W (q INT);
SELECT * FROM W; SELECT * FROM w;
DROP VIEW W;
DROP TABLE W;
CREATE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW av AS SELECT * FROM t;
ALTER VIEW av AS SELECT id FROM t;
SHOW CREATE VIEW av;
ALTER ALGORITHM=TEMPTABLE VIEW av AS SELECT id FROM t;
ALTER VIEW av AS SELECT id FROM t WITH CHECK OPTION;
CREATE VIEW fv AS SELECT nosuchfn(a) FROM t;
CREATE VIEW nv AS SELECT 1+1, 'a', 1, 1;
SHOW CREATE VIEW nv;
CREATE VIEW nv2 AS SELECT id, a+1, a+1, CONCAT(b, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa') FROM t;
SELECT * FROM nv2;
CREATE VIEW nv3 AS SELECT id AS aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa FROM t;
RENAME TABLE nv TO nv9;
SELECT * FROM nv9;
RENAME TABLE nv9 TO t;
CREATE OR REPLACE VIEW t AS SELECT 1;
ALTER VIEW t AS SELECT 1;
CREATE TRIGGER trg BEFORE INSERT ON nv9 FOR EACH ROW SET @x = 1;
CREATE VIEW dv AS SELECT id, a, a AS a2 FROM t;
INSERT INTO dv (id, a, a2) VALUES (5, 1, 1);
CREATE OR REPLACE VIEW IF NOT EXISTS zz AS SELECT 1;
CREATE TABLE from_view AS SELECT * FROM cv;
SELECT * FROM from_view;
CREATE TABLE like_view LIKE cv;
CREATE VIEW quot AS SELECT id, a / 3 AS third, a / 7 * 7 AS back FROM t LIMIT 5;
SELECT * FROM quot WHERE third > 0.3333 ORDER BY back DESC;
CREATE TABLE en (id INT PRIMARY KEY, e ENUM('zz','b','a'));
INSERT INTO en VALUES (1,'zz'),(2,'a'),(3,'b');
CREATE VIEW en_top AS SELECT * FROM en LIMIT 10;
SELECT id, e + 0 FROM en_top ORDER BY e; SELECT * FROM en_top WHERE e = 1;
CREATE VIEW bc AS SELECT id, b FROM t;
CREATE VIEW bc2 AS SELECT id FROM bc;
ALTER TABLE t DROP COLUMN b;
SELECT * FROM bc;
SELECT * FROM bc2;
SHOW COLUMNS FROM bc;
CREATE ALGORITHM=MERGE VIEW m1 AS SELECT 1 AS one;
CREATE ALGORITHM=MERGE VIEW m2 AS SELECT COUNT(*) AS n FROM t;
SHOW CREATE VIEW m1; SHOW CREATE VIEW m2;
CREATE VIEW `x ` AS SELECT 1;
CREATE TABLE `y ` (a INT);
CREATE VIEW ph AS SELECT NULL AS id, NULL AS name;
SHOW COLUMNS FROM ph;
DROP DATABASE IF EXISTS views_elsewhere;
CREATE DATABASE views_elsewhere;
CREATE VIEW views_elsewhere.ov AS SELECT id FROM t;
SHOW CREATE VIEW views_elsewhere.ov;
USE views_elsewhere;
SHOW CREATE VIEW ov;
SELECT * FROM ov;
DROP DATABASE views_elsewhere;
)SQL");
}

// A mariadb-dump of views (its placeholder views first, then the definitions split across
// /*!50001 */, /*!50013 */ and /*!50002 */ comments) loaded by `strata sql <` and by
// `strata import` reads as the server reads it.
TEST_F(MariadbEdgesTest, DumpedViewsLoadAndReadAsOnTheServer) {
  const std::string setup = R"SQL(DROP DATABASE IF EXISTS dumped_views; CREATE DATABASE dumped_views; USE dumped_views;
CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, price DECIMAL(8,2), qty INT DEFAULT 0);
INSERT INTO item VALUES (1,'bolt',0.25,100),(2,'nut',0.10,0),(3,'gear',12.50,7),(4,'cog',NULL,3);
CREATE VIEW in_stock AS SELECT id, name, price * qty AS worth FROM item WHERE qty > 0;
CREATE VIEW dear AS SELECT name FROM in_stock WHERE worth > 50 WITH CASCADED CHECK OPTION;
CREATE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW priced (item_id, label) AS SELECT id, CONCAT(name, '!') FROM item WHERE price IS NOT NULL ORDER BY price DESC;
CREATE VIEW totals AS SELECT COUNT(*) AS items, SUM(qty) AS units FROM item;
)SQL";
  const auto setup_file = tmp_.path() / "setup.sql";
  std::ofstream(setup_file) << setup;
  ASSERT_EQ(server_->Sql("", setup_file).exit_code, 0);
  const auto dump = tmp_.path() / "views.sql";
  ASSERT_EQ(RunCommand(fmt::format("mariadb-dump --defaults-file={}/my.cnf --databases dumped_views > {}",
                                   server_->dir(), dump.string()))
                .exit_code,
            0);
  const auto queries = tmp_.path() / "queries.sql";
  std::ofstream(queries)
      << "USE dumped_views;\nSELECT * FROM in_stock; SELECT * FROM dear; SELECT * FROM priced;\n"
         "SELECT * FROM totals; SHOW FULL TABLES; SHOW CREATE VIEW in_stock; SHOW CREATE VIEW dear;\n"
         "SHOW CREATE VIEW priced; SHOW CREATE VIEW totals;\n";
  const CommandResult theirs = server_->Sql("", queries, "-B");
  ASSERT_EQ(theirs.exit_code, 0) << theirs.err;
  for (const std::string load : {"sql --datadir {0} -B < {1}", "import {1} --datadir {0}"}) {
    const auto datadir = tmp_.path() / ("dd_" + load.substr(0, 3));
    const CommandResult loaded =
        RunCommand(std::string(STRATA_BINARY) + " " + fmt::format(fmt::runtime(load), datadir.string(), dump.string()));
    ASSERT_EQ(loaded.exit_code, 0) << load << "\n" << loaded.out << loaded.err;
    const CommandResult ours =
        RunCommand(fmt::format("{} sql --datadir {} -B < {}", STRATA_BINARY, datadir.string(), queries.string()));
    EXPECT_EQ(ours.out, theirs.out) << load << "\n" << ours.err;
  }
}

// The types the server derives for expressions, as CREATE TABLE ... SELECT makes columns of
// them (and SHOW COLUMNS of a view gives them): integer arithmetic INT or BIGINT by its width,
// DECIMAL digits widened per operator, SUM and AVG widened, DOUBLE beside a DOUBLE, truth values
// INT, string lengths added, IFNULL/COALESCE/IF of the widest kind; nullability with them. The
// rows and SHOW CREATE TABLE must match (MariaDB's integer display widths aside: Strata prints
// MySQL 8.0's `int`).
TEST_F(MariadbEdgesTest, ExpressionsTypedAsTheServerTypesThem) {
  const std::string script = R"SQL(DROP DATABASE IF EXISTS expr_types; CREATE DATABASE expr_types; USE expr_types;
CREATE TABLE t (id INT PRIMARY KEY, a INT, u INT UNSIGNED, bi BIGINT, s SMALLINT NOT NULL, b VARCHAR(5), c DECIMAL(6,2),
  d DOUBLE, f FLOAT, dt DATE, ch CHAR(3) NOT NULL);
INSERT INTO t VALUES (1, 5, 7, 9, 2, 'ab', 1.25, 2.5, 0.5, '2020-02-02', 'xyz'), (2, NULL, NULL, NULL, 3, NULL, NULL, NULL, NULL, NULL, 'q'),
  (3, -2147483648, 4294967295, 9223372036854775807, -32768, 'vwxyz', -9999.99, -1e300, 1e30, '1000-01-01', '');
CREATE TABLE r1 AS SELECT a+1 AS x1, a-1 AS x2, a*2 AS x3, a/2 AS x4, a DIV 2 AS x5, a % 2 AS x6, -a AS x7, u+1 AS x8,
  bi-1 AS x9, s+1 AS x10, s*s AS x11, c+1 AS x12, c*2 AS x13, c/3 AS x14, d+1 AS x15, f+1 AS x16, a+c AS x17, a+d AS x18,
  c*c AS x19, a+1.5 AS x20, 1.5*2 AS x21, u*u AS x22 FROM t;
CREATE TABLE r2 AS SELECT a=1 AS y1, a IS NULL AS y2, s>1 AS y3, a IN (1,2) AS y4, b LIKE 'x' AS y5, NOT a AS y6,
  a AND s AS y7, s BETWEEN 1 AND 2 AS y8, 1 AS y9, -5 AS y10, 12345678901 AS y11, 1.50 AS y12, 1e3 AS y13, 'abc' AS y14,
  18446744073709551615 AS y17, a <=> NULL AS y18 FROM t;
CREATE TABLE r3 AS SELECT COUNT(*) AS z1, COUNT(a) AS z2, SUM(a) AS z3, SUM(c) AS z4, SUM(d) AS z5, AVG(a) AS z6,
  AVG(c) AS z7, MIN(a) AS z8, MAX(b) AS z9, SUM(bi) AS z10, SUM(s) AS z11, AVG(d) AS z12, MAX(dt) AS z13 FROM t;
CREATE TABLE r4 AS SELECT CONCAT(b, 'xy') AS w1, CONCAT(a, b) AS w2, UPPER(b) AS w3, LOWER(ch) AS w4, LENGTH(b) AS w5,
  CHAR_LENGTH(b) AS w6, IFNULL(a, 0) AS w7, IFNULL(a, c) AS w8, COALESCE(b, 'zz') AS w9, IF(a > 1, b, ch) AS w10,
  IF(a, 1, 2.5) AS w11, ABS(a) AS w16, ABS(c) AS w25, CONCAT(c, ch) AS w26 FROM t;
SELECT * FROM r1; SELECT * FROM r2; SELECT * FROM r3; SELECT * FROM r4;
SHOW CREATE TABLE r1; SHOW CREATE TABLE r2; SHOW CREATE TABLE r3; SHOW CREATE TABLE r4;
CREATE VIEW v AS SELECT a * 2 AS twice, CONCAT(b, ch) AS label, c / 3 AS third FROM t;
SHOW COLUMNS FROM v;
)SQL";
  const auto file = tmp_.path() / "types.sql";
  std::ofstream(file) << script;
  const CommandResult theirs = server_->Sql("", file, "-B");
  ASSERT_EQ(theirs.exit_code, 0) << theirs.err;
  const CommandResult ours = RunCommand(
      fmt::format("{} sql --datadir {} -B < {}", STRATA_BINARY, (tmp_.path() / "dd").string(), file.string()));
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  // MariaDB's display widths (int(11)), and the utf8mb3 its client's literals are in.
  static const std::regex width("(int|bigint|smallint)\\([0-9]+\\)");
  static const std::regex literal_charset(
      " CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci| COLLATE=utf8mb4_general_ci");
  const std::string expected = std::regex_replace(std::regex_replace(theirs.out, width, "$1"), literal_charset, "");
  EXPECT_EQ(ours.out, expected);
}

}  // namespace
}  // namespace strata::testing
