#include "ondisk/undo.h"

#include <cassert>
#include <cstring>

#include "ondisk/fil_header.h"
#include "ondisk/mach.h"

namespace strata::ondisk {

TrxSysPage::TrxSysPage(ConstBytes page) : p_(page) { assert(PageSize::IsValid(page.size())); }

RsegSlot TrxSysPage::rseg_slot(std::uint32_t i) const {
  assert(i < kTrxSysRsegSlots);
  return {SpaceId(Load32(p_, kRsegs + 8 * i)), PageNo(Load32(p_, kRsegs + 8 * i + 4))};
}

std::optional<std::pair<std::uint64_t, std::string>> TrxSysPage::binlog() const {
  const std::size_t at = BinlogOffset(p_.size());
  if (Load32(p_, at) != kBinlogMagic) return std::nullopt;
  std::uint64_t offset = (std::uint64_t{Load32(p_, at + 4)} << 32) | Load32(p_, at + 8);
  const char* name = reinterpret_cast<const char*>(p_.data() + at + 12);
  return std::make_pair(offset, std::string(name, strnlen(name, 512)));
}

DoublewriteInfo TrxSysPage::doublewrite() const {
  const std::size_t at = DoublewriteOffset(p_.size());
  DoublewriteInfo d;
  d.present = Load32(p_, at + 10) == kDoublewriteMagic;
  d.fseg = FsegHeader::Decode(p_, at);
  d.block1 = PageNo(Load32(p_, at + 14));
  d.block2 = PageNo(Load32(p_, at + 18));
  return d;
}

TrxSysPageWriter::TrxSysPageWriter(MutableBytes page) : p_(page) { assert(PageSize::IsValid(page.size())); }

void TrxSysPageWriter::set_rseg_slot(std::uint32_t i, RsegSlot s) {
  assert(i < kTrxSysRsegSlots);
  Store32(p_, TrxSysPage::kRsegs + 8 * i, s.space.value());
  Store32(p_, TrxSysPage::kRsegs + 8 * i + 4, s.page.value());
}

void TrxSysPageWriter::set_doublewrite(const FsegHeader& fseg, PageNo block1, PageNo block2) {
  const std::size_t at = TrxSysPage::DoublewriteOffset(p_.size());
  fseg.EncodeTo(p_, at);
  for (std::size_t copy : {at + 10, at + 22}) {  // the fields and their repeat
    Store32(p_, copy, kDoublewriteMagic);
    Store32(p_, copy + 4, block1.value());
    Store32(p_, copy + 8, block2.value());
  }
  Store32(p_, at + 34, kSpaceIdStoredMagic);
}

RsegHeader::RsegHeader(ConstBytes page) : p_(page) { assert(PageSize::IsValid(page.size())); }

Status RsegHeader::Check() const {
  STRATA_RETURN_IF_ERROR(history().Check(p_.size(), kListNodeSize, kHistory));
  return fseg().Check(PageSize(p_.size()), kFseg);
}

RsegHeaderWriter::RsegHeaderWriter(MutableBytes page) : p_(page) { assert(PageSize::IsValid(page.size())); }

void RsegHeaderWriter::Init(std::uint32_t max_size, const FsegHeader& fseg) {
  Store32(p_, RsegHeader::kMaxSizeOrFormat, max_size);
  set_history_size(0);
  set_history(ListBase{});
  fseg.EncodeTo(p_, RsegHeader::kFseg);
  for (std::uint32_t i = 0; i < RsegHeader::NumUndoSlots(p_.size()); ++i) set_undo_slot(i, kNullPage);
}

void RsegHeaderWriter::set_undo_slot(std::uint32_t i, PageNo page) {
  assert(i < RsegHeader::NumUndoSlots(p_.size()));
  Store32(p_, RsegHeader::kUndoSlots + 4 * i, page.value());
}

Result<RsegArrayPage> RsegArrayPage::Open(ConstBytes page) {
  STRATA_RETURN_IF_ERROR(CheckPageSpan(page));
  if (Load32(page, kVersion) != kRsegArrayVersion) {
    return Status::CorruptionAt(kVersion, "RSEG_ARRAY version is " + std::to_string(Load32(page, kVersion)));
  }
  if (Load32(page, kCount) > kMaxEntries) {
    return Status::CorruptionAt(
        kCount, "RSEG_ARRAY lists " + std::to_string(Load32(page, kCount)) + " rollback segments, at most 128 fit");
  }
  return RsegArrayPage(page);
}

std::vector<PageNo> RsegArrayPage::rseg_pages() const {
  std::vector<PageNo> out;
  for (std::uint32_t i = 0; i < kMaxEntries; ++i) {
    PageNo p(Load32(p_, kPages + 4 * i));
    if (p == kNullPage) break;
    out.push_back(p);
  }
  return out;
}

std::uint8_t MySqlUndoSpaceNumber(std::uint32_t space_id) {
  constexpr std::uint32_t kMaxUndoSpaceId = 0xFFFFFFEF;                            // dict_sys_t::s_max_undo_space_id
  constexpr std::uint32_t kMaxUndoSpaces = 127;                                    // FSP_MAX_UNDO_TABLESPACES
  constexpr std::uint32_t kMinUndoSpaceId = 0xFFFFFFF0 - kMaxUndoSpaces * 400000;  // 400,000 ids per number
  // Undo tablespaces made by MySQL 5.7 keep their ids 1-127, which are their numbers.
  if (space_id < kMinUndoSpaceId || space_id > kMaxUndoSpaceId) return static_cast<std::uint8_t>(space_id);
  return static_cast<std::uint8_t>((kMaxUndoSpaceId - space_id) % kMaxUndoSpaces + 1);
}

void WriteRsegArray(MutableBytes page, const FsegHeader& fseg, const std::vector<PageNo>& rsegs) {
  assert(rsegs.size() <= RsegArrayPage::kMaxEntries);
  Store32(page, RsegArrayPage::kVersion, kRsegArrayVersion);
  Store32(page, RsegArrayPage::kCount, static_cast<std::uint32_t>(rsegs.size()));
  fseg.EncodeTo(page, RsegArrayPage::kFseg);
  for (std::uint32_t i = 0; i < RsegArrayPage::kMaxEntries; ++i) {
    Store32(page, RsegArrayPage::kPages + 4 * i, i < rsegs.size() ? rsegs[i].value() : kFilNull);
  }
}

std::string ToString(UndoPageType t) {
  switch (t) {
    case UndoPageType::kUnused:
      return "UNUSED";
    case UndoPageType::kInsert:
      return "INSERT";
    case UndoPageType::kUpdate:
      return "UPDATE";
  }
  return "UNDO_TYPE(" + std::to_string(static_cast<int>(t)) + ")";
}

std::string ToString(UndoState s) {
  switch (s) {
    case UndoState::kActive:
      return "ACTIVE";
    case UndoState::kCached:
      return "CACHED";
    case UndoState::kToFree:
      return "TO_FREE";
    case UndoState::kToPurge:
      return "TO_PURGE";
    case UndoState::kPrepared:
      return "PREPARED";
    case UndoState::kPrepared80:
      return "PREPARED (8.0.29+)";
    case UndoState::kPreparedInTc:
      return "PREPARED_IN_TC";
  }
  return "UNDO_STATE(" + std::to_string(static_cast<int>(s)) + ")";
}

std::string ToString(UndoRecordType t) {
  switch (t) {
    case UndoRecordType::kRenameTable:
      return "RENAME_TABLE";
    case UndoRecordType::kInsertMetadata:
      return "INSERT_METADATA";
    case UndoRecordType::kInsert:
      return "INSERT_REC";
    case UndoRecordType::kUpdateExisting:
      return "UPD_EXIST_REC";
    case UndoRecordType::kUpdateDeleted:
      return "UPD_DEL_REC";
    case UndoRecordType::kDeleteMark:
      return "DEL_MARK_REC";
    case UndoRecordType::kEmpty:
      return "EMPTY";
  }
  return "UNDO_REC(" + std::to_string(static_cast<int>(t)) + ")";
}

Result<UndoPageHeader> UndoPageHeader::Decode(ConstBytes page) {
  STRATA_RETURN_IF_ERROR(CheckPageSpan(page));
  UndoPageHeader h;
  h.type = Load16(page, kOffset);
  h.start = Load16(page, kOffset + 2);
  h.free = Load16(page, kOffset + 4);
  h.node = ListNode::Decode(page, kNode);
  const std::size_t body_end = page.size() - kFilTrailerSize;
  if (h.free < kOffset + 18 || h.free > body_end) {
    return Status::CorruptionAt(kOffset + 4,
                                "undo page free offset " + std::to_string(h.free) + " is outside the body");
  }
  if (h.start > h.free) {
    return Status::CorruptionAt(kOffset + 2, "undo page start " + std::to_string(h.start) +
                                                 " is past its free offset " + std::to_string(h.free));
  }
  return h;
}

void UndoPageHeader::EncodeTo(MutableBytes page) const {
  Store16(page, kOffset, type);
  Store16(page, kOffset + 2, start);
  Store16(page, kOffset + 4, free);
  node.EncodeTo(page, kNode);
}

Result<UndoSegmentHeader> UndoSegmentHeader::Decode(ConstBytes page) {
  STRATA_RETURN_IF_ERROR(CheckPageSpan(page));
  UndoSegmentHeader h;
  h.state = Load16(page, kOffset);
  h.last_log = Load16(page, kOffset + 2);
  h.fseg = FsegHeader::Decode(page, kOffset + 4);
  h.page_list = ListBase::Decode(page, kOffset + 14);
  if (h.state < 1 || h.state > 7) {
    return Status::CorruptionAt(kOffset, "undo segment state " + std::to_string(h.state));
  }
  if (h.last_log != 0 &&
      (h.last_log < kFirstLog || !Fits(page.size() - 8, h.last_log, UndoLogHeader::kSizeWithoutXid))) {
    return Status::CorruptionAt(kOffset + 2, "last undo log header at " + std::to_string(h.last_log));
  }
  STRATA_RETURN_IF_ERROR(h.page_list.Check(page.size(), kListNodeSize, kOffset + 14));
  return h;
}

void UndoSegmentHeader::EncodeTo(MutableBytes page) const {
  Store16(page, kOffset, state);
  Store16(page, kOffset + 2, last_log);
  fseg.EncodeTo(page, kOffset + 4);
  page_list.EncodeTo(page, kOffset + 14);
}

Result<UndoLogHeader> UndoLogHeader::Decode(ConstBytes page, std::size_t at) {
  const std::size_t body_end = page.size() - kFilTrailerSize;
  if (at < kFilHeaderSize || !Fits(body_end, at, kSizeWithoutXid)) {
    return Status::CorruptionAt(at, "undo log header does not fit in the page body");
  }
  UndoLogHeader h;
  h.trx_id = Load64(page, at);
  h.trx_no = Load64(page, at + kTrxNo);
  h.del_marks = Load16(page, at + kDelMarks);
  h.log_start = Load16(page, at + kLogStart);
  h.xid_exists_or_flags = Load8(page, at + 20);
  h.dict_trans = Load8(page, at + 21);
  h.table_id = Load64(page, at + 22);
  h.next_log = Load16(page, at + kNextLog);
  h.prev_log = Load16(page, at + kPrevLog);
  h.history_node = ListNode::Decode(page, at + kHistoryNode);
  if (h.xid_exists_or_flags & 1) {
    if (!Fits(body_end, at, kSizeWithXid)) return Status::CorruptionAt(at + 20, "XID does not fit in the page");
    h.xid_format = static_cast<std::int32_t>(Load32(page, at + 46));
    h.xid_gtrid_len = Load32(page, at + 50);
    h.xid_bqual_len = Load32(page, at + 54);
  }
  if (h.log_start < at + kSizeWithoutXid || h.log_start > body_end) {
    return Status::CorruptionAt(at + 18, "undo log records start at " + std::to_string(h.log_start) +
                                             ", inside the header or past the page body");
  }
  return h;
}

void UndoLogHeader::EncodeTo(MutableBytes page, std::size_t at) const {
  Store64(page, at, trx_id);
  Store64(page, at + kTrxNo, trx_no);
  Store16(page, at + kDelMarks, del_marks);
  Store16(page, at + kLogStart, log_start);
  Store8(page, at + 20, xid_exists_or_flags);
  Store8(page, at + 21, dict_trans);
  Store64(page, at + 22, table_id);
  Store16(page, at + kNextLog, next_log);
  Store16(page, at + kPrevLog, prev_log);
  history_node.EncodeTo(page, at + kHistoryNode);
  if (xid_exists_or_flags & 1) {
    Store32(page, at + 46, static_cast<std::uint32_t>(xid_format));
    Store32(page, at + 50, xid_gtrid_len);
    Store32(page, at + 54, xid_bqual_len);
  }
}

RollPtr RollPtr::Decode(std::uint64_t v) {
  return {static_cast<bool>((v >> 55) & 1), static_cast<std::uint8_t>((v >> 48) & 0x7F),
          static_cast<std::uint32_t>(v >> 16), static_cast<std::uint16_t>(v)};
}

std::uint64_t RollPtr::Encode() const {
  assert(rseg_id < 128);
  return (std::uint64_t{insert} << 55) | (std::uint64_t{rseg_id} << 48) | (std::uint64_t{page_no} << 16) | offset;
}

Result<UndoRecordHeader> UndoRecordHeader::Decode(ConstBytes page, std::size_t start) {
  const std::size_t body_end = page.size() - kFilTrailerSize;
  if (start < kFilHeaderSize || !Fits(body_end, start, 3)) {
    return Status::CorruptionAt(start, "undo record starts outside the page body");
  }
  UndoRecordHeader h;
  h.start = start;
  h.next = Load16(page, start);
  // The smallest record: next (2), type (1), undo_no (1), table_id (1), own offset (2).
  if (h.next < start + 7 || h.next > body_end) {
    return Status::CorruptionAt(start, "undo record's next offset " + std::to_string(h.next) + " is not after it");
  }
  // Decode only within this record: [start, next - 2) excludes the trailing own-offset.
  ConstBytes rec = page.first(h.next - 2);
  std::size_t at = start + 2;
  h.type_cmpl = Load8(rec, at++);
  const auto type = static_cast<std::uint8_t>(h.type_cmpl & 0x0F);
  if (type < 9 || type > 15) return Status::CorruptionAt(start + 2, "undo record type " + std::to_string(type));
  if (h.has_flag_byte()) {
    if (at >= rec.size()) return Status::CorruptionAt(at, "undo record ends inside its header");
    ++at;
  }
  auto undo_no = ReadMuchCompressed64(rec, at);
  if (!undo_no.ok()) return undo_no.status();
  h.undo_no = undo_no->value;
  at += undo_no->size;
  auto table_id = ReadMuchCompressed64(rec, at);
  if (!table_id.ok()) return table_id.status();
  h.table_id = table_id->value;
  at += table_id->size;
  if (type >= 12 && type <= 14) {
    if (at >= rec.size()) return Status::CorruptionAt(at, "undo record ends before its info bits");
    h.info_bits = Load8(rec, at++);
    auto trx = ReadCompressed64(rec, at);
    if (!trx.ok()) return trx.status();
    h.old_trx_id = trx->value;
    at += trx->size;
    auto roll = ReadCompressed64(rec, at);
    if (!roll.ok()) return roll.status();
    h.old_roll_ptr = RollPtr::Decode(roll->value);
    at += roll->size;
  }
  h.body = at;
  return h;
}

std::vector<std::byte> UndoRecordHeader::Encode() const {
  std::vector<std::byte> out(2);  // next offset, written when the record is complete
  Store16(out, 0, next);
  out.push_back(std::byte(type_cmpl));
  if (has_flag_byte()) out.push_back(std::byte{0});
  WriteMuchCompressed64(out, undo_no);
  WriteMuchCompressed64(out, table_id);
  const auto type = static_cast<std::uint8_t>(type_cmpl & 0x0F);
  if (type >= 12 && type <= 14) {
    assert(info_bits && old_trx_id && old_roll_ptr);
    out.push_back(std::byte(*info_bits));
    WriteCompressed64(out, *old_trx_id);
    WriteCompressed64(out, old_roll_ptr->Encode());
  }
  return out;
}

}  // namespace strata::ondisk
