// Transaction system and undo structures (innodb-format.md §10).
//
// TRX_SYS page (system tablespace page 5, type 7), offsets for any page size P:
//   38      8    TRX_SYS_TRX_ID_STORE   transaction id high-water mark
//   46      10   FSEG header of the TRX_SYS segment
//   56      8*128 rollback segment slots: space id (4), page number (4); FIL_NULL = unused
//   P-2000  ...  MySQL 5.x replication master binlog info
//   P-1000  4+8+512  binlog info: magic 873422344, offset (high, low), file name
//   P-200   10+4+4+4+12  doublewrite: FSEG header, magic 536853855, block 1, block 2, copies
//   P-166   4    1783657386 when space ids are stored in pages
//
// Rollback segment header page (type 6), at 38:
//   38 4 max size (MySQL) / format (MariaDB)   42 4 history size (pages)
//   46 16 history list base (its length is this segment's history list length)
//   62 10 FSEG header   72 4*(P/16) undo slots (FIL_NULL = free)
//   72+P/4  8  MariaDB: max trx id; then binlog offset (8) and name (512)
//
// MySQL 8.0 RSEG_ARRAY page (undo tablespace page 3, type 21):
//   38 4 version 0x52534548   42 4 count   46 10 FSEG header   56 4*n rseg header pages
//
// Undo page (type 2):               undo segment header (first page only), at 56:
//   38 2 type (1 insert, 2 update)     56 2 state   58 2 last log header offset
//   40 2 start of latest log's records 60 10 FSEG header  70 16 page list base
//   42 2 first free byte               86 first undo log header
//   44 12 page list node
//
// Undo log header (relative to its start):
//   0 8 trx id  8 8 trx no  16 2 del marks / needs purge  18 2 log start  20 1 xid exists
//   (MySQL 8.0: flags)  21 1 dict trans  22 8 table id  30 2 next log  32 2 prev log
//   34 12 history list node  46 4+4+4+128 XID (when present)
//
// Undo record: 2 next-record offset, 1 type_cmpl, [1 flag byte when type_cmpl & 0x40 (MySQL
// 8.0)], undo_no (much compressed), table_id (much compressed), body, 2 own start offset.
// Update/delete bodies open with info bits (1), old DB_TRX_ID and DB_ROLL_PTR (compressed).
//
// Roll pointer (7 bytes): bit 55 insert, bits 54-48 rollback segment, 47-16 page, 15-0 offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/file_list.h"
#include "ondisk/inode.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

inline constexpr std::uint32_t kTrxSysRsegSlots = 128;
inline constexpr std::uint32_t kBinlogMagic = 873422344;       // TRX_SYS_MYSQL_LOG_MAGIC_N
inline constexpr std::uint32_t kDoublewriteMagic = 536853855;  // TRX_SYS_DOUBLEWRITE_MAGIC_N
inline constexpr std::uint32_t kSpaceIdStoredMagic = 1783657386;
inline constexpr std::uint32_t kRsegArrayVersion = 0x52534548;  // "RSEH": "RSEG" + 1

struct RsegSlot {
  SpaceId space;
  PageNo page = kNullPage;
  bool used() const { return page != kNullPage; }
  constexpr bool operator==(const RsegSlot&) const = default;
};

struct DoublewriteInfo {
  bool present = false;  // magic found
  FsegHeader fseg;
  PageNo block1, block2;
};

class TrxSysPage {
 public:
  static constexpr std::size_t kTrxIdStore = 38;
  static constexpr std::size_t kFseg = 46;
  static constexpr std::size_t kRsegs = 56;
  static std::size_t BinlogOffset(std::size_t page_size) { return page_size - 1000; }
  static std::size_t DoublewriteOffset(std::size_t page_size) { return page_size - 200; }

  explicit TrxSysPage(ConstBytes page);  // whole page (asserts)
  std::uint64_t trx_id_store() const { return Load64(p_, kTrxIdStore); }
  FsegHeader fseg() const { return FsegHeader::Decode(p_, kFseg); }
  RsegSlot rseg_slot(std::uint32_t i) const;
  // The binlog position, when its magic is present.
  std::optional<std::pair<std::uint64_t, std::string>> binlog() const;
  DoublewriteInfo doublewrite() const;

 private:
  ConstBytes p_;
};

class TrxSysPageWriter {
 public:
  explicit TrxSysPageWriter(MutableBytes page);
  void set_trx_id_store(std::uint64_t v) { Store64(p_, TrxSysPage::kTrxIdStore, v); }
  void set_fseg(const FsegHeader& h) { h.EncodeTo(p_, TrxSysPage::kFseg); }
  void set_rseg_slot(std::uint32_t i, RsegSlot s);
  void set_doublewrite(const FsegHeader& fseg, PageNo block1, PageNo block2);

