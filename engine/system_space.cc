#include "engine/system_space.h"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "engine/btr_page.h"
#include "engine/header_check.h"
#include "engine/mtr.h"
#include "engine/space_manager.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/strata_catalog.h"
#include "ondisk/undo.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

constexpr std::uint64_t kIbufIndexId = 0xFFFFFFFF00000000ull;  // DICT_IBUF_ID_MIN + space 0

}  // namespace

Status CreateSystemSpace(BufferPool& pool, Tablespace& space) {
  Mtr mtr(pool);
  MtrPageStore store(mtr, space);
  SpaceManager sm(store);
  STRATA_RETURN_IF_ERROR(sm.Init(FspFlags::EncodeMySql(space.page_size(), true, true, false)));
  // Pages 3..7 in InnoDB's order, each segment's first pages taken as fragment pages.
  auto take = [&](const FsegHeader& seg, PageNo want, PageType type) -> Result<MutableBytes> {
    auto n = sm.AllocatePage(seg);
    if (!n.ok()) return n.status();
    if (*n != want)
      return Status::Corruption(fmt::format("system tablespace: got page {} for page {}", n->value(), want.value()));
    auto page = mtr.Create({space.id(), *n});
    if (!page.ok()) return page.status();
    FilHeaderWriter(*page).set_type(type);
    return page;
  };
  auto ibuf = sm.CreateSegment();
  if (!ibuf.ok()) return ibuf.status();
  auto ibuf_header = take(*ibuf, PageNo(3), PageType::kSys);
  if (!ibuf_header.ok()) return ibuf_header.status();
  ibuf->EncodeTo(*ibuf_header, kFilHeaderSize);
  auto ibuf_root = take(*ibuf, PageNo(4), PageType::kIndex);
  if (!ibuf_root.ok()) return ibuf_root.status();
  BtrPage::Init(*ibuf_root, kIbufIndexId, 0, PageType::kIndex);

  auto trx_seg = sm.CreateSegment();
  if (!trx_seg.ok()) return trx_seg.status();
  auto trx = take(*trx_seg, PageNo(5), PageType::kTrxSys);
  if (!trx.ok()) return trx.status();
  TrxSysPageWriter tw(*trx);
  tw.set_fseg(*trx_seg);
  auto rseg_seg = sm.CreateSegment();
  if (!rseg_seg.ok()) return rseg_seg.status();
  auto rseg = take(*rseg_seg, PageNo(6), PageType::kSys);
  if (!rseg.ok()) return rseg.status();
  RsegHeaderWriter(*rseg).Init(0xFFFFFFFE, *rseg_seg);
  for (std::uint32_t i = 0; i < kTrxSysRsegSlots; ++i) {
    tw.set_rseg_slot(i, i == 0 ? RsegSlot{SpaceId(0), PageNo(6)} : RsegSlot{SpaceId(kFilNull), kNullPage});
  }

  auto dict_seg = sm.CreateSegment();
  if (!dict_seg.ok()) return dict_seg.status();
  auto dict = take(*dict_seg, kDictHeaderPage, PageType::kSys);
  if (!dict.ok()) return dict.status();
  dict_seg->EncodeTo(*dict, DictHeader::kFseg);
  mtr.Commit();
  return WriteCatalog(pool, space, {});
}

Status CheckSystemSpaceHeaders(BufferPool& pool, const Tablespace& space) {
  const std::uint32_t flags = FspFlags::EncodeMySql(space.page_size(), true, true, false);
  struct Expect {
    PageNo page;
    PageType type;
    const char* what;
  };
  for (const Expect& e : {Expect{PageNo(0), PageType::kFspHdr, "the system tablespace header"},
                          Expect{PageNo(2), PageType::kInode, "the segment inode page"},
                          Expect{PageNo(5), PageType::kTrxSys, "the transaction system header (TRX_SYS)"},
                          Expect{PageNo(6), PageType::kSys, "the rollback segment header"},
                          Expect{kDictHeaderPage, PageType::kSys, "the catalog"}}) {
    STRATA_RETURN_IF_ERROR(CheckHeaderPage(pool, space, e.page, e.type, e.what, flags));
  }
  return Status::Ok();
}

Status WriteCatalog(BufferPool& pool, Tablespace& space, const Catalog& c) {
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& t : c.tables)
    tables.push_back({{"database", t.database}, {"name", t.name}, {"space_id", t.space_id}});
  nlohmann::json ddl_log = nlohmann::json::array();
  for (const auto& e : c.ddl_log) {
    if (e.kind == DdlLogEntry::Kind::kMoveBack)
      ddl_log.push_back({{"move_back", e.path}, {"to", e.back}});
    else
      ddl_log.push_back({{e.kind == DdlLogEntry::Kind::kRemoveDir ? "remove_dir" : "remove", e.path}});
  }
  nlohmann::json doc{{"databases", c.databases}, {"tables", tables}};
  if (!c.ddl_log.empty()) doc["ddl_log"] = ddl_log;
  Mtr mtr(pool);
  auto page = mtr.Write({space.id(), kDictHeaderPage});
  if (!page.ok()) return page.status();
  const Status s = EncodeCatalogPage({c.next_table_id, c.next_index_id, c.next_space_id, doc.dump()}, *page);
  if (!s.ok()) return s.WithContext(fmt::format("{} tables", c.tables.size()));
  return Status::Ok();
}

Result<Catalog> ReadCatalog(BufferPool& pool, Tablespace& space) {
  auto g = pool.Read({space.id(), kDictHeaderPage});
  if (!g.ok()) return g.status();
  const std::string where = fmt::format("{}: page {}", space.path().string(), kDictHeaderPage.value());
  auto page = DecodeCatalogPage(g->page(), where);
  if (!page.ok()) return page.status();
  Catalog c;
  c.next_table_id = page->next_table_id;
  c.next_index_id = page->next_index_id;
  c.next_space_id = page->next_space_id;
  try {
    auto j = nlohmann::json::parse(page->json);
    c.databases = j.at("databases").get<std::vector<std::string>>();
    for (const auto& t : j.at("tables")) {
      c.tables.push_back({t.at("database").get<std::string>(), t.at("name").get<std::string>(),
                          t.at("space_id").get<std::uint32_t>()});
    }
    // Only names this engine writes: a database folder or db/table.ibd, never a way out.
    const auto inside = [](const std::string& path) {
      const std::filesystem::path rel(path);
      bool ok = !path.empty() && rel.is_relative();
      for (const auto& part : rel) ok = ok && part != ".." && part != ".";
      return ok;
    };
    for (const auto& e : j.value("ddl_log", nlohmann::json::array())) {
      DdlLogEntry entry;
      if (e.contains("move_back")) {
        entry = {DdlLogEntry::Kind::kMoveBack, e["move_back"].get<std::string>(), e.at("to").get<std::string>()};
      } else {
        const bool dir = e.contains("remove_dir");
        entry = {dir ? DdlLogEntry::Kind::kRemoveDir : DdlLogEntry::Kind::kRemoveFile,
                 e.at(dir ? "remove_dir" : "remove").get<std::string>(),
                 {}};
      }
      for (const std::string* path : {&entry.path, &entry.back}) {
        if (!inside(*path) && (path == &entry.path || entry.kind == DdlLogEntry::Kind::kMoveBack))
          return Status::Corruption(where + ": catalog DDL log names '" + *path + "'");
      }
      c.ddl_log.push_back(std::move(entry));
    }
  } catch (const std::exception& e) {
    return Status::Corruption(where + ": catalog JSON: " + e.what());
  }
  return c;
}

}  // namespace strata::engine
