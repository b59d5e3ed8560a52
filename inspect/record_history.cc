#include "inspect/record_history.h"

#include <algorithm>

#include <fmt/format.h>

#include "inspect/mariadb_instant.h"
#include "ondisk/endian.h"
#include "ondisk/undo_record.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

constexpr std::uint8_t kDeletedFlag = 0x20;  // REC_INFO_DELETED_FLAG in the info bits
constexpr std::uint64_t kInsertFlag = std::uint64_t{1} << 55;
// MySQL writes the transaction id counter to TRX_SYS once every this many transactions;
// MariaDB keeps each rollback segment's newest commit exact.
constexpr std::uint64_t kTrxIdWriteMargin = 256;  // TRX_SYS_TRX_ID_WRITE_MARGIN
// More versions than any real chain has; a longer one loops.
constexpr std::size_t kMaxVersions = 100000;

ConstBytes AsBytes(const std::string& s) { return {reinterpret_cast<const std::byte*>(s.data()), s.size()}; }

std::string BigEndian(std::uint64_t v, std::size_t n) {
  std::string out(n, '\0');
  for (std::size_t i = 0; i < n; ++i) out[n - 1 - i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}

}  // namespace

RecordHistory::RecordHistory(const SpaceFile& file, const TableDef& table, const IndexDef& clustered,
                             const UndoLocator& undo)
    : file_(file),
      undo_(undo),
      columns_(RowColumns(table, clustered)),
      field_of_(table.columns.size(), -1),
      n_key_(clustered.n_unique_in_tree) {
  for (std::size_t f = 0; f < clustered.columns.size(); ++f) field_of_[clustered.columns[f]] = static_cast<int>(f);
  const auto& names = clustered.fields;
  if (!clustered.clustered) {
    refused_ = "only a clustered index's records have older versions";
  } else if (names.size() < n_key_ + 2 || names[n_key_] != "DB_TRX_ID" || names[n_key_ + 1] != "DB_ROLL_PTR") {
    refused_ = "the definition does not place DB_TRX_ID and DB_ROLL_PTR after the key";
  } else if (table.AlteredInstantlyByMySql() || !clustered.row_versions.empty()) {
    // Undo records of such tables number their fields in ways not followed here.
    refused_ = "the table was altered instantly (MySQL row versions): its history is not followed";
  } else if (clustered.root_page < file.n_pages() && IsIndexPage(file, clustered.root_page)) {
    auto root = file.OpenIndexPage(file.page(clustered.root_page));
    if (root.ok() && IsMariaDbInstantRoot(file, *root)) {
      refused_ = "the table was altered instantly (MariaDB): its history is not followed";
    }
  }
}

void RecordHistory::Fill(RecordVersion& v, const std::vector<Field>& fields) const {
  v.row.cells.resize(columns_.size());
  std::vector<std::uint32_t> failing;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const int f = field_of_[columns_[i].column];
    RowCell& cell = v.row.cells[i];
    if (f < 0 || static_cast<std::size_t>(f) >= fields.size()) {
      cell = {std::nullopt, "not a stored field of the clustered index"};
      continue;
    }
    const Field& field = fields[static_cast<std::size_t>(f)];
    if (!field.unknown.empty()) {
      cell = {std::nullopt, field.unknown};
      continue;
    }
    FillCell(cell, file_, AsBytes(field.bytes), field.is_null, field.external, *columns_[i].format, &failing);
  }
  if (!failing.empty()) v.row.page_damaged = true;
}

std::vector<RecordVersion> RecordHistory::Versions(const Row& row) const {
  std::vector<RecordVersion> out;
  RecordVersion v;
  v.row = row;
  v.row.fields = nullptr;
  if (!refused_.empty() || !row.fields) {
    v.unknown = !refused_.empty() ? refused_ : "the record could not be read with the table's own layout";
    out.push_back(std::move(v));
    return out;
  }
  std::vector<Field> fields;
  for (const FieldSlice& s : *row.fields) {
    const ConstBytes b = row.record_page.subspan(s.offset, s.length);
    fields.push_back({std::string(reinterpret_cast<const char*>(b.data()), b.size()), s.is_null, s.external, ""});
  }
  if (fields.size() < n_key_ + 2 || fields[n_key_].bytes.size() != 6 || fields[n_key_ + 1].bytes.size() != 7) {
    v.unknown = "the record's DB_TRX_ID or DB_ROLL_PTR is not where the definition puts them";
    out.push_back(std::move(v));
    return out;
  }
  v.trx_id = Load48(AsBytes(fields[n_key_].bytes), 0);
  std::uint64_t roll = Load56(AsBytes(fields[n_key_ + 1].bytes), 0);
  const std::uint64_t margin = file_.flavor() == Flavor::kMariaDb ? 0 : kTrxIdWriteMargin;
  if (undo_.max_trx_id() != 0 && v.trx_id > undo_.max_trx_id() + margin) {
    v.unknown = fmt::format(
        "the record was written by transaction {}, newer than any the undo logs know of ({}): they "
        "are not this table's server's, or older copies",
        v.trx_id, undo_.max_trx_id());
    out.push_back(std::move(v));
    return out;
  }
  for (;;) {
    auto older = StepBack(v, roll, fields);
    if (older && out.size() + 1 >= kMaxVersions) {
      older.reset();
      v.change.clear();
      v.unknown = fmt::format("more than {} versions: the undo records loop", kMaxVersions);
    }
    out.push_back(std::move(v));
    if (!older) break;
    const std::uint64_t newer_trx = v.trx_id;
    v = RecordVersion{};
    v.trx_id = Load48(AsBytes(fields[n_key_].bytes), 0);
    v.intermediate = v.trx_id == newer_trx;
    v.row.deleted = older->deleted;
    v.row.page = row.page;
    v.row.offset = row.offset;
    Fill(v, fields);
    roll = older->roll_ptr;
  }
  return out;
}

