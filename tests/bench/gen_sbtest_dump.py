#!/usr/bin/env python3
"""Writes a deterministic sysbench-like table sbtest1 as a mysqldump file, and optionally the same
rows as an SQLite script, for tests/bench/import_bench.sh.

    tests/bench/gen_sbtest_dump.py --rows N [--out FILE] [--sqlite-out FILE] [--seed S]
                                   [--database NAME] [--net-buffer-length BYTES]

FILE '-' is stdout; without --out the dump goes to stdout. Rows come in id order (1..N); k is
uniform in 1..N; c is 10 and pad 5 groups of 11 random digits joined by '-', as sysbench's
oltp_common.lua fills them. The random stream is SHAKE-128 of the seed and the chunk number, so
the same seed gives the same bytes on every run, Python version and machine. About 470,000 rows/s
(2 GB of dump text and 2 GB of SQLite script for 10M rows in ~21 s), ~130 MB of memory.

The dump copies, byte for byte, the layout `mariadb-dump DATABASE` of MariaDB 10.11.19 (Debian 12)
writes with its defaults: the sandbox-mode line, header comments, the /*!40101 SET ... */ lines,
DROP TABLE IF EXISTS, CREATE TABLE as SHOW CREATE TABLE prints it, LOCK TABLES, DISABLE KEYS,
extended INSERTs split where mariadb-dump splits them (a row starts a new statement when the
statement would reach --net-buffer-length, default 1046528, the client's default), ENABLE KEYS,
UNLOCK TABLES and the trailer. Only the dump date is fixed, so that the output is reproducible.

The SQLite script holds the same INSERT statements after PRAGMA journal_mode=OFF and
synchronous=OFF, a plain CREATE TABLE (id INTEGER PRIMARY KEY, so the rows are clustered by id
as in InnoDB) and CREATE INDEX k_1, all inside BEGIN/COMMIT.
"""
import argparse
import array
import hashlib
import sys
import time

C_GROUPS, PAD_GROUPS = 10, 5  # groups of 11 digits, joined by '-'
C_LEN = C_GROUPS * 12 - 1  # 119
PAD_LEN = PAD_GROUPS * 12 - 1  # 59
# Each row is drawn as one span: the text after "(id,k,'", i.e. c "','" pad "')".
SPAN = C_LEN + 3 + PAD_LEN + 2  # 183
FIXED = ([(11 + 12 * g, b"-") for g in range(C_GROUPS - 1)] +
         [(C_LEN + i, b"','"[i:i + 1]) for i in range(3)] +
         [(C_LEN + 3 + 11 + 12 * g, b"-") for g in range(PAD_GROUPS - 1)] +
         [(SPAN - 2, b"'"), (SPAN - 1, b")")])
CHUNK_ROWS = 1 << 16  # rows drawn from the generator at once

# Byte value -> ASCII digit (a slight bias to 0-5 does not matter for a benchmark).
DIGITS = bytes(ord("0") + b % 10 for b in range(256))

SERVER_VERSION = "10.11.19-MariaDB-0+deb12u1"
DUMP_VERSION = "10.19  Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)"
DUMP_DATE = "2025-01-01 12:00:00"


def mysql_header(database, rows):
    return (
        "/*M!999999\\- enable the sandbox mode */ \n"
        f"-- MariaDB dump {DUMP_VERSION}\n"
        "--\n"
        f"-- Host: localhost    Database: {database}\n"
        "-- ------------------------------------------------------\n"
        f"-- Server version\t{SERVER_VERSION}\n"
        "\n"
        "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n"
        "/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;\n"
        "/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;\n"
        "/*!40101 SET NAMES utf8mb4 */;\n"
        "/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;\n"
        "/*!40103 SET TIME_ZONE='+00:00' */;\n"
        "/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;\n"
        "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;\n"
        "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;\n"
        "/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;\n"
        "\n"
        "--\n"
        "-- Table structure for table `sbtest1`\n"
        "--\n"
        "\n"
        "DROP TABLE IF EXISTS `sbtest1`;\n"
        "/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"
        "/*!40101 SET character_set_client = utf8mb4 */;\n"
        "CREATE TABLE `sbtest1` (\n"
        "  `id` int(11) NOT NULL AUTO_INCREMENT,\n"
        "  `k` int(11) NOT NULL DEFAULT 0,\n"
        "  `c` char(120) NOT NULL DEFAULT '',\n"
        "  `pad` char(60) NOT NULL DEFAULT '',\n"
        "  PRIMARY KEY (`id`),\n"
        "  KEY `k_1` (`k`)\n"
        # An empty table has no AUTO_INCREMENT= in SHOW CREATE TABLE.
        f") ENGINE=InnoDB{f' AUTO_INCREMENT={rows + 1}' if rows else ''} "
        "DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;\n"
        "/*!40101 SET character_set_client = @saved_cs_client */;\n"
        "\n"
        "--\n"
        "-- Dumping data for table `sbtest1`\n"
        "--\n"
        "\n"
        "LOCK TABLES `sbtest1` WRITE;\n"
        "/*!40000 ALTER TABLE `sbtest1` DISABLE KEYS */;\n"
    )


