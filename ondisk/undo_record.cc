#include "ondisk/undo_record.h"

#include "ondisk/endian.h"
#include "ondisk/mach.h"
#include "ondisk/record.h"

namespace strata::ondisk {

namespace {

constexpr std::uint32_t kSpatialStatusMask = 0x3000;  // SPATIAL_STATUS_MASK
constexpr std::uint8_t kVirtualFormat1 = 0xF1;        // VIRTUAL_COL_UNDO_FORMAT_1
constexpr std::uint8_t kMultiValue = 0xFF;            // MySQL 8.0 multi-valued column

// Reads what follows `at` inside `rec` (the record without its trailing own-offset).
class BodyReader {
 public:
  BodyReader(ConstBytes rec, std::size_t at) : rec_(rec), at_(at) {}
  std::size_t at() const { return at_; }

  Result<std::uint32_t> Number() {
    auto n = ReadCompressed32(rec_, at_);
    if (!n.ok()) return n.status();
    at_ += n->size;
    return static_cast<std::uint32_t>(n->value);
  }

  Status Skip(std::size_t n, const char* what) {
    if (n > rec_.size() - at_)
      return Status::CorruptionAt(at_, std::string("undo record: ") + what + " runs past the record");
    at_ += n;
    return Status::Ok();
  }

  Result<UndoValue> Value() {
    auto len = Number();
    if (!len.ok()) return len.status();
    UndoValue v;
    if (*len == kUndoSqlNull) {
      v.is_null = true;
      return v;
    }
    if (*len == kUndoExternStorage) {
      // A longer prefix an index needs: the record's local length, then the usual form.
      auto local = Number();
      if (!local.ok()) return local.status();
      len = Number();
      if (!len.ok()) return len.status();
      if (*len <= kUndoExternStorage || *len == kUndoSqlNull || *local < kExternRefSize) {
        return Status::CorruptionAt(at_, "undo record: an off-page value's longer prefix is not stored as one");
      }
      v.local_prefix = *local - kExternRefSize;
    }
    std::uint32_t size = *len;
    if (size > kUndoExternStorage) {
      v.external = true;
      size = (size - kUndoExternStorage) & ~kSpatialStatusMask;
      if (size < kExternRefSize || (v.local_prefix && *v.local_prefix > size - kExternRefSize)) {
        return Status::CorruptionAt(at_, "undo record: an off-page value without its reference");
      }
    }
    v.offset = at_;
    v.length = size;
    STRATA_RETURN_IF_ERROR(Skip(size, "a value"));
    return v;
  }

  // A virtual column's value: multi-valued ones have a form of their own.
  Status SkipVirtualValue() {
    if (at_ < rec_.size() && Load8(rec_, at_) == kMultiValue) {
      if (at_ + 3 > rec_.size())
        return Status::CorruptionAt(at_, "undo record: a multi-valued column's value is cut short");
      const std::uint16_t t = Load16(rec_, at_ + 1);
      return Skip(t < 2 ? 3 : 1 + std::size_t{t}, "a multi-valued column's value");
    }
    return Value().status();
  }

  // The indexes a virtual column is in: 0xF1 before a section's first (none: MySQL 5.7.8's
  // format, without the block), then a block whose length counts itself.
  Status SkipVirtualIndexes(bool& format1, bool first) {
    if (first) {
      format1 = at_ < rec_.size() && Load8(rec_, at_) == kVirtualFormat1;
      if (format1) ++at_;
    }
    if (!format1) return Status::Ok();
    if (at_ + 2 > rec_.size())
      return Status::CorruptionAt(at_, "undo record: a virtual column's index list is cut short");
    const std::uint16_t n = Load16(rec_, at_);
    if (n < 2)
      return Status::CorruptionAt(at_, "undo record: a virtual column's index list has length " + std::to_string(n));
    return Skip(n, "a virtual column's index list");
  }

  // MySQL 8.0's account of in-place LOB changes, after an off-page value: skipped; whether
  // there were any is noted in `v`.
  Status SkipLobChanges(UndoValue& v) {
    STRATA_RETURN_IF_ERROR(Skip(1, "a LOB change flag"));
    auto n = Number();
    if (!n.ok()) return n.status();
    if (*n == 0) return Status::Ok();
    v.lob_changed_in_place = true;
    for (int i = 0; i < 4; ++i) {  // first page, LOB version, last trx id, last undo number
      if (auto x = Number(); !x.ok()) return x.status();
    }
    for (std::uint32_t i = 0; i < *n; ++i) {
      if (auto offset = Number(); !offset.ok()) return offset.status();
      auto length = Number();
      if (!length.ok()) return length.status();
      STRATA_RETURN_IF_ERROR(Skip(*length, "a LOB change"));
      auto entries = Number();
      if (!entries.ok()) return entries.status();
      for (std::uint32_t e = 0; e < 2 * *entries; ++e) {
        if (auto x = Number(); !x.ok()) return x.status();
      }
    }
    return Status::Ok();
  }

