// BulkLoad: rows in primary key order into an empty table, the indexes built bottom-up.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/db.h"
#include "engine/table_impl.h"

namespace strata::engine {

// An encoded record in a buffer of records (extra bytes, then data).
struct EncodedRef {
  std::uint32_t offset = 0, size = 0, extra_size = 0;
};

// Records encoded one after another in one buffer: a statement's thousands of records cost
// one allocation, made and later freed by whichever thread holds the buffer.
struct RecordBuffer {
  std::vector<std::byte> bytes;
  EncodedRef Append(const ondisk::RecordLayout& layout, const Tuple& record) {
    const auto offset = static_cast<std::uint32_t>(bytes.size());
    const std::size_t extra = AppendTuple(layout, record, bytes);
    return {offset, static_cast<std::uint32_t>(bytes.size() - offset), static_cast<std::uint32_t>(extra)};
  }
  ondisk::ConstBytes View(const EncodedRef& r) const { return ondisk::ConstBytes(bytes).subspan(r.offset, r.size); }
};

// A secondary index entry, as sorted: the first 8 bytes of its normalised key (memcmp order
// = index order) as a number, so most comparisons touch nothing else; where the whole key is;
// and where its record is. Keys and records live in their statement's buffers.
struct SortableEntry {
  std::uint64_t prefix = 0;
  std::uint32_t buffer = 0;  // statement
  std::uint32_t key_offset = 0, key_size = 0;
  EncodedRef record;
};

// One statement's entries of one secondary index; `buffer` in its entries is set when all
// statements' entries are gathered for sorting.
struct SecondaryBatch {
  std::string keys;  // normalised keys, one after another
  RecordBuffer records;
  std::vector<SortableEntry> entries;
};

struct BulkLoad::Prepared {
  RecordBuffer clustered_bytes;
  std::vector<EncodedRef> clustered;  // in key order
  Tuple first_key, last_key;
  std::vector<SecondaryBatch> secondary;  // per secondary index
  std::uint64_t max_autoinc = 0;
};

struct BulkLoad::State {
  TableImpl* t = nullptr;
  std::optional<Btree::BulkBuilder> clustered;
  std::vector<std::vector<SecondaryBatch>> secondary;  // per secondary index, per statement
  std::optional<Tuple> last_key;
  std::uint64_t rows = 0;
  bool finished = false;
};

BulkLoad::BulkLoad(std::unique_ptr<State> state) : s_(std::move(state)) {}
BulkLoad::~BulkLoad() { (void)Finish(); }
std::uint64_t BulkLoad::rows() const { return s_->rows; }

Result<std::unique_ptr<BulkLoad>> Table::BeginBulkLoad() { return BulkLoad::Begin(*impl_); }
void BulkLoad::PreparedDeleter::operator()(Prepared* p) const { delete p; }

Result<BulkLoad::PreparedRows> Table::PrepareBulkRows(const std::vector<Row>& rows, InsertOptions options) {
  return BulkLoad::Prepare(*impl_, rows, options);
}

Result<std::unique_ptr<BulkLoad>> BulkLoad::Begin(TableImpl& table) {
  TableImpl::BulkAccess t(table);
  std::unique_lock lock(t.mu());
  STRATA_RETURN_IF_ERROR(t.CheckWritable());
  if (t.spec().primary_key.empty()) return Status::NotSupported("bulk load needs a primary key");
  for (const IndexSpec& ix : t.spec().indexes) {
    if (ix.unique) return Status::NotSupported(fmt::format("bulk load into a table with unique key '{}'", ix.name));
  }
  bool empty = true;
  STRATA_RETURN_IF_ERROR(t.tree(0).Scan({}, true, [&](const Tuple&) {
    empty = false;
    return false;
  }));
  if (!empty) return Status::NotSupported("bulk load into a table that has rows");
  auto state = std::make_unique<BulkLoad::State>();
  state->t = &table;
  state->clustered.emplace(t.tree(0));
  state->secondary.resize(t.n_trees() - 1);
  return std::unique_ptr<BulkLoad>(new BulkLoad(std::move(state)));
}

namespace {

int CompareKeys(const Tuple& a, const Tuple& b, const std::vector<CompareKind>& kinds) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const int c = CompareField(kinds[i], a[i].null, a[i].span(), b[i].null, b[i].span());
    if (c) return c;
  }
  return 0;
}

