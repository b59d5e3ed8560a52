// GROUP BY, HAVING, SELECT DISTINCT and aggregates over DISTINCT values against the private
// MariaDB: the groups (NULLs together, text by its collation, an ENUM by its number) in the
// order the server gives them, aliases and positions as it resolves them, and views made of
// them (their text as SHOW CREATE VIEW prints it, read whole or under a query).
#include "tests/cli/mariadb_edges.h"

namespace strata::testing {
namespace {

constexpr const char* kRows = R"SQL(CREATE TABLE t (id INT PRIMARY KEY, k INT, s VARCHAR(10), d DECIMAL(6,2),
  e ENUM('b','a','c'), f DOUBLE, dt DATE, KEY (k));
INSERT INTO t VALUES (1,1,'x',1.5,'a',0.5,'2020-01-01'),(2,2,'X',2.25,'b',NULL,'2020-01-02'),
  (3,1,'y',NULL,'c',1e10,'2020-01-01'),(4,NULL,'w',3,'a',-2,NULL),(5,2,'z',4,NULL,0.5,'2021-03-04'),
  (6,1,'x',1.5,'b',0.5,'2020-01-01'),(7,3,'Y',-1,'c',7,'2019-12-31');
)SQL";

TEST_F(MariadbEdgesTest, GroupsAsTheServerGroupsThem) {
  ExpectSame(std::string(kRows) + R"SQL(SELECT k, COUNT(*) FROM t GROUP BY k;
SELECT k, COUNT(*) AS n, SUM(d), AVG(d), MIN(s), MAX(s), SUM(f) FROM t GROUP BY k DESC;
SELECT s, COUNT(*) FROM t GROUP BY s;
SELECT e, COUNT(*) FROM t GROUP BY e;
SELECT dt, COUNT(*), MIN(id), MAX(f) FROM t GROUP BY dt;
SELECT f, COUNT(*) FROM t GROUP BY f;
SELECT k, s, COUNT(*) FROM t GROUP BY k, s ORDER BY COUNT(*) DESC, k, s;
SELECT k % 2 AS parity, SUM(id) FROM t GROUP BY parity;
SELECT s, COUNT(*) FROM t GROUP BY s ORDER BY 2 DESC, 1;
SELECT k, COUNT(*) FROM t WHERE id > 1 GROUP BY k LIMIT 1, 2;
SELECT k, COUNT(*) FROM t WHERE id > 100 GROUP BY k;
SELECT id, k FROM t GROUP BY k;
SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY NULL;
SELECT k, COUNT(*) FROM t GROUP BY 1 DESC ORDER BY NULL;
SELECT s, COUNT(*) FROM t GROUP BY s ORDER BY NULL;
SELECT dt, s, COUNT(*) FROM t GROUP BY dt, s ORDER BY NULL;
SELECT COUNT(*) AS n, k FROM t GROUP BY k HAVING n > 1;
SELECT k, COUNT(*) c FROM t GROUP BY k HAVING c >= 2 AND k IS NOT NULL ORDER BY c;
SELECT k, SUM(d) FROM t GROUP BY k HAVING SUM(d) IS NULL OR SUM(d) > 5;
SELECT k FROM t GROUP BY k HAVING SUM(id) > 5;
SELECT id FROM t GROUP BY id HAVING id > 4;
SELECT COUNT(*) FROM t WHERE id > 100 HAVING COUNT(*) > 0;
SELECT COUNT(*) FROM t HAVING COUNT(*) > 0;
SELECT COUNT(*), COUNT(k), COUNT(DISTINCT k), SUM(DISTINCT k), AVG(DISTINCT d), MAX(DISTINCT s), COUNT(DISTINCT k, s)
  FROM t;
SELECT k, COUNT(DISTINCT s), COUNT(DISTINCT s, d), SUM(DISTINCT d) FROM t GROUP BY 1;
SELECT DISTINCT s FROM t ORDER BY s;
SELECT DISTINCT k FROM t ORDER BY k DESC;
SELECT DISTINCT e FROM t ORDER BY e;
SELECT DISTINCT d, k FROM t ORDER BY d, k;
SELECT DISTINCT k + 1 AS kk FROM t ORDER BY kk;
SELECT DISTINCT * FROM t WHERE k = 1;
SELECT DISTINCT k FROM t ORDER BY k LIMIT 2;
SELECT DISTINCT COUNT(*) FROM t;
CREATE TABLE agg AS SELECT k, COUNT(*) AS n, SUM(d) AS total, COUNT(DISTINCT s) AS kinds FROM t GROUP BY k;
SELECT * FROM agg;
INSERT INTO agg SELECT k + 10, COUNT(*), SUM(id), 0 FROM t GROUP BY k HAVING COUNT(*) > 1;
SELECT * FROM agg ORDER BY k;
)SQL");
}

