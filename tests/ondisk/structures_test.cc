// Round trips: every structure ondisk can encode decodes back to what was written.
#include <gtest/gtest.h>

#include <vector>

#include "ondisk/fil_header.h"
#include "ondisk/file_list.h"
#include "ondisk/fsp_header.h"
#include "ondisk/inode.h"
#include "ondisk/lob.h"
#include "ondisk/mach.h"
#include "ondisk/page_type.h"
#include "ondisk/index_page.h"
#include "ondisk/record.h"
#include "ondisk/redo.h"
#include "ondisk/sdi.h"
#include "ondisk/undo.h"
#include "ondisk/value.h"
#include "ondisk/xdes.h"

namespace strata::ondisk {
namespace {

std::vector<std::byte> Page(std::size_t size = 16384) { return std::vector<std::byte>(size); }

TEST(FilHeaderTest, RoundTrip) {
  auto page = Page();
  FilHeaderWriter w(page);
  w.set_page_no(PageNo(12345));
  w.set_prev(PageNo(12344));
  w.set_next(kNullPage);
  w.set_lsn(Lsn(0x0102030405060708));
  w.set_type(PageType::kUndoLog);
  w.set_flush_lsn(99);
  w.set_space_id(SpaceId(7));
  auto h = FilHeader::Open(page);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->page_no(), PageNo(12345));
  EXPECT_EQ(h->prev(), PageNo(12344));
  EXPECT_EQ(h->next(), kNullPage);
  EXPECT_EQ(h->lsn(), Lsn(0x0102030405060708));
  EXPECT_EQ(h->type(), PageType::kUndoLog);
  EXPECT_EQ(h->flush_lsn(), 99u);
  EXPECT_EQ(h->space_id(), SpaceId(7));
  EXPECT_EQ(h->trailer_lsn_low(), 0x05060708u);
}

TEST(PageTypeTest, NamesFollowTheProduct) {
  EXPECT_EQ(ToString(PageType::kIndex), "INDEX");
  EXPECT_EQ(ToString(PageType::kSdiBlobOrInstant, Flavor::kMySql), "SDI_BLOB");
  EXPECT_EQ(ToString(PageType::kSdiBlobOrInstant, Flavor::kMariaDb), "INSTANT");
  EXPECT_EQ(ToString(static_cast<PageType>(0x8000 | 0x20)), "FULL_CRC32_COMPRESSED(8192)");
  EXPECT_EQ(ToString(static_cast<PageType>(1234)), "TYPE(1234)");
  EXPECT_TRUE(IsBtreePage(PageType::kSdiBlobOrInstant, Flavor::kMariaDb));
  EXPECT_FALSE(IsBtreePage(PageType::kSdiBlobOrInstant, Flavor::kMySql));
  for (std::uint16_t code = 0; code < 40; ++code) {
    if (IsKnownPageType(code)) {
      EXPECT_EQ(ToString(static_cast<PageType>(code)).find("TYPE("), std::string::npos);
    }
  }
}

TEST(FspHeaderTest, FlagsRoundTripInBothLayouts) {
  for (std::size_t size : {4096u, 8192u, 16384u, 32768u, 65536u}) {
    auto mysql = FspFlags::Decode(FspFlags::EncodeMySql(PageSize(size), true, true, true));
    ASSERT_TRUE(mysql.ok()) << size;
    EXPECT_EQ(mysql->page_size, size);
    EXPECT_TRUE(mysql->post_antelope && mysql->atomic_blobs && mysql->sdi && !mysql->full_crc32);
    auto maria = FspFlags::Decode(FspFlags::EncodeFullCrc32(PageSize(size), 2));
    ASSERT_TRUE(maria.ok()) << size;
    EXPECT_EQ(maria->page_size, size);
    EXPECT_TRUE(maria->full_crc32);
    EXPECT_EQ(maria->compression_algorithm, 2u);
  }
  EXPECT_EQ(FspFlags::EncodeFullCrc32(PageSize(16384)), 0x15u);
  EXPECT_EQ(FspFlags::EncodeMySql(PageSize(16384), true, true, true), 0x4021u);
  EXPECT_EQ(FspFlags::Decode(0x4021)->ToString(), "0x4021 (POST_ANTELOPE ATOMIC_BLOBS SDI, 16K)");
}

TEST(FspHeaderTest, ImpossibleFlagsAreCorruption) {
  for (std::uint32_t bad : {0x0000'0040u /* ssize 1 */, 0x0000'0020u /* atomic without antelope */,
                            0x0000'0001u /* antelope without atomic */, 0x0000'0161u /* ssize 5 */,
                            0x0000'00EBu /* zip 16K on a 4K page */, 0x0000'8000u /* reserved */, 0x0002'0000u,
                            0x0000'0111u /* fcrc32 bit 8 */, 0x0000'0012u /* fcrc32 ssize 2 */}) {
    auto f = FspFlags::Decode(bad);
    EXPECT_TRUE(f.status().IsCorruption()) << std::hex << bad;
    EXPECT_NE(f.status().message().find("offset 54"), std::string::npos);
  }
}

TEST(FspHeaderTest, RoundTrip) {
  auto page = Page();
  FspHeaderWriter w(page);
  w.set_space_id(SpaceId(27));
  w.set_size(448);
  w.set_free_limit(448);
  w.set_flags(FspFlags::EncodeMySql(PageSize(), true, true, true));
  w.set_frag_n_used(30);
  ListBase frag{1, {PageNo(0), 158}, {PageNo(0), 158}};
  w.set_free_frag(frag);
  w.set_free(ListBase{});  // a zeroed base is not an empty list: the first node would be page 0
  w.set_full_frag(ListBase{});
  w.set_seg_inodes_full(ListBase{});
  w.set_next_segment_id(9);
  w.set_seg_inodes_free({1, {PageNo(2), 38}, {PageNo(2), 38}});
  w.set_sdi(1, PageNo(3));
  auto h = FspHeader::Open(page);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->space_id(), SpaceId(27));
  EXPECT_EQ(h->size(), 448u);
  EXPECT_EQ(h->frag_n_used(), 30u);
  EXPECT_EQ(h->free_frag(), frag);
  EXPECT_EQ(h->free().length, 0u);
  EXPECT_EQ(h->next_segment_id(), 9u);
  EXPECT_EQ(h->sdi_root(), PageNo(3));
  EXPECT_EQ(FspHeader::SdiHeaderOffset(PageSize()), 10505u);
  EXPECT_TRUE(h->CheckLists().ok());
}