 private:
  MutableBytes p_;
};

class RsegHeader {
 public:
  static constexpr std::size_t kMaxSizeOrFormat = 38;
  static constexpr std::size_t kHistorySize = 42;
  static constexpr std::size_t kHistory = 46;
  static constexpr std::size_t kFseg = 62;
  static constexpr std::size_t kUndoSlots = 72;
  static std::uint32_t NumUndoSlots(std::size_t page_size) { return static_cast<std::uint32_t>(page_size / 16); }
  static std::size_t MariaMaxTrxIdOffset(std::size_t page_size) { return kUndoSlots + 4 * NumUndoSlots(page_size); }

  explicit RsegHeader(ConstBytes page);
  std::uint32_t max_size_or_format() const { return Load32(p_, kMaxSizeOrFormat); }
  std::uint32_t history_size() const { return Load32(p_, kHistorySize); }
  ListBase history() const { return ListBase::Decode(p_, kHistory); }
  // History list length of this rollback segment: committed update-undo logs not yet purged.
  std::uint32_t history_length() const { return history().length; }
  FsegHeader fseg() const { return FsegHeader::Decode(p_, kFseg); }
  PageNo undo_slot(std::uint32_t i) const { return PageNo(Load32(p_, kUndoSlots + 4 * i)); }
  std::uint64_t maria_max_trx_id() const { return Load64(p_, MariaMaxTrxIdOffset(p_.size())); }
  Status Check() const;

 private:
  ConstBytes p_;
};

class RsegHeaderWriter {
 public:
  explicit RsegHeaderWriter(MutableBytes page);
  // A fresh rollback segment: every undo slot FIL_NULL, empty history.
  void Init(std::uint32_t max_size, const FsegHeader& fseg);
  void set_history_size(std::uint32_t v) { Store32(p_, RsegHeader::kHistorySize, v); }
  void set_history(const ListBase& l) { l.EncodeTo(p_, RsegHeader::kHistory); }
  void set_undo_slot(std::uint32_t i, PageNo page);

 private:
  MutableBytes p_;
};

class RsegArrayPage {
 public:
  static constexpr std::size_t kVersion = 38;
  static constexpr std::size_t kCount = 42;
  static constexpr std::size_t kFseg = 46;
  static constexpr std::size_t kPages = 56;
  static constexpr std::uint32_t kMaxEntries = 128;

  // Corruption for a wrong version or an impossible count.
  static Result<RsegArrayPage> Open(ConstBytes page);
  std::uint32_t count() const { return Load32(p_, kCount); }
  FsegHeader fseg() const { return FsegHeader::Decode(p_, kFseg); }
  // Rollback segment header pages, up to the first FIL_NULL.
  std::vector<PageNo> rseg_pages() const;

 private:
  explicit RsegArrayPage(ConstBytes p) : p_(p) {}
  ConstBytes p_;
};

// MySQL 8.0: the number (1-127) of the undo tablespace with id `space_id`, which its roll
// pointers carry in place of a rollback segment number. Each number owns a range of ids, a
// new one each time the tablespace is truncated, counted down from 0xFFFFFFEF; undo
// tablespaces MySQL 5.7 made keep ids 1-127, their numbers.
std::uint8_t MySqlUndoSpaceNumber(std::uint32_t space_id);

void WriteRsegArray(MutableBytes page, const FsegHeader& fseg, const std::vector<PageNo>& rsegs);

// Frozen on disk.
enum class UndoPageType : std::uint16_t { kUnused = 0, kInsert = 1, kUpdate = 2 };
// 5 is PREPARED up to MySQL 8.0.28; 8.0.29+ writes 6 (PREPARED) and 7 (PREPARED_IN_TC).
enum class UndoState : std::uint16_t {
  kActive = 1,
  kCached = 2,
  kToFree = 3,
  kToPurge = 4,
  kPrepared = 5,
  kPrepared80 = 6,
  kPreparedInTc = 7,
};
std::string ToString(UndoPageType t);
std::string ToString(UndoState s);

struct UndoPageHeader {
  static constexpr std::size_t kOffset = 38;
  static constexpr std::size_t kNode = 44;
  static constexpr std::size_t kEnd = kOffset + 18;  // TRX_UNDO_PAGE_HDR_SIZE: a later page's records start here
  std::uint16_t type = 0;
  std::uint16_t start = 0;
  std::uint16_t free = 0;
  ListNode node;

