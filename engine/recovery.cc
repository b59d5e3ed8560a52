#include "engine/recovery.h"

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <set>

#include "ondisk/fil_header.h"
#include "ondisk/redo_record.h"

namespace strata::engine {

using namespace strata::ondisk;

Result<RecoveryStats> ApplyRedo(BufferPool& pool, const std::vector<RedoGroup>& groups) {
  RecoveryStats st;
  std::set<std::uint64_t> touched;
  const std::size_t page_size = pool.options().page_size.bytes();
  for (const auto& g : groups) {
    ++st.groups;
    std::map<std::uint64_t, bool> apply;  // per page of this group: is the page older?
    ConstBytes recs(g.records);
    for (std::size_t at = 0, next = 0; at < recs.size(); at = next) {
      auto r = ParseRedoRecord(recs, at, page_size, &next);
      if (!r.ok()) return r.status();
      if (!r->has_value()) return Status::Corruption("recovery: a complete group ends inside a record");
      const RedoRecord& rec = **r;
      ++st.records;
      if (rec.type == RedoType::kMtrEnd) continue;
      Tablespace* ts = pool.space(SpaceId(rec.space));
      if (!ts) {
        ++st.skipped;
        continue;
      }
      if (rec.type == RedoType::kExtend) {
        STRATA_RETURN_IF_ERROR(ts->Extend(rec.page));
        continue;
      }
      const PageId id{SpaceId(rec.space), PageNo(rec.page)};
      if (rec.page >= ts->size()) STRATA_RETURN_IF_ERROR(ts->Extend(rec.page + 1));
      auto decided = apply.find(id.key());
      if (decided == apply.end()) {
        auto page = pool.Read(id);
        bool older;
        if (page.ok()) {
          older = FilHeader(page->page()).lsn().value() < g.end.value();
        } else if (rec.type == RedoType::kInit) {
          older = true;  // unreadable, and this group rebuilds it from nothing
        } else {
          return page.status().WithContext(fmt::format("recovery of the group ending at LSN {}", g.end.value()));
        }
        decided = apply.emplace(id.key(), older).first;
      }
      if (!decided->second) {
        ++st.skipped;
        continue;
      }
      auto guard = rec.type == RedoType::kInit ? pool.Create(id) : pool.Write(id);
      if (!guard.ok()) return guard.status();
      if (rec.type == RedoType::kWrite) std::memcpy(guard->page().data() + rec.offset, rec.bytes.data(), rec.bytes.size());
      guard->set_lsn(g.end, g.start);
      ++st.applied;
      touched.insert(id.key());
    }
  }
  st.pages = touched.size();
  return st;
}

}  // namespace strata::engine