std::optional<RecordHistory::Older> RecordHistory::StepBack(RecordVersion& v, std::uint64_t roll_ptr,
                                                            std::vector<Field>& fields) const {
  if (v.trx_id == 0 && roll_ptr == kInsertFlag) {
    // MariaDB 10.3+ resets both once no read view can need an older version.
    v.unknown = "purged: DB_TRX_ID was reset once no read view needed the versions before";
    v.purged = true;
    return std::nullopt;
  }
  const RollPtr p = RollPtr::Decode(roll_ptr);
  if (p.insert) {
    // No older version. The insert's own undo record is kept only while it could be rolled
    // back (MySQL) or purged (MariaDB): found in an active log, the insert is not committed.
    v.change = "insert";
    auto at = undo_.Find(p);
    if (at.ok() && at->trx_id == v.trx_id) {
      v.undo = *at;
      v.committed = !at->active;
    }
    return std::nullopt;
  }
  auto at = undo_.Find(p);
  if (!at.ok()) {
    v.unknown = at.status().message();
    v.purged = at.status().IsNotFound();
    v.damaged = at.status().code() == Status::Code::kCorruption;
    return std::nullopt;
  }
  const std::string where = "the undo record at " + at->Where();
  if (at->trx_id != v.trx_id) {
    v.unknown = fmt::format("{} is in the undo log of transaction {}, not {}: the log that held it was purged", where,
                            at->trx_id, v.trx_id);
    v.purged = true;
    return std::nullopt;
  }
  const ConstBytes page = at->file->page(at->page);
  auto h = UndoRecordHeader::Decode(page, at->offset);
  if (!h.ok()) {
    v.unknown = where + ": " + h.status().message();
    v.damaged = true;
    return std::nullopt;
  }
  const UndoRecordType type = h->type();
  if (type != UndoRecordType::kUpdateExisting && type != UndoRecordType::kUpdateDeleted &&
      type != UndoRecordType::kDeleteMark) {
    v.unknown = where + " is " + ToString(type) + ", not an update";
    v.damaged = true;
    return std::nullopt;
  }
  auto body = DecodeUndoRecordBody(page, *h, n_key_);
  if (!body.ok()) {
    v.unknown = where + ": " + body.status().message();
    v.damaged = true;
    return std::nullopt;
  }
  for (std::size_t k = 0; k < n_key_; ++k) {
    const UndoValue& u = body->key[k];
    if (u.is_null != fields[k].is_null || u.RecordBytes(page) != fields[k].bytes) {
      v.unknown = where + " is of another row (its key differs): the log that held this row's was purged";
      v.purged = true;
      return std::nullopt;
    }
  }
  for (const UndoField& u : body->updated) {
    if (u.is_virtual()) continue;  // computed, not stored in the record
    if (u.position >= fields.size() || (u.position >= n_key_ && u.position < n_key_ + 2)) {
      v.unknown = fmt::format("{} changes field {}, which the record does not have", where, u.position);
      v.damaged = true;
      return std::nullopt;
    }
  }
  v.change = type == UndoRecordType::kUpdateExisting ? "update"
             : type == UndoRecordType::kDeleteMark   ? "delete"
                                                     : "insert";
  v.undo = *at;
  v.committed = !at->active;
  for (const UndoField& u : body->updated) {
    if (u.is_virtual()) continue;
    fields[u.position] = {u.value.RecordBytes(page), u.value.is_null, u.value.external,
                          u.value.lob_changed_in_place ? "its LOB was changed in place since (a MySQL 8.0 partial "
                                                         "update): the bytes of this version are not rebuilt"
                                                       : ""};
  }
  const Older older{h->old_roll_ptr->Encode(), (*h->info_bits & kDeletedFlag) != 0};
  fields[n_key_].bytes = BigEndian(*h->old_trx_id, 6);
  fields[n_key_ + 1].bytes = BigEndian(older.roll_ptr, 7);
  return older;
}

std::optional<Row> VersionSeenBy(const std::vector<RecordVersion>& versions, std::uint64_t as_of,
                                 const std::vector<RowColumn>& columns, const IndexDef& index,
                                 std::uint64_t& unknown_values) {
  auto count_unknown = [&](const Row& row) {
    for (const auto& c : row.cells) unknown_values += !c.unknown.empty();
  };
  for (const auto& v : versions) {
    // A version whose writer is not known (the history refused, the record unreadable) is
    // not judged visible: what the view saw is then unknown, not this version's values.
    if (v.change.empty() && !v.purged && !v.unknown.empty() && v.trx_id == 0) break;
    // MariaDB's DB_TRX_ID 0 (history purged): every view sees it.
    if (!v.committed || (v.trx_id >= as_of && v.trx_id != 0)) continue;
    if (&v != &versions.front()) count_unknown(v.row);
    if (v.row.deleted) return std::nullopt;
    return v.row;
  }
  // No version old enough: the row was inserted after the view, or what it saw is gone.
  const RecordVersion& oldest = versions.back();
  if (oldest.change == "insert") return std::nullopt;
  Row gone = oldest.row;
  const auto key_end = index.columns.begin() + static_cast<std::ptrdiff_t>(index.n_unique_in_tree);
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (std::find(index.columns.begin(), key_end, columns[i].column) != key_end) continue;
    gone.cells[i] = {std::nullopt, "the version this read view sees cannot be rebuilt: " + oldest.unknown};
    ++unknown_values;
  }
  gone.deleted = false;
  return gone;
}

}  // namespace strata::inspect