// A byte string whose memcmp order is the entries' index order, so that sorting a million
// entries compares bytes instead of decoding fields. Each field: 0x00 for NULL, else 0x01 and
// its bytes normalised as the collation compares them (PAD SPACE: trailing spaces dropped;
// _ci: the collation's weights; floats: sign-flipped big-endian), with 0x00 escaped as 0x00 0xFF
// and a 0x00 0x00 terminator so that a shorter value sorts first. False when a padded
// string ends in a byte below the space, where dropping spaces would change the order.
// Appends to `out`.
bool NormalizedKey(const Tuple& t, const std::vector<CompareKind>& kinds, std::string* out) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].null) {
      out->push_back('\0');
      continue;
    }
    out->push_back('\1');
    std::string_view b = t[i].bytes;
    std::string folded;
    switch (kinds[i]) {
      case CompareKind::kFloat:
      case CompareKind::kDouble: {
        std::uint64_t bits = 0;
        const std::size_t n = kinds[i] == CompareKind::kFloat ? 4 : 8;
        for (std::size_t k = 0; k < n && k < b.size(); ++k)
          bits |= std::uint64_t(static_cast<unsigned char>(b[k])) << (8 * k);
        const std::uint64_t sign = std::uint64_t{1} << (8 * n - 1);
        bits = (bits & sign) ? ~bits & (n == 8 ? ~std::uint64_t{0} : 0xFFFFFFFFull) : bits | sign;
        for (std::size_t k = n; k-- > 0;) out->push_back(static_cast<char>((bits >> (8 * k)) & 0xFF));
        continue;
      }
      case CompareKind::kPadSpace: {
        while (!b.empty() && b.back() == ' ') b.remove_suffix(1);
        for (char c : b) {
          if (static_cast<unsigned char>(c) < 0x20) return false;
        }
        break;
      }
      case CompareKind::kGeneralCi:
      case CompareKind::kLatin1SwedishCi:
      case CompareKind::kUca400:
      case CompareKind::kUca400NoPad:
      case CompareKind::kUca520:
      case CompareKind::kUca520NoPad:
      case CompareKind::kUca1400:
      case CompareKind::kUca1400NoPad: {
        // The collation's weights, big-endian, trailing spaces' dropped under PAD SPACE.
        const TextRule rule = TextRuleOf(kinds[i]);
        std::vector<std::uint32_t> weights = TextWeights(rule, b);
        const std::uint32_t space = SpaceWeight(rule);
        if (PadsSpace(rule)) {
          while (!weights.empty() && weights.back() == space) weights.pop_back();
          for (std::uint32_t w : weights) {
            if (w < space) return false;
          }
        }
        folded.clear();
        for (std::uint32_t w : weights) {
          for (int shift = 24; shift >= 0; shift -= 8) folded.push_back(static_cast<char>((w >> shift) & 0xFF));
        }
        b = folded;
        break;
      }
      case CompareKind::kBinary:
        break;
    }
    for (char c : b) {
      out->push_back(c);
      if (c == '\0') out->push_back('\xff');
    }
    out->push_back('\0');
    out->push_back('\0');
  }
  return true;
}

std::uint64_t KeyPrefix(std::string_view key) {
  std::uint64_t p = 0;
  for (std::size_t i = 0; i < 8; ++i) p = p << 8 | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0);
  return p;
}

bool EntryLess(const SortableEntry& a, const SortableEntry& b, const std::vector<SecondaryBatch>& buffers) {
  if (a.prefix != b.prefix) return a.prefix < b.prefix;
  const std::string_view x = std::string_view(buffers[a.buffer].keys).substr(a.key_offset, a.key_size);
  const std::string_view y = std::string_view(buffers[b.buffer].keys).substr(b.key_offset, b.key_size);
  return x < y;
}