MYSQL_TRAILER = (
    "/*!40000 ALTER TABLE `sbtest1` ENABLE KEYS */;\n"
    "UNLOCK TABLES;\n"
    "/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;\n"
    "\n"
    "/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;\n"
    "/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;\n"
    "/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;\n"
    "/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;\n"
    "/*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;\n"
    "/*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;\n"
    "/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;\n"
    "\n"
    f"-- Dump completed on {DUMP_DATE}\n"
)

SQLITE_HEADER = (
    "PRAGMA journal_mode=OFF;\n"
    "PRAGMA synchronous=OFF;\n"
    "BEGIN;\n"
    "DROP TABLE IF EXISTS `sbtest1`;\n"
    "CREATE TABLE `sbtest1` (\n"
    "  `id` INTEGER NOT NULL PRIMARY KEY,\n"
    "  `k` INTEGER NOT NULL DEFAULT 0,\n"
    "  `c` CHAR(120) NOT NULL DEFAULT '',\n"
    "  `pad` CHAR(60) NOT NULL DEFAULT ''\n"
    ");\n"
    "CREATE INDEX `k_1` ON `sbtest1` (`k`);\n"
)

SQLITE_TRAILER = "COMMIT;\n"


def rows_chunks(rows, seed):
    """Yields lists of encoded rows, b"(id,k,'c','pad')", in id order."""
    first = 1
    chunk = 0
    while first <= rows:
        n = min(CHUNK_ROWS, rows - first + 1)
        # SHAKE-128 as the random stream: defined by a standard, so the same bytes with every
        # Python on every machine, and 4x faster than random.randbytes.
        stream = hashlib.shake_128(b"sbtest1 seed %d chunk %d" % (seed, chunk)).digest(n * (SPAN + 4))
        # n spans of random digits, then the fixed characters of every span set in one go each.
        text = bytearray(stream[: n * SPAN].translate(DIGITS))
        for at, char in FIXED:
            text[at::SPAN] = char * n
        text = bytes(text)
        ks = array.array("I", stream[n * SPAN :])  # 4-byte items on every Linux Python
        if sys.byteorder == "big":
            ks.byteswap()  # little-endian on every machine
        yield [b"(%d,%d,'%s" % (i, v % rows + 1, text[at:at + SPAN])
               for i, v, at in zip(range(first, first + n), ks, range(0, n * SPAN, SPAN))]
        first += n
        chunk += 1


def statements(rows, seed, net_buffer_length):
    """Yields the INSERT statements as mariadb-dump splits them (client/mysqldump.cc, dump_table)."""
    pattern = b"INSERT INTO `sbtest1` VALUES\n"
    init_length = len(pattern) + 4
    pending = []
    total = net_buffer_length  # forces a new statement at the first row
    for chunk in rows_chunks(rows, seed):
        for row in chunk:
            row_length = len(row) + 2
            if total + row_length < net_buffer_length:
                total += row_length
                pending.append(row)
            else:
                if pending:
                    yield pattern + b",\n".join(pending) + b";\n"
                pending = [row]
                total = row_length + init_length
    if pending:
        yield pattern + b",\n".join(pending) + b";\n"


def open_out(path):
    if path == "-":
        return sys.stdout.buffer
    return open(path, "wb", buffering=8 << 20)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, required=True, help="rows in sbtest1 (ids 1..N)")
    ap.add_argument("--out", default="-", help="the mysqldump file ('-' = stdout, the default)")
    ap.add_argument("--sqlite-out", help="also write the same rows as an SQLite script here")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--database", default="sbtest", help="database named in the header (default sbtest)")
    ap.add_argument("--net-buffer-length", type=int, default=1046528,
                    help="mariadb-dump's net_buffer_length: the size an INSERT stays below (default 1046528)")
    ap.add_argument("--quiet", action="store_true", help="no summary on stderr")
    args = ap.parse_args()
    if args.rows < 0:
        ap.error("--rows must be >= 0")
    # mariadb-dump rounds the option down to a multiple of 1024 (its my_option block size).
    args.net_buffer_length = max(4096, args.net_buffer_length // 1024 * 1024)
    if args.out == "-" and args.sqlite_out == "-":
        ap.error("only one of --out and --sqlite-out can be stdout")

    start = time.monotonic()
    dump = open_out(args.out)
    lite = open_out(args.sqlite_out) if args.sqlite_out else None
    dump.write(mysql_header(args.database, args.rows).encode())
    if lite:
        lite.write(SQLITE_HEADER.encode())
    count = 0
    for stmt in statements(args.rows, args.seed, args.net_buffer_length):
        dump.write(stmt)
        if lite:
            lite.write(stmt)
        count += 1
    dump.write(MYSQL_TRAILER.encode())
    if lite:
        lite.write(SQLITE_TRAILER.encode())
    size = dump.tell() if dump is not sys.stdout.buffer else None
    for f in (dump, lite):
        if f is not None and f is not sys.stdout.buffer:
            f.close()
    sys.stdout.flush()
    if not args.quiet:
        secs = time.monotonic() - start
        print(f"gen_sbtest_dump: {args.rows} rows in {count} INSERTs"
              + (f", {size} bytes" if size is not None else "")
              + f" in {secs:.1f} s ({args.rows / secs if secs > 0 else 0:,.0f} rows/s)", file=sys.stderr)


if __name__ == "__main__":
    main()
