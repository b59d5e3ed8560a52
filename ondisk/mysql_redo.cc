#include "ondisk/mysql_redo.h"

#include <string>

#include "ondisk/mach.h"

namespace strata::ondisk {

namespace {

// Reads a record's fields in order; the first field that is cut short (NotFound) or malformed
// (Corruption) stops every later read.
class FieldReader {
 public:
  FieldReader(ConstBytes b, std::size_t at) : b_(b), at_(at) {}

  std::size_t at() const { return at_; }
  const Status& status() const { return st_; }
  bool ok() const { return st_.ok(); }

  std::uint64_t Fixed(std::size_t n) {
    if (!Need(n)) return 0;
    const std::uint64_t v = LoadBe(b_, at_, n);
    at_ += n;
    return v;
  }
  void Skip(std::uint64_t n) {
    if (Need(n)) at_ += n;
  }
  std::uint32_t Compressed() {
    if (!Need(1)) return 0;
    const unsigned first = Load8(b_, at_);
    const std::size_t n = first < 0x80    ? 1
                          : first < 0xC0  ? 2
                          : first < 0xE0  ? 3
                          : first < 0xF0  ? 4
                          : first == 0xF0 ? 5
                          : first < 0xF8  ? 0
                          : first < 0xFC  ? 2
                          : first < 0xFE  ? 3
                          : first == 0xFE ? 4
                                          : 0;
    if (n == 0)
      return Fail(Status::CorruptionAt(at_, "byte " + std::to_string(first) + " starts no compressed number")), 0;
    if (!Need(n)) return 0;
    auto d = ReadCompressed32(b_, at_);
    if (!d.ok()) return Fail(d.status()), 0;
    at_ += d->size;
    return static_cast<std::uint32_t>(d->value);
  }
  void Compressed64() {  // the high half compressed, the low half 4 plain bytes
    Compressed();
    Skip(4);
  }
  void MuchCompressed64() {  // 0xFF, high, low; or the 32-bit form alone
    if (Need(1) && Load8(b_, at_) == 0xFF) {
      ++at_;
      Compressed();
    }
    Compressed();
  }
  void Fail(Status st) {
    if (st_.ok()) st_ = std::move(st);
  }

 private:
  bool Need(std::uint64_t n) {
    if (!st_.ok()) return false;
    if (Fits(b_.size(), at_, n)) return true;
    st_ = Status::NotFound("the record goes on past the bytes read (at " + std::to_string(at_) + ", " +
                           std::to_string(n) + " more wanted)");
    return false;
  }

