#include "engine/undo_record.h"

#include "ondisk/mach.h"
#include "ondisk/undo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

void PutField(std::vector<std::byte>& out, const Datum& d) {
  if (d.null) {
    WriteCompressed32(out, kUndoSqlNull);
    return;
  }
  const auto n = static_cast<std::uint32_t>(d.bytes.size());
  WriteCompressed32(out, d.external ? kUndoExternStorage + n : n);
  const auto* b = reinterpret_cast<const std::byte*>(d.bytes.data());
  out.insert(out.end(), b, b + d.bytes.size());
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
  std::vector<std::byte> out = h.Encode();
  for (const auto& d : key) PutField(out, d);
  if (type == UndoRecordType::kUpdateExisting || type == UndoRecordType::kUpdateDeleted) {
    WriteCompressed32(out, static_cast<std::uint32_t>(updated.size()));
    for (const auto& [pos, d] : updated) {
      WriteCompressed32(out, pos);
      PutField(out, d);
    }
  }
  if (indexed) {
    const std::size_t at = out.size();
    out.resize(out.size() + 2);
    for (const auto& [pos, d] : *indexed) {
      WriteCompressed32(out, pos);
      PutField(out, d);
    }
    Store16(out, at, static_cast<std::uint16_t>(out.size() - at));
  }
  const std::size_t end = start + out.size() + UndoRecordHeader::kStartBefore;
  Store16(out, UndoRecordHeader::kNext, static_cast<std::uint16_t>(end));
  out.resize(out.size() + UndoRecordHeader::kStartBefore);
  Store16(out, out.size() - UndoRecordHeader::kStartBefore, start);
  return out;
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
