-- Builds ftsdb.articles for tests/data/mariadb-fts (tests/data/mariadb-fts/make.sh).
-- Every row carries a marker word rowNN (NN = id) so that its FTS_DOC_ID can be read back
-- from INNODB_FT_INDEX_TABLE.
CREATE DATABASE ftsdb;
USE ftsdb;
CREATE TABLE articles (
  id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY,
  title VARCHAR(200),
  body TEXT,
  FULLTEXT KEY ft (title, body)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- OPTIMIZE TABLE then only syncs the FTS cache to INDEX_1..6 and, if the DELETED table is
-- not empty, rewrites the ilists without the deleted documents.
SET GLOBAL innodb_optimize_fulltext_only = ON;

-- Batch A: doc ids 1..20 (one transaction per statement, autocommit).
INSERT INTO articles (id, title, body) VALUES
 (1, 'MySQL Tutorial row01', 'DBMS stands for DataBase Management System. This tutorial shows how to use MySQL and MariaDB with InnoDB.'),
 (2, 'How To Use MySQL Well row02', 'After you went through a tutorial, you will learn the basics of the database server.'),
 (3, 'Optimizing MySQL row03', 'In this tutorial we show how to optimize queries, indexes and the database server configuration.'),
 (4, 'Deleted soon row04', 'This article about apricots and zucchini is deleted and purged by OPTIMIZE.'),
 (5, 'Café culture row05', 'A naïve visitor orders a café au lait, an über-strong espresso and a croissant at the café.'),
 (6, 'Résumé writing row06', 'Your résumé should be concise. Straße, Ångström and façade are words with accents.'),
 (7, 'Databases everywhere row07', REPEAT('The database stores data; every database needs backups. ', 25)),
 (8, 'Numbers row08', 'In 2024 there were 365 days; version 10.11 shipped with 42 bug fixes and 1000 tests.'),
 (9, 'Temporary row09', 'Kumquats and quinces are rare fruits; this row is deleted and purged by OPTIMIZE.'),
 (10, 'Security row10', 'Never store passwords in plain text. Use a strong hash and a salt for every password.'),
 (11, 'Replication row11', 'Replication copies data from a primary server to replica servers.'),
 (12, 'Full-text search row12', 'Full-text search finds documents that contain words; MATCH AGAINST ranks them by relevance.'),
 (13, 'Cyrillic and CJK row13', 'Привет мир! Ёлка и щука. 日本語 テキスト 中文 text mixed with English words.'),
 (14, 'Cooking row14', 'Boil water, add pasta, stir the pasta, drain the pasta and serve the pasta with sauce.'),
 (15, 'Far away row15', CONCAT('Before the gap. ', REPEAT('- ', 8500), 'zenith')),
 (16, 'Travel row16', 'Traveling through Zürich, São Paulo and Kraków by train and plane.'),
 (17, 'Weather row17', 'Rain, rain, rain again: the forecast says rain until Sunday.'),
 (18, 'Quick brown fox row18', 'The quick brown fox jumps over the lazy dog. The dog sleeps.'),
 (19, 'Underscore_words row19', 'snake_case identifiers like table_name and index_id count as single words.'),
 (20, 'Long words row20', 'Pneumonoultramicroscopicsilicovolcanoconiosis is long; so is Supercalifragilisticexpialidocious.');
-- Sync 1: the cache goes to INDEX_1..6, one row (node) per word; nothing is deleted yet.
OPTIMIZE TABLE articles;

DELETE FROM articles WHERE id IN (4, 9);
-- Sync (cache empty) and optimize: doc ids of rows 4 and 9 go DELETED -> BEING_DELETED,
-- are removed from every ilist (words only they had disappear), then from both tables.
OPTIMIZE TABLE articles;
OPTIMIZE TABLE articles;

-- 200 inserts rolled back: their doc ids are used up, so batch B starts 200 higher and the
-- ilists of words in both batches need a two-byte doc id delta.
START TRANSACTION;
INSERT INTO articles (id, title, body)
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 200)
  SELECT 1000 + n, 'rolled back', 'never committed' FROM s;
ROLLBACK;

-- Batch B: ids 21..30.
INSERT INTO articles (id, title, body) VALUES
 (21, 'MySQL again row21', 'MySQL and MariaDB share the InnoDB storage engine and its database tutorial heritage.'),
 (22, 'Café revisited row22', 'Another café, another naïve review, über alles.'),
 (23, 'Pasta night row23', 'Pasta, more pasta, and tiramisu for dessert.'),
 (24, 'Rain gear row24', 'An umbrella for the rain and boots for the mud.'),
 (25, 'Backup strategy row25', 'Full backups weekly, incremental backups daily, and test every restore.'),
 (26, 'Search engines row26', 'Search engines build an inverted index: each word maps to documents and positions.'),
 (27, 'Deleted later row27', 'Walnuts and xylophones; this row is deleted after the last OPTIMIZE and stays pending.'),
 (28, 'Fox and dog row28', 'The fox returned; the dog did not notice the fox.'),
 (29, 'Numbers again row29', 'Between 2023 and 2024 the team closed 1000 issues.'),
 (30, 'Final row30', 'Zebra, yak and xenops close the alphabet of animals.');
-- Sync 2 only (DELETED is empty, so no optimize pass): words of both batches now have
-- two rows in their INDEX_n table, (word, first_doc_id) apart.
OPTIMIZE TABLE articles;

-- Left pending: doc id in DELETED, its words still in the ilists.
DELETE FROM articles WHERE id = 27;

SET GLOBAL innodb_optimize_fulltext_only = OFF;