  static Result<UndoPageHeader> Decode(ConstBytes page);  // checks start <= free <= body end
  void EncodeTo(MutableBytes page) const;
};

struct UndoSegmentHeader {
  static constexpr std::size_t kOffset = 56;
  static constexpr std::size_t kFseg = kOffset + 4;       // TRX_UNDO_FSEG_HEADER
  static constexpr std::size_t kPageList = kOffset + 14;  // TRX_UNDO_PAGE_LIST
  static constexpr std::size_t kFirstLog = 86;
  std::uint16_t state = 0;
  std::uint16_t last_log = 0;
  FsegHeader fseg;
  ListBase page_list;

  static Result<UndoSegmentHeader> Decode(ConstBytes page);
  void EncodeTo(MutableBytes page) const;
};

struct UndoLogHeader {
  // Fields, from the header's start.
  static constexpr std::size_t kTrxNo = 8;
  static constexpr std::size_t kDelMarks = 16;
  static constexpr std::size_t kLogStart = 18;
  static constexpr std::size_t kNextLog = 30;
  static constexpr std::size_t kPrevLog = 32;
  static constexpr std::size_t kHistoryNode = 34;  // history list addresses point here
  static constexpr std::size_t kSizeWithoutXid = 46;
  static constexpr std::size_t kSizeWithXid = 186;
  std::uint64_t trx_id = 0;
  std::uint64_t trx_no = 0;
  std::uint16_t del_marks = 0;
  std::uint16_t log_start = 0;
  std::uint8_t xid_exists_or_flags = 0;
  std::uint8_t dict_trans = 0;
  std::uint64_t table_id = 0;
  std::uint16_t next_log = 0;
  std::uint16_t prev_log = 0;
  ListNode history_node;
  // XID, when xid_exists_or_flags & 1.
  std::int32_t xid_format = 0;
  std::uint32_t xid_gtrid_len = 0;
  std::uint32_t xid_bqual_len = 0;

  // `at` is the header's start; Corruption when it does not fit or log_start is impossible.
  static Result<UndoLogHeader> Decode(ConstBytes page, std::size_t at);
  void EncodeTo(MutableBytes page, std::size_t at) const;
};

// Frozen on disk.
enum class UndoRecordType : std::uint8_t {
  kRenameTable = 9,      // MariaDB
  kInsertMetadata = 10,  // MariaDB
  kInsert = 11,
  kUpdateExisting = 12,
  kUpdateDeleted = 13,
  kDeleteMark = 14,
  kEmpty = 15,  // MariaDB 10.6 bulk insert
};
std::string ToString(UndoRecordType t);

struct RollPtr {
  bool insert = false;
  std::uint8_t rseg_id = 0;  // 7 bits; MySQL 8.0: undo tablespace number
  std::uint32_t page_no = 0;
  std::uint16_t offset = 0;

  constexpr bool operator==(const RollPtr&) const = default;
  static RollPtr Decode(std::uint64_t v56);
  std::uint64_t Encode() const;
};

// The part of an undo record every type shares, plus the update prefix.
struct UndoRecordHeader {
  // A record begins with the page offset of the next one (its own end) and ends with the 2
  // bytes that hold its own start, which is how a log is walked backwards.
  static constexpr std::size_t kNext = 0;
  static constexpr std::size_t kStartBefore = 2;  // the start's bytes, before the next record
  std::size_t start = 0;                          // page offset of the record
  std::uint16_t next = 0;                         // page offset of the next record (end of this one)
  std::uint8_t type_cmpl = 0;
  UndoRecordType type() const { return static_cast<UndoRecordType>(type_cmpl & 0x0F); }
  std::uint8_t cmpl_info() const { return (type_cmpl >> 4) & 3; }
  bool update_extern() const { return type_cmpl & 0x80; }
  bool has_flag_byte() const { return type_cmpl & 0x40; }  // MySQL 8.0 MODIFY_BLOB
  std::uint64_t undo_no = 0;
  std::uint64_t table_id = 0;
  // Update/delete-mark records only.
  std::optional<std::uint8_t> info_bits;
  std::optional<std::uint64_t> old_trx_id;
  std::optional<RollPtr> old_roll_ptr;
  std::size_t body = 0;  // page offset where the key fields start

  // Corruption when any part runs past `next` or the page.
  static Result<UndoRecordHeader> Decode(ConstBytes page, std::size_t start);
  // The bytes from the start of the record up to (not including) the key fields; `next` is
  // filled in by the caller when the record is complete.
  std::vector<std::byte> Encode() const;
};

}  // namespace strata::ondisk