// ROW_FORMAT=COMPRESSED: page 0 is the physical (compressed) page size, and extents keep the
// logical size's 64 pages, with a descriptor page every physical-page-size pages.
TEST(FspHeaderTest, CompressedTablespacesOpenAtTheirPhysicalPageSize) {
  auto page = Page();
  FspHeaderWriter(page).set_flags(0x21 | (4 << 1));            // DYNAMIC flags plus 8 KiB compressed pages
  EXPECT_TRUE(FspHeader::Open(page).status().IsCorruption());  // read as 16 KiB pages: wrong
  auto h = FspHeader::Open(ConstBytes(page.data(), 8192));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  const PageSize g = h->geometry();
  EXPECT_EQ(g.bytes(), 8192u);
  EXPECT_EQ(g.pages_per_extent(), 64u);
  EXPECT_EQ(g.xdes_period(), 8192u);
  EXPECT_EQ(g.xdes_entries_per_page(), 128u);
  EXPECT_EQ(PageSize::Compressed(1024, 16384).xdes_entries_per_page(), 16u);
  EXPECT_EQ(PageSize::Compressed(1024, 16384).inodes_per_page(), (1024u - 60) / 192);
}

TEST(FspHeaderTest, FlagsNamingAnotherPageSizeAreCorruption) {
  auto page = Page(8192);
  FspHeaderWriter(page).set_flags(FspFlags::EncodeMySql(PageSize(16384), true, true, false));
  EXPECT_TRUE(FspHeader::Open(page).status().IsCorruption());
}

