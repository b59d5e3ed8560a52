#include "engine/mtr.h"

#include <cstring>
#include <shared_mutex>

#include "engine/redo_log.h"
#include "engine/sync_point.h"
#include "ondisk/fil_header.h"
#include "ondisk/redo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

// Byte ranges that differ, merged across gaps shorter than a record's own overhead. Equal
// stretches are skipped a word at a time: most of a page is unchanged by one mini-transaction.
void AppendDiff(std::vector<std::byte>& out, PageId id, ConstBytes before, ConstBytes after) {
  constexpr std::size_t kMergeGap = 8;
  static const std::vector<std::byte> kZeros(ondisk::kMaxPageSize);
  const std::byte* a = before.empty() ? kZeros.data() : before.data();  // a created page starts as zeros
  const std::byte* b = after.data();
  const std::size_t n = after.size();
  auto word = [](const std::byte* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  // Four words at a time first (the compiler turns this into vector compares).
  auto block_equal = [&](std::size_t i) {
    return ((word(a + i) ^ word(b + i)) | (word(a + i + 8) ^ word(b + i + 8)) | (word(a + i + 16) ^ word(b + i + 16)) |
            (word(a + i + 24) ^ word(b + i + 24))) == 0;
  };
  std::size_t i = 0;
  for (;;) {
    while (i + 32 <= n && block_equal(i)) i += 32;
    while (i + 8 <= n && word(a + i) == word(b + i)) i += 8;
    while (i < n && a[i] == b[i]) ++i;
    if (i >= n) return;
    std::size_t end = i + 1, j = end;
    while (j < n) {
      if (a[j] != b[j]) {
        end = ++j;
        continue;
      }
      std::size_t k = j;
      while (k < n && k - j < kMergeGap && a[k] == b[k]) ++k;
      if (k - j >= kMergeGap || k == n) break;
      j = k;
    }
    AppendRedoWrite(out, id.space.value(), id.page.value(), static_cast<std::uint16_t>(i), after.subspan(i, end - i));
    i = end;
  }
}

}  // namespace

Mtr::Page* Mtr::Find(PageId id) {
  for (auto& p : pages_) {
    if (p.guard.id().key() == id.key()) return &p;
  }
  return nullptr;
}

const std::byte* Mtr::Held(PageId id) {
  Page* p = Find(id);
  return p ? p->guard.page().data() : nullptr;
}

Result<MutableBytes> Mtr::Write(PageId id) {
  if (Page* p = Find(id)) return p->guard.page();
  auto g = pool_.Write(id);
  if (!g.ok()) return g.status();
  Page p{std::move(*g), false, {}};
  if (pool_.redo() && pool_.redo_enabled()) p.before.assign(p.guard.page().begin(), p.guard.page().end());
  pages_.push_back(std::move(p));
  return pages_.back().guard.page();
}

Result<MutableBytes> Mtr::Create(PageId id) {
  if (Page* p = Find(id)) {
    MutableBytes page = p->guard.page();
    InitPageImage(page, id);
    p->created = true;
    p->before.clear();
    return page;
  }
  auto g = pool_.Create(id);
  if (!g.ok()) return g.status();
  pages_.push_back({std::move(*g), true, {}});
  return pages_.back().guard.page();
}

void Mtr::Commit() {
  if (pages_.empty()) {
    extends_.clear();
    return;
  }
  RedoLog* log = pool_.redo();
  if (!log) {
    const Lsn lsn = pool_.NextLsn();
    for (auto& p : pages_) p.guard.set_lsn(lsn);
    pages_.clear();
    extends_.clear();
    return;
  }
  // No checkpoint may be computed between the append and the pages turning dirty.
  std::shared_lock gate(log->commit_gate());
  std::pair<Lsn, Lsn> range;
  if (pool_.redo_enabled()) {
    thread_local std::vector<std::byte> records;
    records.clear();
    for (const auto& e : extends_) AppendRedoExtend(records, e.space.value(), e.pages);
    for (auto& p : pages_) {
      const std::size_t before = records.size();
      if (p.created) AppendRedoInit(records, p.guard.id().space.value(), p.guard.id().page.value());
      // The FIL LSN and checksum fields are set when the page is stamped and flushed; the
      // diff covers everything else.
      AppendDiff(records, p.guard.id(), p.before, p.guard.page());
      if (records.size() == before) p.guard.set_unchanged();
    }
    if (records.empty()) {
      pages_.clear();
      extends_.clear();
      return;
    }
    AppendRedoMtrEnd(records);
    range = log->Append(records);
  } else {
    range = log->Advance(1);
  }
  for (auto& p : pages_) p.guard.set_lsn(range.second, range.first);
  pages_.clear();
  extends_.clear();
  gate.unlock();
  sync_point::Hit("mtr.committed");
}

}  // namespace strata::engine