// Room for `n` records the size of the first one already in `buffer`, and an eighth more:
// buffers of a statement's records grow once, not by doubling.
template <typename Buffer>
void ReserveLike(Buffer& buffer, std::size_t n) {
  buffer.reserve(buffer.size() * n + buffer.size() * n / 8);
}

bool NeedsAutoinc(const TableSpec& spec, const Row& row, InsertOptions options) {
  for (std::size_t c = 0; c < spec.columns.size(); ++c) {
    if (!spec.columns[c].auto_increment) continue;
    const Value& v = row[c];
    if (v.is_null() || (options.zero_generates_auto_increment &&
                        ((v.is_int() && v.as_int() == 0) || (v.is_uint() && v.as_uint() == 0)))) {
      return true;
    }
  }
  return false;
}

}  // namespace

// Touches only the table's definition and shapes, which do not change while it is loaded.
Result<BulkLoad::PreparedRows> BulkLoad::Prepare(TableImpl& table, const std::vector<Row>& rows,
                                                 InsertOptions options) {
  TableImpl::BulkAccess t(table);
  const TableSpec& spec = t.spec();
  const auto& kinds = t.records().shape(0).compare;
  const std::size_t limit = BtrPage::FreeSpaceOfEmpty(t.page_size()) / 2;
  PreparedRows p(new Prepared());
  p->clustered.reserve(rows.size());
  p->secondary.resize(t.n_trees() - 1);
  for (auto& s : p->secondary) s.entries.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    if (row.size() != spec.columns.size()) {
      return Status::InvalidArgument(fmt::format("Column count doesn't match value count: {} columns, {} values",
                                                 spec.columns.size(), row.size()));
    }
    if (NeedsAutoinc(spec, row, options)) return Status::NotSupported("an AUTO_INCREMENT value to assign");
    auto record = t.records().ClusteredRecord(row, 0);
    if (!record.ok())
      return rows.size() > 1 ? record.status().WithContext(fmt::format("row {} of the batch", i + 1)) : record.status();
    if (EncodedSize(t.records().shape(0).leaf, *record) > limit)
      return Status::NotSupported("a row with columns to move off-page");
    Tuple key = t.records().KeyOf(*record);
    if (i > 0 && CompareKeys(key, p->last_key, kinds) <= 0) {
      return Status::NotSupported(fmt::format("row {} of the batch is not above the previous primary key", i + 1));
    }
    for (std::size_t c = 0; c < spec.columns.size(); ++c) {
      if (!spec.columns[c].auto_increment) continue;
      const Value& v = row[c];
      p->max_autoinc = std::max<std::uint64_t>(p->max_autoinc, v.is_uint() ? v.as_uint()
                                                               : v.is_int() && v.as_int() > 0
                                                                   ? static_cast<std::uint64_t>(v.as_int())
                                                                   : 0);
    }
    for (std::size_t x = 1; x < t.n_trees(); ++x) {
      Tuple entry = t.records().SecondaryRecord(x, *record);
      SecondaryBatch& into = p->secondary[x - 1];
      const std::size_t key_offset = into.keys.size();
      if (!NormalizedKey(entry, t.records().shape(x).compare, &into.keys))
        return Status::NotSupported("a key that sorts only by comparison");
      const std::string_view key = std::string_view(into.keys).substr(key_offset);
      into.entries.push_back({KeyPrefix(key), 0, static_cast<std::uint32_t>(key_offset),
                              static_cast<std::uint32_t>(key.size()),
                              into.records.Append(t.records().shape(x).leaf, entry)});
      if (i == 0) ReserveLike(into.keys, rows.size()), ReserveLike(into.records.bytes, rows.size());
    }
    p->clustered.push_back(p->clustered_bytes.Append(t.records().shape(0).leaf, *record));
    if (i == 0) ReserveLike(p->clustered_bytes.bytes, rows.size());
    if (i == 0) p->first_key = key;
    p->last_key = std::move(key);
  }
  return p;
}