TEST(XdesTest, LocateAndBitmapRoundTrip) {
  PageSize ps;
  auto loc = LocateXdes(PageNo(16384 + 130), ps);
  EXPECT_EQ(loc.descriptor_page, PageNo(16384));
  EXPECT_EQ(loc.entry, 2u);
  EXPECT_EQ(loc.offset, 150u + 80u);
  EXPECT_EQ(loc.bit, 2u);
  auto page = Page();
  XdesEntryWriter w(page, 3);
  w.Init(XdesState::kFreeFrag);
  for (std::uint32_t j : {0u, 1u, 5u, 63u}) w.set_free(j, false);
  w.set_segment_id(0);
  XdesEntry e(page, 3);
  EXPECT_EQ(e.state(), XdesState::kFreeFrag);
  EXPECT_EQ(e.used_pages(), 4u);
  EXPECT_FALSE(e.is_free(5));
  EXPECT_TRUE(e.is_free(6));
  EXPECT_TRUE(e.is_clean(5));
  EXPECT_TRUE(e.Check().ok());
  // The verified example: pages 0-5 used gives bitmap bytes aa fa ff ff.
  auto p2 = Page();
  XdesEntryWriter w2(p2, 0);
  w2.Init(XdesState::kFreeFrag);
  for (std::uint32_t j = 0; j < 6; ++j) w2.set_free(j, false);
  EXPECT_EQ(Load32(p2, 150 + XdesEntry::kBitmap), 0xAAFAFFFFu);
  EXPECT_EQ(PageSize(4096).xdes_entry_size(), 88u);
}

TEST(InodeTest, RoundTripAndUsage) {
  auto page = Page();
  InodeEntryWriter w(page, 4);
  w.Init(17);
  w.set_frag_page(0, PageNo(4));
  w.set_frag_page(1, PageNo(9));
  w.set_not_full_n_used(10);
  w.set_not_full({1, {PageNo(0), 198}, {PageNo(0), 198}});
  w.set_full({2, {PageNo(0), 238}, {PageNo(0), 278}});
  InodeEntry e(page, 4);
  EXPECT_EQ(e.offset(), 50u + 4 * 192u);
  EXPECT_EQ(e.segment_id(), 17u);
  EXPECT_EQ(e.magic(), kFsegMagic);
  EXPECT_TRUE(e.Check().ok());
  SegmentUsage u = e.Usage();
  EXPECT_EQ(u.fragment_pages, 2u);
  EXPECT_EQ(u.used_pages, 2u + 10u + 128u);
  EXPECT_EQ(u.reserved_pages, 2u + 3 * 64u);
  EXPECT_EQ(PageSize().inodes_per_page(), 85u);
  FsegHeader h{SpaceId(5), PageNo(2), static_cast<std::uint16_t>(e.offset())};
  EXPECT_TRUE(h.Check(PageSize(), 74).ok());
  EXPECT_EQ(h.slot(PageSize()), 4u);
  FsegHeader bad{SpaceId(5), PageNo(2), 51};
  EXPECT_TRUE(bad.Check(PageSize(), 74).IsCorruption());
}