 private:
  ConstBytes rec_;
  std::size_t at_;
};

}  // namespace

std::string UndoValue::RecordBytes(ConstBytes page) const {
  const ConstBytes b = bytes(page);
  auto text = [](ConstBytes x) { return std::string(reinterpret_cast<const char*>(x.data()), x.size()); };
  if (!local_prefix) return text(b);
  return text(b.first(*local_prefix)) + text(b.last(kExternRefSize));
}

Result<UndoRecordBody> DecodeUndoRecordBody(ConstBytes page, const UndoRecordHeader& h, std::size_t n_key) {
  const std::size_t end = h.next - 2;
  BodyReader r(page.first(end), h.body);
  UndoRecordBody body;
  for (std::size_t i = 0; i < n_key; ++i) {
    auto v = r.Value();
    if (!v.ok()) return v.status();
    body.key.push_back(*v);
  }
  const UndoRecordType type = h.type();
  if (type == UndoRecordType::kUpdateExisting || type == UndoRecordType::kUpdateDeleted) {
    auto n = r.Number();
    if (!n.ok()) return n.status();
    if (*n > end - r.at())
      return Status::CorruptionAt(r.at(), "undo record: " + std::to_string(*n) + " updated fields cannot fit");
    bool format1 = false, first_virtual = true;
    for (std::uint32_t i = 0; i < *n; ++i) {
      auto pos = r.Number();
      if (!pos.ok()) return pos.status();
      if (*pos >= kRecMaxNFields) {
        STRATA_RETURN_IF_ERROR(r.SkipVirtualIndexes(format1, first_virtual));
        first_virtual = false;
        STRATA_RETURN_IF_ERROR(r.SkipVirtualValue());  // the old value
        STRATA_RETURN_IF_ERROR(r.SkipVirtualValue());  // the new value
        body.updated.push_back({*pos, {}});
        continue;
      }
      auto v = r.Value();
      if (!v.ok()) return v.status();
      if (v->external && h.has_flag_byte() && h.update_extern()) STRATA_RETURN_IF_ERROR(r.SkipLobChanges(*v));
      body.updated.push_back({*pos, *v});
    }
  }
  if (r.at() < end && type != UndoRecordType::kInsert) {
    if (r.at() + 2 > end) return Status::CorruptionAt(r.at(), "undo record's indexed-column section is cut short");
    const std::size_t stop = r.at() + Load16(page, r.at());
    if (stop > end || stop < r.at() + 2)
      return Status::CorruptionAt(r.at(), "undo record's indexed-column length is impossible");
    BodyReader ix(page.first(stop), r.at() + 2);
    body.indexed.emplace();
    bool format1 = false, first_virtual = true;
    while (ix.at() < stop) {
      auto pos = ix.Number();
      if (!pos.ok()) return pos.status();
      if (*pos >= kRecMaxNFields) {
        STRATA_RETURN_IF_ERROR(ix.SkipVirtualIndexes(format1, first_virtual));
        first_virtual = false;
        STRATA_RETURN_IF_ERROR(ix.SkipVirtualValue());
        body.indexed->push_back({*pos, {}});
        continue;
      }
      auto v = ix.Value();
      if (!v.ok()) return v.status();
      body.indexed->push_back({*pos, *v});
    }
  }
  return body;
}

void UndoRecordWriter::Value(const std::optional<std::string_view>& bytes, bool external) {
  if (!bytes) {
    WriteCompressed32(out_, kUndoSqlNull);
    return;
  }
  const auto n = static_cast<std::uint32_t>(bytes->size());
  WriteCompressed32(out_, external ? kUndoExternStorage + n : n);
  const auto* b = reinterpret_cast<const std::byte*>(bytes->data());
  out_.insert(out_.end(), b, b + bytes->size());
}

void UndoRecordWriter::UpdateCount(std::uint32_t n) { WriteCompressed32(out_, n); }

void UndoRecordWriter::Field(std::uint32_t position, const std::optional<std::string_view>& bytes, bool external) {
  WriteCompressed32(out_, position);
  Value(bytes, external);
}

void UndoRecordWriter::BeginIndexed() {
  indexed_at_ = out_.size();
  out_.resize(out_.size() + 2);  // the section's length, counting itself
}

void UndoRecordWriter::EndIndexed() {
  Store16(out_, indexed_at_, static_cast<std::uint16_t>(out_.size() - indexed_at_));
}

std::vector<std::byte> UndoRecordWriter::Finish(std::uint16_t start) && {
  const std::size_t end = start + out_.size() + UndoRecordHeader::kStartBefore;
  Store16(out_, UndoRecordHeader::kNext, static_cast<std::uint16_t>(end));
  out_.resize(out_.size() + UndoRecordHeader::kStartBefore);
  Store16(out_, out_.size() - UndoRecordHeader::kStartBefore, start);
  return std::move(out_);
}

}  // namespace strata::ondisk
