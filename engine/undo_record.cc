#include "engine/undo_record.h"

#include "ondisk/mach.h"
#include "ondisk/undo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

std::optional<std::string_view> BytesOf(const Datum& d) {
  if (d.null) return std::nullopt;
  return std::string_view(d.bytes);
}

Datum ToDatum(ConstBytes page, const UndoValue& v) {
  if (v.is_null) return Datum::Null();
  Datum d;
  d.external = v.external;
  d.bytes = v.RecordBytes(page);
  return d;
}

std::vector<std::pair<std::uint32_t, Datum>> ToDatums(ConstBytes page, const std::vector<UndoField>& fields) {
  std::vector<std::pair<std::uint32_t, Datum>> out;
  for (const UndoField& f : fields) out.emplace_back(f.position, ToDatum(page, f.value));
  return out;
}

}  // namespace

std::vector<std::byte> UndoRecord::Encode(std::uint16_t start) const {
  UndoRecordHeader h;
  h.type_cmpl = static_cast<std::uint8_t>(type);
  h.undo_no = undo_no;
  h.table_id = table_id;
  if (is_update()) {
    h.info_bits = info_bits;
    h.old_trx_id = old_trx_id;
    h.old_roll_ptr = RollPtr::Decode(old_roll_ptr);
  }
  UndoRecordWriter w(h);
  for (const auto& d : key) w.Value(BytesOf(d), d.external);
  if (type == UndoRecordType::kUpdateExisting || type == UndoRecordType::kUpdateDeleted) {
    w.UpdateCount(static_cast<std::uint32_t>(updated.size()));
    for (const auto& [pos, d] : updated) w.Field(pos, BytesOf(d), d.external);
  }
  if (indexed) {
    w.BeginIndexed();
    for (const auto& [pos, d] : *indexed) w.Field(pos, BytesOf(d), d.external);
    w.EndIndexed();
  }
  return std::move(w).Finish(start);
}

Result<UndoRecord> UndoRecord::Decode(ConstBytes page, std::size_t start, std::size_t n_key) {
  auto h = UndoRecordHeader::Decode(page, start);
  if (!h.ok()) return h.status();
  UndoRecord r;
  r.type = h->type();
  r.undo_no = h->undo_no;
  r.table_id = h->table_id;
  if (h->info_bits) {
    r.info_bits = *h->info_bits;
    r.old_trx_id = *h->old_trx_id;
    r.old_roll_ptr = h->old_roll_ptr->Encode();
  }
  auto body = DecodeUndoRecordBody(page, *h, n_key);
  if (!body.ok()) return body.status();
  for (const UndoValue& v : body->key) r.key.push_back(ToDatum(page, v));
  r.updated = ToDatums(page, body->updated);
  if (body->indexed) r.indexed = ToDatums(page, *body->indexed);
  return r;
}

}  // namespace strata::engine