TEST(MachTest, CompressedNumbersRoundTripAtEveryBoundary) {
  for (std::uint32_t v :
       {0u, 0x7Fu, 0x80u, 0x3FFFu, 0x4000u, 0x1FFFFFu, 0x200000u, 0xFFFFFFFu, 0x10000000u, 0xFFFFFFFFu}) {
    std::vector<std::byte> out;
    WriteCompressed32(out, v);
    EXPECT_EQ(out.size(), Compressed32Size(v));
    auto d = ReadCompressed32(out, 0);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->value, v);
    EXPECT_EQ(d->size, out.size());
  }
  for (std::uint64_t v : {0ull, 1ull, 0xFFFFFFFFull, 0x100000000ull, 0x123456789ABCull}) {
    std::vector<std::byte> much, plain;
    WriteMuchCompressed64(much, v);
    WriteCompressed64(plain, v);
    EXPECT_EQ(ReadMuchCompressed64(much, 0)->value, v);
    EXPECT_EQ(ReadMuchCompressed64(much, 0)->size, much.size());
    EXPECT_EQ(ReadCompressed64(plain, 0)->value, v);
    EXPECT_EQ(ReadCompressed64(plain, 0)->size, plain.size());
  }
}

TEST(UndoTest, RecordTooShortForItsHeaderIsCorruption) {
  auto page = Page();
  for (std::uint16_t next : {301, 303, 304, 306}) {
    Store16(page, 300, next);
    Store8(page, 302, 11);
    EXPECT_TRUE(UndoRecordHeader::Decode(page, 300).status().IsCorruption()) << next;
  }
}

TEST(MachTest, TruncatedNumbersAreCorruption) {
  std::vector<std::byte> out;
  WriteCompressed32(out, 0x10000000u);
  out.pop_back();
  EXPECT_TRUE(ReadCompressed32(out, 0).status().IsCorruption());
  std::vector<std::byte> bad{std::byte{0xF8}};
  EXPECT_TRUE(ReadCompressed32(bad, 0).status().IsCorruption());
}

// MySQL 8.0.19+ keeps numbers just below 2^32 short (undo space ids in redo records).
TEST(MachTest, MySqlShortFormsNear2To32) {
  auto read = [](std::vector<unsigned> bytes) {
    std::vector<std::byte> b;
    for (unsigned x : bytes) b.push_back(std::byte(x));
    return ReadCompressed32(b, 0);
  };
  EXPECT_EQ(read({0xFB, 0xEF})->value, 4294967279u);  // innodb_undo_001
  EXPECT_EQ(read({0xFB, 0xEF})->size, 2u);
  EXPECT_EQ(read({0xFD, 0xFF, 0xFE})->value, 0xFFFFFFFEu);
  EXPECT_EQ(read({0xFE, 0x12, 0x34, 0x56})->value, 0xFF123456u);
  EXPECT_TRUE(read({0xFF, 0, 0, 0, 0}).status().IsCorruption());
  EXPECT_TRUE(read({0xF4, 0, 0, 0, 0}).status().IsCorruption());
  EXPECT_TRUE(read({0xFD, 0xFF}).status().IsCorruption());  // cut short
}

TEST(UndoTest, RollPtrMatchesTheVerifiedExample) {
  RollPtr r = RollPtr::Decode(0x81000000F90110);
  EXPECT_TRUE(r.insert);
  EXPECT_EQ(r.rseg_id, 1);
  EXPECT_EQ(r.page_no, 249u);
  EXPECT_EQ(r.offset, 0x0110);
  EXPECT_EQ(r.Encode(), 0x81000000F90110u);
}