// WITH ROLLUP: a total after each run of groups sharing their leading keys (the other keys
// NULL, other columns from the run's last group), through HAVING, LIMIT, DISTINCT and a view;
// with ORDER BY refused (1221).
TEST_F(MariadbEdgesTest, RollupTotalsAsTheServerTotalsThem) {
  ExpectSame(std::string(kRows) + R"SQL(SELECT k, s, COUNT(*), SUM(d), id FROM t GROUP BY k, s WITH ROLLUP;
SELECT k % 2 AS p, COUNT(*) FROM t GROUP BY p WITH ROLLUP;
SELECT k, COUNT(*) FROM t GROUP BY k DESC WITH ROLLUP;
SELECT k, COUNT(*) c FROM t GROUP BY k WITH ROLLUP HAVING c > 2;
SELECT k, COUNT(*) FROM t GROUP BY k WITH ROLLUP LIMIT 2;
SELECT k, COUNT(*) FROM t GROUP BY k WITH ROLLUP ORDER BY k;
SELECT k, COUNT(*) FROM t WHERE id > 100 GROUP BY k WITH ROLLUP;
SELECT COALESCE(k, 'all'), COUNT(*) FROM t GROUP BY k WITH ROLLUP;
CREATE VIEW vr AS SELECT k, COUNT(*) AS n FROM t GROUP BY k WITH ROLLUP;
SHOW CREATE VIEW vr; SELECT * FROM vr; SELECT n FROM vr;
SELECT k, s, COUNT(*) FROM t GROUP BY k DESC, s WITH ROLLUP HAVING COUNT(*) > 1;
SELECT DISTINCT k FROM t GROUP BY k, s WITH ROLLUP;
)SQL");
}

// GROUP_CONCAT with DISTINCT, ORDER BY and SEPARATOR, NULLs left out, cut at
// group_concat_max_len with the server's warning (naming the row), in a view and a ROLLUP.
TEST_F(MariadbEdgesTest, GroupConcatAsTheServerJoinsThem) {
  ExpectSame(
      std::string(kRows) +
      R"SQL(CREATE VIEW v AS SELECT k, GROUP_CONCAT(s), GROUP_CONCAT(DISTINCT s ORDER BY s DESC SEPARATOR '; ') AS g, GROUP_CONCAT(id, s ORDER BY id) AS h FROM t GROUP BY k;
SHOW CREATE VIEW v;
SELECT * FROM v;
SET SESSION group_concat_max_len = 4;
SELECT k, GROUP_CONCAT(s) FROM t GROUP BY k;
SHOW WARNINGS;
SELECT @@group_concat_max_len;
SET SESSION group_concat_max_len = 2;
SELECT @@group_concat_max_len;
SET SESSION group_concat_max_len = 7;
SELECT GROUP_CONCAT(s ORDER BY id DESC SEPARATOR '') FROM t;
SELECT GROUP_CONCAT(DISTINCT k ORDER BY k DESC), GROUP_CONCAT(id SEPARATOR '-') FROM t WHERE id < 5;
SET SESSION group_concat_max_len = DEFAULT;
SELECT k, GROUP_CONCAT(CONCAT('<', s, '>') ORDER BY s, id) AS list, COUNT(*) FROM t GROUP BY k WITH ROLLUP;
SELECT GROUP_CONCAT(s) FROM t WHERE id > 100;
)SQL");
}

// What the server refuses, refused alike (messages differ in their clause names: MySQL 8.0's
// 'group statement' against MariaDB's 'GROUP BY').
TEST_F(MariadbEdgesTest, GroupingMistakesAreTheServersErrors) {
  ExpectSame(std::string(kRows) + R"SQL(SELECT k FROM t WHERE COUNT(*) > 1;
SELECT k FROM t GROUP BY 3;
SELECT k FROM t GROUP BY nosuch;
SELECT k FROM t GROUP BY k HAVING nosuch > 1;
SELECT COUNT(DISTINCT) FROM t;
)SQL",
             /*codes_only=*/true);
}

TEST_F(MariadbEdgesTest, GroupedViewsReadAsTheServerReadsThem) {
  ExpectSame(std::string(kRows) +
             R"SQL(CREATE VIEW vg AS SELECT k, COUNT(*) AS n, SUM(d) AS total FROM t GROUP BY k HAVING n > 1;
CREATE VIEW vd AS SELECT DISTINCT s FROM t;
CREATE VIEW vc AS SELECT k, COUNT(DISTINCT s) AS kinds FROM t WHERE id < 6 GROUP BY k DESC;
CREATE VIEW vp AS SELECT id, k, s FROM t;
SHOW CREATE VIEW vg; SHOW CREATE VIEW vd; SHOW CREATE VIEW vc;
SELECT * FROM vg; SELECT k FROM vg; SELECT * FROM vg WHERE n > 2; SELECT * FROM vg ORDER BY total DESC;
SELECT * FROM vd ORDER BY s; SELECT COUNT(*) FROM vd; SELECT s FROM vd ORDER BY s DESC;
SELECT * FROM vc; SELECT kinds, COUNT(*) FROM vc GROUP BY kinds;
SELECT k, COUNT(*) FROM vp GROUP BY k HAVING COUNT(*) > 1;
SELECT DISTINCT k FROM vp ORDER BY k;
UPDATE vg SET n = 1;
DELETE FROM vd;
)SQL");
}

}  // namespace
}  // namespace strata::testing