  ConstBytes b_;
  std::size_t at_;
  Status st_ = Status::Ok();
};

// The index description of B-tree records (mtr0log's version 1): a version byte, flags
// (1 compact, 2 versioned: instant ADD/DROP, 4 instant columns of 8.0.12-8.0.28), then field
// counts and lengths.
void SkipIndexDescription(FieldReader& r) {
  const std::size_t at = r.at();
  const auto version = r.Fixed(1);
  const auto flags = r.Fixed(1);
  if (!r.ok()) return;
  if (version != 1)
    return r.Fail(
        Status::CorruptionAt(at, "index description version " + std::to_string(version) + " (8.0.30+ write 1)"));
  if (flags & ~std::uint64_t{7})
    return r.Fail(Status::CorruptionAt(at + 1, "index description flags " + std::to_string(flags)));
  if (!(flags & 3)) return;  // ROW_FORMAT=REDUNDANT, no versions: nothing more
  const auto n = r.Fixed(2);
  if (flags & 1) {
    if (flags & 4) r.Fixed(2);  // fields before the first instant column
    r.Fixed(2);                 // fields that make a key unique
    r.Skip(2 * n);              // each field's length and NOT NULL bit
  }
  if (flags & 2) {
    const auto versioned = r.Fixed(2);
    for (std::uint64_t i = 0; i < versioned && r.ok(); ++i) {
      r.Fixed(2);  // logical position
      const auto physical = r.Fixed(2);
      if (physical & 0x8000) r.Fixed(1);  // the version that added it
      if (physical & 0x4000) r.Fixed(1);  // the version that dropped it
    }
  }
}

// DB_TRX_ID's position, DB_ROLL_PTR, DB_TRX_ID, as delete marks and updates of clustered
// records log them.
void SkipSystemValues(FieldReader& r) {
  r.Compressed();
  r.Skip(7);
  r.Compressed64();
}

void SkipUpdateVector(FieldReader& r) {
  r.Fixed(1);  // info bits
  const std::uint32_t fields = r.Compressed();
  for (std::uint32_t i = 0; i < fields && r.ok(); ++i) {
    r.Compressed();  // field number
    const std::uint32_t len = r.Compressed();
    if (len != 0xFFFFFFFF) r.Skip(len);  // else SQL NULL
  }
}

// Types 67-76 of 8.0.30+ and the rest of mtr0types.h's list. Empty names: never written by 8.0.30+.
const char* TypeName(unsigned code) {
  switch (code) {
    case 1:
      return "MLOG_1BYTE";
    case 2:
      return "MLOG_2BYTES";
    case 4:
      return "MLOG_4BYTES";
    case 8:
      return "MLOG_8BYTES";
    case 11:
      return "MLOG_REC_SEC_DELETE_MARK";
    case 19:
      return "MLOG_PAGE_CREATE";
    case 20:
      return "MLOG_UNDO_INSERT";
    case 21:
      return "MLOG_UNDO_ERASE_END";
    case 22:
      return "MLOG_UNDO_INIT";
    case 24:
      return "MLOG_UNDO_HDR_REUSE";
    case 25:
      return "MLOG_UNDO_HDR_CREATE";
    case 26:
      return "MLOG_REC_MIN_MARK";
    case 27:
      return "MLOG_IBUF_BITMAP_INIT";
    case 29:
      return "MLOG_INIT_FILE_PAGE";
    case 30:
      return "MLOG_WRITE_STRING";
    case 31:
      return "MLOG_MULTI_REC_END";
    case 32:
      return "MLOG_DUMMY_RECORD";
    case 33:
      return "MLOG_FILE_CREATE";
    case 34:
      return "MLOG_FILE_RENAME";
    case 35:
      return "MLOG_FILE_DELETE";
    case 36:
      return "MLOG_COMP_REC_MIN_MARK";
    case 37:
      return "MLOG_COMP_PAGE_CREATE";
    case 40:
      return "MLOG_COMP_REC_SEC_DELETE_MARK";
    case 48:
      return "MLOG_ZIP_WRITE_NODE_PTR";
    case 49:
      return "MLOG_ZIP_WRITE_BLOB_PTR";
    case 50:
      return "MLOG_ZIP_WRITE_HEADER";
    case 51:
      return "MLOG_ZIP_PAGE_COMPRESS";
    case 57:
      return "MLOG_PAGE_CREATE_RTREE";
    case 58:
      return "MLOG_COMP_PAGE_CREATE_RTREE";
    case 59:
      return "MLOG_INIT_FILE_PAGE2";
    case 61:
      return "MLOG_INDEX_LOAD";
    case 62:
      return "MLOG_TABLE_DYNAMIC_META";
    case 63:
      return "MLOG_PAGE_CREATE_SDI";
    case 64:
      return "MLOG_COMP_PAGE_CREATE_SDI";
    case 65:
      return "MLOG_FILE_EXTEND";
    case 66:
      return "MLOG_TEST";
    case 67:
      return "MLOG_REC_INSERT";
    case 68:
      return "MLOG_REC_CLUST_DELETE_MARK";
    case 69:
      return "MLOG_REC_DELETE";
    case 70:
      return "MLOG_REC_UPDATE_IN_PLACE";
    case 71:
      return "MLOG_LIST_END_COPY_CREATED";
    case 72:
      return "MLOG_PAGE_REORGANIZE";
    case 73:
      return "MLOG_ZIP_PAGE_REORGANIZE";
    case 74:
      return "MLOG_ZIP_PAGE_COMPRESS_NO_DATA";
    case 75:
      return "MLOG_LIST_END_DELETE";
    case 76:
      return "MLOG_LIST_START_DELETE";
    default:
      return nullptr;
  }
}

bool IsFileOp(unsigned code) { return code == 33 || code == 34 || code == 35 || code == 61 || code == 65; }

// The body after space and page.
void SkipBody(unsigned code, FieldReader& r, MySqlRedoRecord* out) {
  switch (code) {
    case 1:
    case 2:
    case 4: {
      out->offset = static_cast<std::uint32_t>(r.Fixed(2));
      out->length = code;
      out->value = r.Compressed();
      return;
    }
    case 8: {
      out->offset = static_cast<std::uint32_t>(r.Fixed(2));
      out->length = 8;
      const std::uint64_t high = r.Compressed();  // then the low half, 4 plain bytes
      out->value = high << 32 | r.Fixed(4);
      return;
    }
    case 11:
    case 40:
      r.Fixed(1);  // the mark
      r.Fixed(2);  // the record
      return;
    case 20:
      return r.Skip(r.Fixed(2));
    case 22:
      r.Compressed();
      return;
    case 24:
    case 25:
      return r.Compressed64();
    case 26:
    case 36:
      r.Fixed(2);
      return;
    case 30:
      out->offset = static_cast<std::uint32_t>(r.Fixed(2));
      out->length = static_cast<std::uint32_t>(r.Fixed(2));
      out->data = r.at();
      return r.Skip(out->length);
    case 33:
      r.Fixed(4);  // FSP flags
      return r.Skip(r.Fixed(2));
    case 34:
      r.Skip(r.Fixed(2));
      return r.Skip(r.Fixed(2));
    case 35:
      return r.Skip(r.Fixed(2));
    case 48:
      return r.Skip(8);
    case 49:
      return r.Skip(24);
    case 50:
      r.Fixed(1);
      return r.Skip(r.Fixed(1));
    case 51: {
      const auto size = r.Fixed(2);
      const auto trailer = r.Fixed(2);
      return r.Skip(8 + size + trailer);
    }
    case 61:
      return r.Skip(8);
    case 65:
      return r.Skip(16);
    case 66: {
      r.Skip(16);
      r.Skip(r.Fixed(1));
      return r.Skip(16);
    }
    case 67: {
      SkipIndexDescription(r);
      r.Fixed(2);  // the record the cursor is on
      const std::uint32_t end_seg = r.Compressed();
      if (end_seg & 1) {
        r.Fixed(1);      // info and status bits
        r.Compressed();  // origin offset
        r.Compressed();  // mismatch index
      }
      return r.Skip(end_seg >> 1);
    }
    case 68:
      SkipIndexDescription(r);
      r.Fixed(1);  // flags
      r.Fixed(1);  // the mark
      SkipSystemValues(r);
      r.Fixed(2);
      return;
    case 69:
    case 75:
    case 76:
      SkipIndexDescription(r);
      r.Fixed(2);
      return;
    case 70:
      SkipIndexDescription(r);
      r.Fixed(1);  // flags
      SkipSystemValues(r);
      r.Fixed(2);
      return SkipUpdateVector(r);
    case 71:
      SkipIndexDescription(r);
      return r.Skip(r.Fixed(4));
    case 72:
      return SkipIndexDescription(r);
    case 73:
    case 74:
      SkipIndexDescription(r);
      r.Fixed(1);  // compression level
      return;
    default:
      return;  // page creation and initialisation, undo erase: no body
  }
}

}  // namespace

Status ParseMySqlRedoRecord(ConstBytes b, std::size_t at, MySqlRedoRecord* out) {
  *out = MySqlRedoRecord{};
  FieldReader r(b, at);
  const unsigned first = static_cast<unsigned>(r.Fixed(1));
  if (!r.ok()) return r.status();
  out->code = static_cast<std::uint8_t>(first & ~kMlogSingleRecFlag);
  out->single = first & kMlogSingleRecFlag;
  const char* name = TypeName(out->code);
  if (!name) {
    return Status::CorruptionAt(at, "record type " + std::to_string(out->code) +
                                        " is not one MySQL 8.0.30+ writes (an older server's log, or damage)");
  }
  out->type = name;
  if (out->code == kMlogMultiRecEnd || out->code == kMlogDummyRecord) {
    if (out->single) return Status::CorruptionAt(at, std::string(name) + " with the single-record flag");
    out->size = 1;
    return Status::Ok();
  }
  if (out->code == 62) {   // MLOG_TABLE_DYNAMIC_META: a table's persistent metadata
    r.MuchCompressed64();  // table id
    r.MuchCompressed64();  // version
    const auto persister = r.Fixed(1);
    if (r.ok() && persister == 1) {
      r.Skip(12 * r.Fixed(1));  // corrupted indexes: space id, index id
    } else if (r.ok() && persister == 2) {
      r.MuchCompressed64();  // AUTO_INCREMENT
    } else if (r.ok()) {
      r.Fail(Status::CorruptionAt(r.at() - 1, "table metadata of unknown kind " + std::to_string(persister)));
    }
  } else {
    out->space = r.Compressed();
    out->page = r.Compressed();
    out->file_op = IsFileOp(out->code);
    out->page_op = !out->file_op;
    SkipBody(out->code, r, out);
  }
  if (!r.ok()) return r.status();
  out->size = r.at() - at;
  return Status::Ok();
}

}  // namespace strata::ondisk
