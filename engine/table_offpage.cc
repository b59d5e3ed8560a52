// A row's long columns off-page (DYNAMIC rules): the longest move to BLOB pages until the
// record fits half a page, leaving a 20-byte reference; reading a row follows them back; a
// record removed for good frees them.
#include <fmt/format.h>

#include "engine/redo_log.h"
#include "engine/row_codec.h"
#include "engine/table_impl.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

constexpr std::size_t kExternMinLength = 2 * kExternRefSize;  // BTR_EXTERN_LOCAL_STORED_MAX_SIZE

}  // namespace

Result<Row> TableImpl::RowOf(const Tuple& clustered) {
  Row row(meta_.spec.columns.size());
  for (std::size_t i = 0; i < rec_.fields(0).size(); ++i) {
    const int c = rec_.fields(0)[i].column;
    if (c < 0) continue;
    const Column& col = meta_.spec.columns[static_cast<std::size_t>(c)];
    Datum d = clustered[i];
    if (d.external) {
      auto ref = ExternRef::Decode(d.span(), d.bytes.size() - kExternRefSize);
      auto bytes = lobs_->Read(ref);
      if (!bytes.ok()) return bytes.status();
      d = Datum::Of(std::move(*bytes));
    }
    auto v = DecodeValue(col, d);
    if (!v.ok()) return v.status().WithContext("column " + col.name);
    row[static_cast<std::size_t>(c)] = std::move(*v);
  }
  return row;
}

Status TableImpl::Externalize(Tuple& t) {
  const std::size_t limit = BtrPage::FreeSpaceOfEmpty(space_->page_size().bytes()) / 2;
  // A row's long columns are logged page by page with no checkpoint in between, after the
  // statement's free check left at most half the log used: more than a quarter of the log
  // could fill it. MySQL refuses at a tenth with this message (MariaDB, which loads the
  // 10 MB rows of our test dump on the same 96 MiB log, has no such limit).
  if (const RedoLog* log = pool_.redo(); log && pool_.redo_enabled()) {
    std::uint64_t long_bytes = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const FieldDef& f = rec_.shape(0).leaf.fields[i];
      if (f.big() && !f.absent && !t[i].null && !t[i].external) long_bytes += t[i].bytes.size();
    }
    if (long_bytes > log->capacity() / 4 && EncodedSize(rec_.shape(0).leaf, t) > limit) {
      return Status::InvalidArgument(
                 fmt::format(
                     "The size of BLOB/TEXT data inserted in one row is greater than 25% of redo log size ({} bytes of "
                     "{}); the "
                     "redo log's size is set when a data directory is created (DatabaseOptions::redo_log_bytes).",
                     long_bytes, log->capacity()))
          .Because(Status::Reason::kRowTooLargeForLog);
    }
  }
  for (;;) {
    const std::size_t size = EncodedSize(rec_.shape(0).leaf, t);
    if (size <= limit) return Status::Ok();
    std::size_t best = t.size();
    for (std::size_t i = 0; i < t.size(); ++i) {
      const FieldDef& f = rec_.shape(0).leaf.fields[i];
      if (!f.is_variable() || !f.big() || f.absent || t[i].null || t[i].external ||
          t[i].bytes.size() <= kExternMinLength)
        continue;
      if (best == t.size() || t[i].bytes.size() > t[best].bytes.size()) best = i;
    }
    if (best == t.size()) {
      return Status::InvalidArgument(
          fmt::format("Row size too large: the record takes {} bytes and at most {} fit in a page "
                      "once long columns move off-page",
                      size, limit));
    }
    auto ref = lobs_->Write(t[best].bytes);
    if (!ref.ok()) return ref.status();
    std::string local(kExternRefSize, '\0');
    ref->EncodeTo(MutableBytes(reinterpret_cast<std::byte*>(local.data()), local.size()), 0);
    t[best] = Datum{false, true, std::move(local)};
  }
}

Status TableImpl::FreeExternal(const Tuple& t) {
  for (const auto& d : t) {
    if (d.external) STRATA_RETURN_IF_ERROR(lobs_->Free(ExternRef::Decode(d.span(), d.bytes.size() - kExternRefSize)));
  }
  return Status::Ok();
}

}  // namespace strata::engine
