#include "tests/fuzz/page_decoders.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "ondisk/cfg.h"
#include "ondisk/checksum.h"
#include "ondisk/column_format.h"
#include "ondisk/json_binary.h"
#include "ondisk/doublewrite.h"
#include "ondisk/fil_header.h"
#include "ondisk/frm.h"
#include "ondisk/geometry.h"
#include "ondisk/json_binary_writer.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/instant.h"
#include "ondisk/inode.h"
#include "ondisk/lob.h"
#include "ondisk/mach.h"
#include "ondisk/mariadb_encryption.h"
#include "ondisk/mariadb_redo.h"
#include "ondisk/mysql_redo.h"
#include "ondisk/page_compressed.h"
#include "ondisk/record.h"
#include "ondisk/redo.h"
#include "ondisk/redo_record.h"
#include "ondisk/sdi.h"
#include "ondisk/undo.h"
#include "ondisk/undo_record.h"
#include "ondisk/xdes.h"
#include "ondisk/zip_page.h"

namespace strata::fuzz {

using namespace strata::ondisk;

namespace {

// A few layouts, so COMPACT decoding meets fixed, variable, nullable and BLOB fields.
const std::vector<RecordLayout>& Layouts() {
  static const std::vector<RecordLayout> layouts = {
      {{FieldDef::Fixed("id", 4), FieldDef::Fixed("trx", 6), FieldDef::Fixed("roll", 7),
        FieldDef::Variable("v", 400, true), FieldDef::Fixed("n", 4, true), FieldDef::Variable("b", 65535, true, true)}},
      {{FieldDef::Variable("k", 1000), FieldDef::Fixed("child", 4)}},
      SdiLayout(),
  };
  static const std::vector<RecordLayout> with_instant = [] {
    auto v = layouts;
    RecordLayout mariadb_instant = v[0];  // MariaDB's instant ADD: 3 core fields, status-4 records
    mariadb_instant.core_fields = 3;
    v.push_back(mariadb_instant);
    return v;
  }();
  return with_instant;
}

std::size_t Touch(ConstBytes b) {
  std::size_t sum = 0;
  for (std::byte x : b) sum += static_cast<std::uint8_t>(x);
  return sum;
}

void DecodeIndexPage(ConstBytes page, const RecordLayout* own_layout = nullptr) {
  auto ip = IndexPage::Open(page);
  if (!ip.ok()) return;
  (void)ip->Space();
  (void)ip->CheckStructure();
  for (bool free_list : {false, true}) {
    RecordWalker w(*ip, free_list);
    while (w.Next()) {
      std::vector<const RecordLayout*> layouts;
      for (const auto& layout : Layouts()) layouts.push_back(&layout);
      if (own_layout) layouts.push_back(own_layout);
      for (const RecordLayout* layout : layouts) {
        auto f = DecodeCompactFields(page, w.origin(), *layout);
        if (!f.ok()) continue;
        for (const auto& s : *f) {
          if (s.is_null || s.missing) continue;
          Touch(page.subspan(s.offset, s.length));  // ASan proves the slices are in bounds
          if (s.external) (void)ExternRef::Decode(page, s.offset + s.length - kExternRefSize);
        }
      }
      auto r = DecodeRedundantFields(page, w.origin());
      if (r.ok()) {
        for (const auto& s : *r) Touch(page.subspan(s.offset, s.length));
      }
      auto sdi = DecodeSdiRecord(page, w.origin());
      if (sdi.ok() && !sdi->external && sdi->uncompressed_len < (1u << 20)) (void)SdiJson(*sdi);
    }
  }
}

void DecodeSpaceManagement(ConstBytes page) {
  PageSize ps(page.size());
  auto fsp = FspHeader::Open(page);
  if (fsp.ok()) {
    (void)fsp->CheckLists();
    (void)fsp->sdi_root();
  }
  for (std::uint32_t i = 0; i < ps.xdes_entries_per_page(); ++i) {
    XdesEntry e(page, i);
    (void)e.Check();
    (void)e.used_pages();
  }
  for (std::uint32_t i = 0; i < ps.inodes_per_page(); ++i) {
    InodeEntry e(page, i);
    (void)e.Check();
    (void)e.Usage();
  }
  (void)FsegHeader::Decode(page, IndexPage::kSegLeaf).Check(ps, IndexPage::kSegLeaf);
}

void DecodeUndoAndLob(ConstBytes page) {
  TrxSysPage trx(page);
  (void)trx.binlog();
  (void)trx.doublewrite();
  if (auto area = FindDoublewriteArea(page)) {
    for (std::uint32_t i = 0; i < area->slots(); ++i) (void)area->SlotPage(i);
  }
  (void)DoublewritePayloadLength(page);
  for (std::uint32_t i = 0; i < kTrxSysRsegSlots; ++i) (void)trx.rseg_slot(i);
  (void)RsegHeader(page).Check();
  if (auto a = RsegArrayPage::Open(page); a.ok()) (void)a->rseg_pages();
  auto ph = UndoPageHeader::Decode(page);
  auto sh = UndoSegmentHeader::Decode(page);
  if (sh.ok() && sh->last_log != 0) (void)UndoLogHeader::Decode(page, sh->last_log);
  (void)UndoLogHeader::Decode(page, UndoSegmentHeader::kFirstLog);
  if (ph.ok()) {
    // Walk undo records the way a reader would, bounded by the page's free offset.
    std::size_t at = ph->start, steps = 0;
    while (at != 0 && at < ph->free && steps++ < page.size()) {
      auto r = UndoRecordHeader::Decode(page, at);
      if (!r.ok()) break;
      for (std::size_t n_key : {1, 3}) (void)DecodeUndoRecordBody(page, *r, n_key);
      at = r->next;
    }
  }
  (void)BlobPage::Decode(page);
  if (auto f = LobFirstPage::Decode(page); f.ok()) {
    for (std::size_t i = 0; i < LobFirstPage::kEntryCount; ++i) {
      (void)LobIndexEntry::Decode(page, LobFirstPage::kEntries + i * LobIndexEntry::kSize);
    }
  }
  (void)LobDataPage::Decode(page);
}

void DecodeLog(ConstBytes bytes) {
  for (std::size_t at = 0; at + kLogBlockSize <= bytes.size() && at < 8 * kLogBlockSize; at += kLogBlockSize) {
    ConstBytes block = bytes.subspan(at, kLogBlockSize);
    (void)LogBlockHeader::Decode(block);
    (void)CheckLogBlockChecksum(block);
    (void)LogFileHeader::Decode(block);
    (void)LogCheckpoint::Decode(block);
    (void)LogCheckpoint::DecodeMariaPhys(block);
  }
  for (std::size_t at = 0; at < std::min<std::size_t>(bytes.size(), 64); ++at) {
    (void)ReadCompressed32(bytes, at);
    (void)ReadMuchCompressed64(bytes, at);
    (void)ReadCompressed64(bytes, at);
  }
  // Strata's redo records, parsed from every offset as recovery parses a log stream.
  for (std::size_t start = 0; start < std::min<std::size_t>(bytes.size(), 32); ++start) {
    for (std::size_t at = start, next = 0; at < bytes.size(); at = next) {
      auto r = ParseRedoRecord(bytes, at, 16384, &next);
      if (!r.ok() || !r->has_value() || next <= at) break;
    }
  }
  // MySQL 8.0.30+ records, the same way: each decoded size must stay inside the input.
  for (std::size_t start = 0; start < std::min<std::size_t>(bytes.size(), 32); ++start) {
    MySqlRedoRecord rec;
    for (std::size_t at = start; at < bytes.size() && ParseMySqlRedoRecord(bytes, at, &rec).ok(); at += rec.size) {
      if (rec.size == 0 || rec.size > bytes.size() - at) __builtin_trap();
    }
  }
}

// Every column type's decoder on the input's bytes (cut to the type's width when it has one):
// the values a damaged record or a hostile file would hand to `inspect rows`.
void DecodeColumnValues(ConstBytes raw) {
  static const std::vector<ColumnFormat> formats = [] {
    std::vector<ColumnFormat> v;
    auto add = [&v](ColumnType t, std::uint32_t length = 0, std::uint32_t precision = 0, std::uint32_t scale = 0,
                    std::uint32_t fsp = 0, bool is_unsigned = false, int collation = 45) {
      ColumnFormat f;
      f.type = t;
      f.length = length;
      f.precision = precision;
      f.scale = scale;
      f.fsp = fsp;
      f.is_unsigned = is_unsigned;
      f.collation = collation;
      f.name = "fuzz";
      if (t == ColumnType::kEnum || t == ColumnType::kSet) f.elements = {"a", "b", "c"};
      v.push_back(f);
    };
    for (std::uint32_t w : {1, 2, 3, 4, 8}) add(ColumnType::kInt, w), add(ColumnType::kInt, w, 0, 0, 0, true);
    for (auto [p, sc] : {std::pair{10u, 2u}, {65u, 30u}, {1u, 0u}, {18u, 9u}}) add(ColumnType::kDecimal, 0, p, sc);
    add(ColumnType::kFloat), add(ColumnType::kDouble), add(ColumnType::kBit, 13), add(ColumnType::kYear),
        add(ColumnType::kDate);
    for (std::uint32_t fsp = 0; fsp <= 6; ++fsp) {
      add(ColumnType::kTime, 0, 0, 0, fsp), add(ColumnType::kDatetime, 0, 0, 0, fsp),
          add(ColumnType::kTimestamp, 0, 0, 0, fsp);
    }
    for (int coll : {45, 8, 63, 35, 54, 60, 13, 51})
      add(ColumnType::kChar, 10, 0, 0, 0, false, coll), add(ColumnType::kVarchar, 0, 0, 0, 0, false, coll);
    add(ColumnType::kEnum), add(ColumnType::kSet), add(ColumnType::kJson), add(ColumnType::kGeometry),
        add(ColumnType::kSystem, 6);
    add(ColumnType::kUuid), add(ColumnType::kInet6), add(ColumnType::kInet4);
    return v;
  }();
  for (const auto& f : formats) {
    auto fixed = f.FixedBytes();
    (void)ColumnText(f, fixed ? raw.first(std::min<std::size_t>(*fixed, raw.size()))
                              : raw.first(std::min<std::size_t>(raw.size(), 4096)));
  }
  (void)JsonBinaryToText(raw.first(std::min<std::size_t>(raw.size(), 65536)));
  // A spatial value's WKB as bytes, and the input as Well-Known Text; what one reads, the other writes.
  const ConstBytes shape = raw.first(std::min<std::size_t>(raw.size(), 65536));
  if (ReadGeometry(shape).has_value() != GeometryText(shape).ok()) __builtin_trap();
  const std::string_view text(reinterpret_cast<const char*>(shape.data()), shape.size());
  if (auto bytes = GeometryFromText(text)) {
    if (!ReadGeometry(AsBytes(bytes->data(), bytes->size()))) __builtin_trap();
  }
  // The input as JSON text: a document it reads must write binary JSON its reader reads back.
  const auto read = ReadJsonText(text);
  if (const auto* doc = std::get_if<JsonNode>(&read)) {
    const auto binary = JsonToBinary(*doc);
    if (binary && !JsonBinaryToText(AsBytes(binary->data(), binary->size())).ok()) __builtin_trap();
  }
}

// The formats that are files of their own, not pages. A .cfg that reads must write back to bytes
// that read the same.
void DecodeForeignFormats(ConstBytes raw) {
  (void)DecodeFrm(raw);
  (void)DecodeMariaDbColumnMap(raw);
  auto cfg = DecodeCfg(raw);
  if (!cfg.ok()) return;
  const std::vector<std::byte> again = EncodeCfg(*cfg);
  auto back = DecodeCfg(again);
  if (!back.ok() || EncodeCfg(*back) != again) __builtin_trap();
}

}  // namespace

void DecodeEverything(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  static constexpr std::size_t kSizes[] = {4096, 8192, 16384, 32768, 65536, 16384, 16384, 16384};
  const std::size_t page_size = kSizes[data[0] & 7];
  const bool full_crc32 = data[0] & 8;
  ConstBytes raw(reinterpret_cast<const std::byte*>(data + 1), size - 1);

  // Truncated or oversized input must be refused by every entry point that takes a page.
  (void)FilHeader::Open(raw);
  (void)IndexPage::Open(raw);
  (void)FspHeader::Open(raw);
  (void)UndoPageHeader::Decode(raw);
  DecodeLog(raw);
  std::vector<MariaRedoRecord> mtr;
  const bool mtr_ok = ParseMariaMtr(raw, &mtr).ok();  // the input as one MariaDB mini-transaction's records
  DecodeColumnValues(raw);
  DecodeForeignFormats(raw);

  std::vector<std::byte> page(page_size);
  std::memcpy(page.data(), raw.data(), std::min(raw.size(), page_size));
  if (mtr_ok) {  // --apply-redo's replay of those records onto a page of the input's bytes
    std::vector<std::byte> target = page;
    for (const MariaRedoRecord& r : mtr) {
      if (r.page_op) (void)ApplyMariaRecord(r, target);
    }
  }
  ConstBytes p(page);
  (void)ValidatePage(p, full_crc32);
  (void)CheckPlacement(p, PageNo(0), SpaceId(0));
  (void)FspFlags::Decode(Load32(p, FspHeader::kFlags));
  DecodeIndexPage(p);
  DecodeSpaceManagement(p);
  DecodeUndoAndLob(p);

  // MariaDB PAGE_COMPRESSED: the page as either format would store it, with each algorithm
  // the full_crc32 flags could name (the older format names its own).
  std::vector<std::byte> decompressed(page_size);
  for (unsigned a = 1; a <= 6; ++a) {
    if (!IsPageCompressed(p, full_crc32)) break;
    auto c = ReadCompressedPage(p, full_crc32, static_cast<PageCompression>(a));
    if (!c.ok()) continue;
    (void)CompressedPageCrcHolds(p, *c);
    if (DecompressPage(p, *c, decompressed).ok()) DecodeIndexPage(decompressed);
    if (!full_crc32) break;
  }

  // MariaDB encryption: the crypt data looked for, and the page decrypted with a fixed key in
  // both ciphers (its fields decide the range), then read as a page again.
  (void)FindMariaDbCryptData(p);
  (void)MariaDbEncryptedChecksumHolds(p);
  if (MariaDbKeyVersion(p, full_crc32) != 0) {
    const MariaDbPageKey key{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    std::vector<std::byte> clear(page_size);
    for (MariaDbCipher cipher : {MariaDbCipher::kCbc, MariaDbCipher::kCtr}) {
      if (DecryptMariaDbPage(p, clear, key, cipher, 7, full_crc32).ok()) DecodeIndexPage(clear);
    }
  }

  if (data[0] & 0x80) {
    // A compressed page is unpacked, and what it unpacks to read with the layout it describes.
    const std::size_t zip_size = std::min<std::size_t>(std::size_t{1024} << ((data[0] >> 4) & 7), 16384);
    std::vector<std::byte> zip(zip_size);
    std::memcpy(zip.data(), raw.data(), std::min(raw.size(), zip_size));
    std::vector<std::byte> logical(16384);
    auto parts = DecompressIndexPage(zip, logical);
    if (parts.ok()) DecodeIndexPage(logical, &parts->layout);
  }
}

}  // namespace strata::fuzz
