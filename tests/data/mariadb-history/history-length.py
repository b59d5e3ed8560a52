#!/usr/bin/env python3
"""Sum the InnoDB undo history list lengths stored on disk.

    history-length.py [--expect N] [--quiet] IBDATA1 [UNDO_FILE...]

Files may be gzip-compressed (name ending in .gz). Reads the TRX_SYS page
(page 5 of the system tablespace): 128 rollback-segment slots of
(space id, page no) at byte offset 56 (FSEG_PAGE_DATA 38 + TRX_SYS_RSEGS 18),
8 bytes each; page no FIL_NULL (0xFFFFFFFF) = unused slot. Each used slot is
resolved to the file whose page 0 carries that space id (FIL_PAGE_SPACE_ID,
byte 34), and the rollback segment header page is read there:

    offset 38  TRX_RSEG_FORMAT         (4 bytes)
    offset 42  TRX_RSEG_HISTORY_SIZE   (4 bytes, pages in the history)
    offset 46  TRX_RSEG_HISTORY        FLST_BASE_NODE: first 4 bytes = list length
    offset 72  TRX_RSEG_UNDO_SLOTS     page_size/16 slots of 4 bytes (FIL_NULL = free)

Prints one tab-separated line per used slot and a final "total" line.
Every page read is checked (page number, space id, page type, checksum).
With --expect N, exits 1 unless the total equals N.
Written for MariaDB 10.5+ (full_crc32 or crc32 checksums, uncompressed,
unencrypted pages); see tests/data/mariadb-history/README.md.
"""
import argparse
import gzip
import struct
import sys

FIL_NULL = 0xFFFFFFFF
TRX_SYS_PAGE_NO = 5
TRX_SYS_RSEGS = 38 + 18
N_SLOTS = 128
FIL_PAGE_TYPE_SYS = 6
FIL_PAGE_TYPE_TRX_SYS = 7


def _crc32c_table():
    poly = 0x82F63B78
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    t = _CRC_TABLE
    for b in data:
        crc = t[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def u16(buf, off):
    return struct.unpack_from(">H", buf, off)[0]


def u32(buf, off):
    return struct.unpack_from(">I", buf, off)[0]


class Space:
    def __init__(self, path):
        self.path = path
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            self.data = f.read()
        if len(self.data) < 16384:
            raise SystemExit(f"{path}: too short ({len(self.data)} bytes)")
        self.space_id = u32(self.data, 34)
        fsp_space_id = u32(self.data, 38)
        self.flags = u32(self.data, 38 + 16)
        self.full_crc32 = bool(self.flags & 0x10)
        if self.full_crc32:
            ssize = self.flags & 0xF
        else:
            ssize = (self.flags >> 6) & 0xF
        self.page_size = 16384 if ssize == 0 else 512 << ssize
        if self.space_id != fsp_space_id:
            raise SystemExit(f"{path}: FIL_PAGE_SPACE_ID {self.space_id} != FSP space id {fsp_space_id}")
        if len(self.data) % self.page_size:
            raise SystemExit(f"{path}: size {len(self.data)} is not a multiple of {self.page_size}")

    def page(self, page_no, want_type):
        ps = self.page_size
        if (page_no + 1) * ps > len(self.data):
            raise SystemExit(f"{self.path}: page {page_no} is beyond the end of the file")
        p = self.data[page_no * ps:(page_no + 1) * ps]
        if u32(p, 4) != page_no:
            raise SystemExit(f"{self.path}: page {page_no} says it is page {u32(p, 4)}")
        if u32(p, 34) != self.space_id:
            raise SystemExit(f"{self.path}: page {page_no} has space id {u32(p, 34)}, expected {self.space_id}")
        if u16(p, 24) != want_type:
            raise SystemExit(f"{self.path}: page {page_no} has type {u16(p, 24)}, expected {want_type}")
        if self.full_crc32:
            stored, calc = u32(p, ps - 4), crc32c(p[:ps - 4])
        else:
            stored, calc = u32(p, 0), crc32c(p[4:26]) ^ crc32c(p[38:ps - 8])
        if stored != calc:
            raise SystemExit(f"{self.path}: page {page_no}: checksum {stored:#010x} != computed {calc:#010x}")
        return p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--expect", type=int, help="fail unless the total equals this")
    ap.add_argument("--quiet", action="store_true", help="print only the total")
    ap.add_argument("files", nargs="+", help="ibdata1 first, then undo tablespaces (.gz allowed)")
    a = ap.parse_args()

    spaces = {}
    for path in a.files:
        s = Space(path)
        if s.space_id in spaces:
            raise SystemExit(f"{path}: space id {s.space_id} also in {spaces[s.space_id].path}")
        spaces[s.space_id] = s
    if 0 not in spaces:
        raise SystemExit("no file with space id 0 (the system tablespace, ibdata1) given")

    trx_sys = spaces[0].page(TRX_SYS_PAGE_NO, FIL_PAGE_TYPE_TRX_SYS)
    total = 0
    lines = ["slot\tspace\tpage\tfile\thistory_len\thistory_size_pages\tundo_slots_used"]
    for slot in range(N_SLOTS):
        space_id, page_no = struct.unpack_from(">II", trx_sys, TRX_SYS_RSEGS + 8 * slot)
        if page_no == FIL_NULL:
            continue
        if space_id not in spaces:
            raise SystemExit(f"slot {slot} points to space {space_id}, page {page_no}: no such file given")
        sp = spaces[space_id]
        rseg = sp.page(page_no, FIL_PAGE_TYPE_SYS)
        hist_size = u32(rseg, 42)
        hist_len = u32(rseg, 46)
        n_undo_slots = sp.page_size // 16
        undo_slots = struct.unpack_from(f">{n_undo_slots}I", rseg, 72)
        used = sum(1 for s in undo_slots if s != FIL_NULL)
        total += hist_len
        lines.append(f"{slot}\t{space_id}\t{page_no}\t{sp.path.rsplit('/', 1)[-1]}\t{hist_len}\t{hist_size}\t{used}")
    lines.append(f"total\t\t\t\t{total}\t\t")
    print(total if a.quiet else "\n".join(lines))
    if a.expect is not None and total != a.expect:
        print(f"history-length.py: on-disk history length {total} != expected {a.expect}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