TEST(UndoTest, TrxSysRsegAndArrayRoundTrip) {
  auto page = Page();
  TrxSysPageWriter w(page);
  w.set_trx_id_store(0x1234);
  w.set_rseg_slot(0, {SpaceId(0), PageNo(6)});
  for (std::uint32_t i = 1; i < kTrxSysRsegSlots; ++i) w.set_rseg_slot(i, {SpaceId(kFilNull), kNullPage});
  w.set_doublewrite({SpaceId(0), PageNo(2), 50}, PageNo(64), PageNo(128));
  TrxSysPage t(page);
  EXPECT_EQ(t.trx_id_store(), 0x1234u);
  EXPECT_EQ(t.rseg_slot(0), (RsegSlot{SpaceId(0), PageNo(6)}));
  EXPECT_FALSE(t.rseg_slot(1).used());
  EXPECT_TRUE(t.doublewrite().present);
  EXPECT_EQ(t.doublewrite().block2, PageNo(128));
  EXPECT_FALSE(t.binlog().has_value());

  auto rseg = Page();
  RsegHeaderWriter rw(rseg);
  rw.Init(0xFFFFFFFE, {SpaceId(0), PageNo(2), 242});
  rw.set_undo_slot(3, PageNo(300));
  rw.set_history({7, {PageNo(300), 86 + 34}, {PageNo(310), 86 + 34}});
  rw.set_history_size(12);
  RsegHeader r(rseg);
  EXPECT_EQ(r.history_length(), 7u);
  EXPECT_EQ(r.history_size(), 12u);
  EXPECT_EQ(r.undo_slot(3), PageNo(300));
  EXPECT_EQ(r.undo_slot(4), kNullPage);
  EXPECT_TRUE(r.Check().ok()) << r.Check().ToString();
  EXPECT_EQ(RsegHeader::MariaMaxTrxIdOffset(16384), 4168u);

  auto arr = Page();
  WriteRsegArray(arr, {SpaceId(0xFFFFFFEF), PageNo(2), 50}, {PageNo(4), PageNo(5), PageNo(6)});
  auto a = RsegArrayPage::Open(arr);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->count(), 3u);
  EXPECT_EQ(a->rseg_pages(), (std::vector<PageNo>{PageNo(4), PageNo(5), PageNo(6)}));
}

TEST(UndoTest, UndoPageSegmentLogAndRecordRoundTrip) {
  auto page = Page();
  UndoPageHeader ph{.type = 2, .start = 272, .free = 400, .node = {}};
  ph.EncodeTo(page);
  UndoSegmentHeader sh{.state = 4,
                       .last_log = 86,
                       .fseg = {SpaceId(0), PageNo(2), 434},
                       .page_list = {1, {PageNo(9), 44}, {PageNo(9), 44}}};
  sh.EncodeTo(page);
  UndoLogHeader lh{.trx_id = 1300,
                   .trx_no = 1301,
                   .del_marks = 1,
                   .log_start = 272,
                   .xid_exists_or_flags = 1,
                   .next_log = 0,
                   .prev_log = 0,
                   .history_node = {},
                   .xid_format = 1,
                   .xid_gtrid_len = 4,
                   .xid_bqual_len = 2};
  lh.EncodeTo(page, 86);
  UndoRecordHeader rh{.type_cmpl = static_cast<std::uint8_t>(UndoRecordType::kUpdateExisting) | 0x40,
                      .undo_no = 3,
                      .table_id = 1066,
                      .info_bits = 0,
                      .old_trx_id = 1299,
                      .old_roll_ptr = RollPtr{false, 2, 77, 0x120}};
  auto bytes = rh.Encode();
  bytes.resize(bytes.size() + 6);  // key fields would go here, then the 2-byte own offset
  Store16(bytes, 0, static_cast<std::uint16_t>(272 + bytes.size()));
  std::copy(bytes.begin(), bytes.end(), page.begin() + 272);

  EXPECT_EQ(UndoPageHeader::Decode(page)->free, 400);
  auto s = UndoSegmentHeader::Decode(page);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->state, 4);
  EXPECT_EQ(s->page_list.length, 1u);
  auto l = UndoLogHeader::Decode(page, 86);
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  EXPECT_EQ(l->trx_id, 1300u);
  EXPECT_EQ(l->trx_no, 1301u);
  EXPECT_EQ(l->xid_gtrid_len, 4u);
  auto r = UndoRecordHeader::Decode(page, 272);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->type(), UndoRecordType::kUpdateExisting);
  EXPECT_TRUE(r->has_flag_byte());
  EXPECT_EQ(r->undo_no, 3u);
  EXPECT_EQ(r->table_id, 1066u);
  EXPECT_EQ(r->old_trx_id, 1299u);
  EXPECT_EQ(*r->old_roll_ptr, (RollPtr{false, 2, 77, 0x120}));
  EXPECT_EQ(r->body, 272 + rh.Encode().size());
}

