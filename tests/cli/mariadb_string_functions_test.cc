// String functions against the private MariaDB: CONCAT_WS, REPLACE, TRIM (every form), LPAD
// and RPAD, LOCATE and INSTR (by the collation, as the server's byte-length windows find),
// SUBSTRING_INDEX, REVERSE, SPACE, ASCII, FIELD, FIND_IN_SET, ELT, STRCMP, NULLIF, GREATEST and
// LEAST, on NULLs, multi-byte text and binary strings, in a GROUP BY and in a view.
#include "tests/cli/mariadb_edges.h"

namespace strata::testing {
namespace {

TEST_F(MariadbEdgesTest, StringFunctionsAsTheServerHasThem) {
  ExpectSame(R"SQL(CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(20), b VARBINARY(20), n INT, d DECIMAL(5,2));
INSERT INTO t VALUES (1,'Hello World','Hello',3,1.5),(2,'  pad  ','x,y',-1,NULL),(3,'ÄÖü ß','',0,2.25),(4,NULL,NULL,NULL,-3);
SELECT CONCAT_WS('-', s, n, NULL, d), CONCAT_WS(NULL, 'a'), CONCAT_WS(',', 'a') FROM t;
SELECT REPLACE(s, 'o', '0'), REPLACE(s, 'O', 'X'), REPLACE(s, '', 'z'), REPLACE('aaa', 'aa', 'b') FROM t;
SELECT CONCAT('[', TRIM(s), ']'), CONCAT('[', LTRIM(s), ']'), CONCAT('[', RTRIM(s), ']') FROM t;
SELECT TRIM(LEADING 'x' FROM 'xxabcxx'), TRIM(TRAILING 'x' FROM 'xxabcxx'), TRIM(BOTH 'xy' FROM 'xyxyaxy'), TRIM('a' FROM 'aaa'), TRIM(BOTH FROM '  q  ');
SELECT LPAD(s, 8, '*'), RPAD(s, 14, 'ab'), LPAD(s, 2, 'x'), LPAD('a', -1, 'x'), LPAD('a', 3, ''), RPAD('ä', 3, 'ö') FROM t;
SELECT LOCATE('o', s), LOCATE('O', s), LOCATE('o', s, 6), INSTR(s, 'WORLD'), LOCATE('', s), LOCATE('', 'abc', 3), LOCATE('', 'abc', 5), LOCATE('ü', s), LOCATE('x', 'abc', 0) FROM t;
SELECT SUBSTRING_INDEX('www.mysql.com', '.', 2), SUBSTRING_INDEX('www.mysql.com', '.', -2), SUBSTRING_INDEX('a.b', '.', 5), SUBSTRING_INDEX('a.b', '.', -5), SUBSTRING_INDEX('a..b', '..', 1), SUBSTRING_INDEX('aXb', 'x', 1);
SELECT REVERSE(s), CONCAT('[', SPACE(n), ']'), ASCII(s), ASCII(''), ASCII(b) FROM t;
SELECT FIELD('b', 'a', 'B', 'c'), FIELD(NULL, 'a'), FIELD(2, 1, 2, 3), FIELD('x', NULL, 'x'), FIND_IN_SET('B', 'a,b,c'), FIND_IN_SET('d', 'a,b'), FIND_IN_SET('', 'a,,b'), FIND_IN_SET('a,b', 'a,b'), FIND_IN_SET('a', '');
SELECT ELT(2, 'a', 'b'), ELT(3, 'a', 'b'), ELT(0, 'a'), ELT(1, NULL, 'b'), STRCMP('a', 'B'), STRCMP('b', 'a'), STRCMP('A', 'a');
SELECT NULLIF(1, 1), NULLIF(1, 2), NULLIF('a', 'A'), NULLIF(NULL, 1), NULLIF(1, NULL), NULLIF(s, 'hello world') FROM t;
SELECT GREATEST(1, 2, 3), LEAST(1, 2, 3), GREATEST(1, 2.5), GREATEST(3, 2.5), LEAST(1.25, 3), GREATEST('a', 'B'), LEAST('a', 'B'), GREATEST(1, NULL), GREATEST(1.5e0, 2), GREATEST(n, 0), LEAST(d, 2) FROM t;
SELECT s, COUNT(*) FROM t GROUP BY REVERSE(s) ORDER BY 1;
CREATE VIEW v AS SELECT TRIM(LEADING 'x' FROM s) AS a, TRIM(s) AS b, REPLACE(s, 'a', 'b') AS c, CONCAT_WS(',', s, n) AS e FROM t;
SHOW CREATE VIEW v;
SELECT * FROM v;
SELECT LOCATE('ö', 'xÖy'), LOCATE('Ö', 'xöy'), INSTR('ÄÖü', 'ü'), LOCATE('ss', 'ßss'), LOCATE('b', 'a b', 2), LOCATE('B ', 'ab c');
SELECT LPAD('abc', 5), RPAD('ab', 3);
)SQL");
}

}  // namespace
}  // namespace strata::testing
