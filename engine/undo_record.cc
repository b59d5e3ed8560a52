#include "engine/undo_record.h"

#include <cstring>

#include "ondisk/mach.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

constexpr std::uint32_t kSqlNull = 0xFFFFFFFF;                  // UNIV_SQL_NULL
constexpr std::uint32_t kExternStorage = kSqlNull - 16384;      // UNIV_EXTERN_STORAGE_FIELD

void PutField(std::vector<std::byte>& out, const Datum& d) {
  if (d.null) {
    WriteCompressed32(out, kSqlNull);
    return;
  }
  const auto n = static_cast<std::uint32_t>(d.bytes.size());
  WriteCompressed32(out, d.external ? kExternStorage + n : n);
  const auto* b = reinterpret_cast<const std::byte*>(d.bytes.data());
  out.insert(out.end(), b, b + d.bytes.size());
}

// Reads one length-prefixed field of the record ending at `end`.
Result<Datum> GetField(ConstBytes page, std::size_t& at, std::size_t end) {
  auto len = ReadCompressed32(page.first(end), at);
  if (!len.ok()) return len.status();
  at += len->size;
  const auto n = static_cast<std::uint32_t>(len->value);
  if (n == kSqlNull) return Datum::Null();
  Datum d;
  std::uint32_t size = n;
  if (n >= kExternStorage) {
    d.external = true;
    size = n - kExternStorage;
  }
  if (at + size > end) return Status::CorruptionAt(at, "undo record field runs past the record");
  d.bytes.assign(reinterpret_cast<const char*>(page.data() + at), size);
  at += size;
  return d;
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
  const std::size_t end = start + out.size() + 2;
  Store16(out, 0, static_cast<std::uint16_t>(end));
  out.resize(out.size() + 2);
  Store16(out, out.size() - 2, start);
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
  const std::size_t end = h->next - 2;
  std::size_t at = h->body;
  for (std::size_t i = 0; i < n_key; ++i) {
    auto d = GetField(page, at, end);
    if (!d.ok()) return d.status();
    r.key.push_back(std::move(*d));
  }
  if (r.type == UndoRecordType::kUpdateExisting || r.type == UndoRecordType::kUpdateDeleted) {
    auto n = ReadCompressed32(page.first(end), at);
    if (!n.ok()) return n.status();
    at += n->size;
    for (std::uint64_t i = 0; i < n->value; ++i) {
      auto pos = ReadCompressed32(page.first(end), at);
      if (!pos.ok()) return pos.status();
      at += pos->size;
      auto d = GetField(page, at, end);
      if (!d.ok()) return d.status();
      r.updated.emplace_back(static_cast<std::uint32_t>(pos->value), std::move(*d));
    }
  }
  if (at < end) {
    if (at + 2 > end) return Status::CorruptionAt(at, "undo record's indexed-column section is cut short");
    const std::size_t stop = at + Load16(page, at);
    if (stop > end || stop < at + 2) return Status::CorruptionAt(at, "undo record's indexed-column length is impossible");
    at += 2;
    r.indexed.emplace();
    while (at < stop) {
      auto pos = ReadCompressed32(page.first(stop), at);
      if (!pos.ok()) return pos.status();
      at += pos->size;
      auto d = GetField(page, at, stop);
      if (!d.ok()) return d.status();
      r.indexed->emplace_back(static_cast<std::uint32_t>(pos->value), std::move(*d));
    }
  }
  return r;
}

}  // namespace strata::engine