TEST(RedoTest, BlockHeaderFileHeaderAndCheckpointRoundTrip) {
  std::vector<std::byte> block(512);
  LogBlockHeader h{.number = LogBlockNumber(Lsn(8192 + 512 * 3)),
                   .flush_bit = true,
                   .data_len = 300,
                   .encrypted = false,
                   .first_rec_group = 12,
                   .checkpoint_no = 5};
  h.EncodeTo(block);
  EXPECT_EQ(h.number, 20u);
  EXPECT_EQ(CheckLogBlockChecksum(block), LogChecksum::kCrc32c);
  auto d = LogBlockHeader::Decode(block);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->number, 20u);
  EXPECT_TRUE(d->flush_bit);
  EXPECT_EQ(d->data_len, 300);
  block[100] ^= std::byte{1};
  EXPECT_EQ(CheckLogBlockChecksum(block), LogChecksum::kBad);
  Store32(block, 508, LogLegacyBlockChecksum(block));
  EXPECT_EQ(CheckLogBlockChecksum(block), LogChecksum::kLegacy);

  LogFileHeader fh{.format = static_cast<std::uint32_t>(LogFormat::kMySql8019),
                   .subformat_or_uuid = 0,
                   .start_lsn = 8192,
                   .creator = "Strata 0.1",
                   .flags = 2};
  fh.EncodeTo(block);
  auto fd = LogFileHeader::Decode(block);
  ASSERT_TRUE(fd.ok());
  EXPECT_TRUE(fd->checksum_ok);
  EXPECT_EQ(fd->creator, "Strata 0.1");
  EXPECT_EQ(fd->start_lsn, 8192u);
  EXPECT_EQ(fd->flags, 2u);

  LogCheckpoint cp{.number = 7, .lsn = 123456, .offset = 4096, .log_buf_size = 1 << 20, .maria_end_lsn = 0};
  cp.EncodeTo(block);
  auto cd = LogCheckpoint::Decode(block);
  ASSERT_TRUE(cd.ok());
  EXPECT_TRUE(cd->checksum_ok);
  EXPECT_EQ(cd->lsn, 123456u);
  EXPECT_EQ(cd->number, 7u);
}

TEST(RedoTest, GroupOffsetSkipsFileHeadersAndWraps) {
  const std::uint64_t file = 1 << 20;
  // Checkpoint at the first payload byte of file 0.
  EXPECT_EQ(*LogGroupOffset(8192, 8192, 2048, file, 2), 2048u);
  EXPECT_EQ(*LogGroupOffset(8192 + 100, 8192, 2048, file, 2), 2148u);
  // One byte past file 0's payload lands after file 1's header.
  EXPECT_EQ(*LogGroupOffset(8192 + (file - 2048), 8192, 2048, file, 2), file + 2048);
  // A whole lap later: back where we started.
  EXPECT_EQ(*LogGroupOffset(8192 + 2 * (file - 2048), 8192, 2048, file, 2), 2048u);
  EXPECT_TRUE(LogGroupOffset(8192, 8192, 100, file, 2).status().IsCorruption());  // inside a header
  EXPECT_TRUE(LogGroupOffset(8192, 8192, 3 * file, file, 2).status().IsCorruption());
}

