// `inspect undo` over MySQL 8.0-style undo tablespaces, built with ondisk's encoders (the
// MariaDB data directory in server_truth_test covers the TRX_SYS path with real files).
#include "inspect/undo.h"

#include <gtest/gtest.h>

#include <fstream>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/undo.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

using namespace strata::ondisk;

// An undo tablespace: page 3 is the RSEG_ARRAY listing rollback segment headers on pages
// 4.., whose history lists have the given lengths.
std::filesystem::path WriteUndoTablespace(const std::filesystem::path& dir, const std::string& name,
                                          std::uint32_t space, const std::vector<std::uint32_t>& histories) {
  const std::uint32_t n_pages = 4 + static_cast<std::uint32_t>(histories.size());
  std::vector<std::byte> file(std::size_t{n_pages} * 16384);
  for (std::uint32_t n = 0; n < n_pages; ++n) {
    MutableBytes page(file.data() + std::size_t{n} * 16384, 16384);
    FilHeaderWriter fil(page);
    fil.set_page_no(PageNo(n));
    fil.set_space_id(SpaceId(space));
    fil.set_lsn(Lsn(1000 + n));
    if (n == 0) {
      fil.set_type(PageType::kFspHdr);
      FspHeaderWriter fsp(page);
      fsp.set_space_id(SpaceId(space));
      fsp.set_size(n_pages);
      fsp.set_free_limit(64);
      fsp.set_flags(FspFlags::EncodeMySql(PageSize(), false, false, false));
      for (auto set : {&FspHeaderWriter::set_free, &FspHeaderWriter::set_free_frag, &FspHeaderWriter::set_full_frag,
                       &FspHeaderWriter::set_seg_inodes_full, &FspHeaderWriter::set_seg_inodes_free}) {
        (fsp.*set)(ListBase{});
      }
    } else if (n == 3) {
      fil.set_type(PageType::kRsegArray);
      std::vector<PageNo> rsegs;
      for (std::uint32_t i = 0; i < histories.size(); ++i) rsegs.push_back(PageNo(4 + i));
      WriteRsegArray(page, {SpaceId(space), PageNo(2), 50}, rsegs);
    } else if (n >= 4) {
      fil.set_type(PageType::kSys);
      RsegHeaderWriter r(page);
      r.Init(0xFFFFFFFE, {SpaceId(space), PageNo(2), 242});
      const std::uint32_t len = histories[n - 4];
      const FileAddr node{PageNo(n), 86 + 34};
      r.set_history(len ? ListBase{len, node, node} : ListBase{});
      r.set_history_size(len);
    }
    StampChecksum(page, ChecksumAlgorithm::kCrc32);
  }
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(file.data()), file.size());
  return path;
}

TEST(UndoTest, MySql80UndoTablespacesAreReadThroughTheirRsegArray) {
  testing::TempDir tmp;
  auto u1 = SpaceFile::Open(WriteUndoTablespace(tmp.path(), "undo_001", 0xFFFFFFEF, {3, 0, 5}));
  auto u2 = SpaceFile::Open(WriteUndoTablespace(tmp.path(), "undo_002", 0xFFFFFFEE, {7}));
  ASSERT_TRUE(u1.ok() && u2.ok());
  EXPECT_EQ(u1->kind(), SpaceKind::kUndo);
  UndoReport r = AnalyzeUndo({&*u1, &*u2}, false);
  EXPECT_EQ(r.history_list_length, 15u);
  EXPECT_EQ(r.history_pages, 15u);
  ASSERT_EQ(r.rsegs.size(), 4u);
  EXPECT_EQ(r.rsegs[0].source, "RSEG_ARRAY entry 0");
  // Without ibdata1 the TRX_SYS slots are unknown, and the report says so.
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].what, "no system tablespace");
}

TEST(UndoTest, DamagedRollbackSegmentIsAFindingNotACrash) {
  testing::TempDir tmp;
  auto path = WriteUndoTablespace(tmp.path(), "undo_001", 0xFFFFFFEF, {2});
  // history list's first node: point it into the FIL header
  testing::OverwriteAt(path, 4 * 16384 + 46 + 4, std::string("\0\0\0\4\0\3", 6));
  auto u = SpaceFile::Open(path);
  ASSERT_TRUE(u.ok());
  UndoReport r = AnalyzeUndo({&*u}, true);
  bool named = false;
  for (const auto& f : r.findings) named |= f.page == 4u && f.what == "rollback segment header";
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace strata::inspect