Status BulkLoad::Add(const std::vector<Row>& rows, InsertOptions options) {
  TableImpl::BulkAccess t(*s_->t);
  std::vector<Row> assigned;
  {
    // AUTO_INCREMENT values are handed out in order, under the lock; the rest is Prepare's.
    std::unique_lock lock(t.mu());
    const std::uint64_t before = t.autoinc();
    assigned = rows;
    for (Row& r : assigned) {
      if (r.size() != t.spec().columns.size()) break;  // Prepare says so
      auto g = t.AssignAutoinc(r, options);
      if (!g.ok()) {
        t.autoinc() = before;
        return g.status();
      }
      if (*g) {
        t.set_last_insert_id(**g);
        t.autoinc() = **g;
      }
    }
    auto p = Prepare(*s_->t, assigned, options);
    if (!p.ok()) {
      t.autoinc() = before;
      return p.status();
    }
    lock.unlock();
    return Add(**p);
  }
}

Status BulkLoad::Add(Prepared& p) {
  State& s = *s_;
  TableImpl::BulkAccess t(*s.t);
  if (s.finished) return Status::InvalidArgument("the bulk load has finished");
  if (p.clustered.empty()) return Status::Ok();
  std::unique_lock lock(t.mu());  // pages and the AUTO_INCREMENT counter are shared
  STRATA_RETURN_IF_ERROR(t.CheckWritable());
  if (s.last_key && CompareKeys(p.first_key, *s.last_key, t.records().shape(0).compare) <= 0) {
    return Status::NotSupported("a row not above the previous primary key");
  }
  STRATA_RETURN_IF_ERROR(t.BeforeWrite());  // room in the log
  t.autoinc() = std::max(t.autoinc(), p.max_autoinc);
  const std::size_t n = p.clustered.size();  // counted before the records are consumed
  for (const EncodedRef& r : p.clustered) {
    STRATA_RETURN_IF_ERROR(t.Guard(s.clustered->Add(p.clustered_bytes.View(r), r.extra_size)));
  }
  for (std::size_t x = 0; x < p.secondary.size(); ++x) s.secondary[x].push_back(std::move(p.secondary[x]));
  s.last_key = std::move(p.last_key);
  s.rows += n;
  t.CountInserted(n);
  return Status::Ok();
}

Status BulkLoad::Finish() {
  State& s = *s_;
  if (s.finished) return Status::Ok();
  s.finished = true;
  TableImpl::BulkAccess t(*s.t);
  std::unique_lock lock(t.mu());
  STRATA_RETURN_IF_ERROR(t.Guard(s.clustered->Finish()));
  for (std::size_t x = 1; x < t.n_trees(); ++x) {
    auto& batches = s.secondary[x - 1];
    std::vector<SortableEntry> entries;
    std::size_t total = 0;
    for (const SecondaryBatch& b : batches) total += b.entries.size();
    entries.reserve(total);
    for (std::size_t b = 0; b < batches.size(); ++b) {
      for (SortableEntry e : batches[b].entries) {
        e.buffer = static_cast<std::uint32_t>(b);
        entries.push_back(e);
      }
      batches[b].entries = {};
    }
    std::sort(entries.begin(), entries.end(),
              [&](const SortableEntry& a, const SortableEntry& b) { return EntryLess(a, b, batches); });
    Btree::BulkBuilder build(t.tree(x));
    for (std::size_t k = 0; k < entries.size(); ++k) {
      if (k % 4096 == 0) STRATA_RETURN_IF_ERROR(t.BeforeWrite());
      const SortableEntry& e = entries[k];
      STRATA_RETURN_IF_ERROR(t.Guard(build.Add(batches[e.buffer].records.View(e.record), e.record.extra_size)));
    }
    STRATA_RETURN_IF_ERROR(t.Guard(build.Finish()));
    batches = {};
  }
  return t.PersistAutoinc();
}

}  // namespace strata::engine