TEST(LobTest, PageHeadersRoundTrip) {
  auto page = Page();
  BlobPage{.part_len = 16330, .next_page = PageNo(7)}.EncodeTo(page);
  EXPECT_EQ(BlobPage::Decode(page)->next_page, PageNo(7));
  EXPECT_EQ(BlobPage::Capacity(16384), 16330u);
  Store32(page, BlobPage::kPartLen, 20000);
  EXPECT_TRUE(BlobPage::Decode(page).status().IsCorruption());

  auto first = Page();
  LobFirstPage f{.version = 0,
                 .flags = 0,
                 .lob_version = 1,
                 .last_trx = 5,
                 .last_undo = 0,
                 .data_len = 15680,
                 .creator_trx = 5,
                 .index_list = {2, {PageNo(7), 96}, {PageNo(7), 156}},
                 .free_list = {}};
  f.EncodeTo(first);
  LobIndexEntry e{.node = {{kNullPage, 0}, {PageNo(7), 156}},
                  .versions = {},
                  .creator_trx = 5,
                  .modifier_trx = 0,
                  .undo_no = 1,
                  .modifier_undo_no = 0,
                  .data_page = PageNo(7),
                  .data_len = 15680,
                  .lob_version = 1};
  e.EncodeTo(first, 96);
  auto fd = LobFirstPage::Decode(first);
  ASSERT_TRUE(fd.ok()) << fd.status().ToString();
  EXPECT_EQ(fd->data_len, 15680u);
  EXPECT_EQ(fd->index_list.length, 2u);
  LobIndexEntry ed = *LobIndexEntry::Decode(first, 96);
  EXPECT_TRUE(LobIndexEntry::Decode(first, 16340).status().IsCorruption());
  EXPECT_EQ(ed.data_page, PageNo(7));
  EXPECT_EQ(ed.data_len, 15680);
  EXPECT_EQ(ed.node.next, (FileAddr{PageNo(7), 156}));
  EXPECT_EQ(LobFirstPage::Capacity(16384), 15680u);

  auto data = Page();
  LobDataPage{.version = 0, .data_len = 16327, .trx = 5}.EncodeTo(data);
  EXPECT_EQ(LobDataPage::Decode(data)->data_len, 16327u);
  EXPECT_EQ(LobDataPage::Capacity(16384), 16327u);
}

TEST(SdiTest, ImpossibleUncompressedLengthIsRefusedBeforeAllocating) {
  auto z = DeflateSdi("{}");
  EXPECT_TRUE(InflateSdi(z, 0xFFFFFFF0u).status().IsCorruption());
}

TEST(SdiTest, RecordRoundTripsThroughAnSdiPage) {
  std::string json = R"({"dd_object_type":"Table","dd_object":{"name":"orders","columns":[]}})";
  auto z = DeflateSdi(json);
  auto type = EncodeUnsigned(1, 4), id = EncodeUnsigned(1066, 8), trx = EncodeUnsigned(0, 6),
       roll = EncodeUnsigned(1ull << 55, 7), ulen = EncodeUnsigned(json.size(), 4), clen = EncodeUnsigned(z.size(), 4);
  EncodedRecord r = EncodeCompactRecord(SdiLayout(), {{type}, {id}, {trx}, {roll}, {ulen}, {clen}, {z}});
  std::vector<std::byte> page(16384);
  IndexPageWriter w(page);
  w.InitEmpty(true, kSdiIndexId, 0, PageType::kSdi);
  std::size_t origin = w.Append(r.bytes, r.extra_size);
  auto rec = DecodeSdiRecord(page, origin);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  EXPECT_EQ(rec->type, 1u);
  EXPECT_EQ(rec->id, 1066u);
  EXPECT_EQ(ToString(static_cast<SdiType>(rec->type)), "Table");
  EXPECT_EQ(*SdiJson(*rec), json);
}

TEST(SdiTest, DeflateInflateRoundTrip) {
  std::string json = R"({"dd_object_type":"Table","dd_object":{"name":"t"}})";
  auto z = DeflateSdi(json);
  auto back = InflateSdi(z, static_cast<std::uint32_t>(json.size()));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, json);
  EXPECT_TRUE(InflateSdi(z, static_cast<std::uint32_t>(json.size() + 1)).status().IsCorruption());
  z[z.size() / 2] ^= std::byte{0x55};
  EXPECT_FALSE(InflateSdi(z, static_cast<std::uint32_t>(json.size())).ok());
}

}  // namespace
}  // namespace strata::ondisk
