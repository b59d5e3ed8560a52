// Undo record bodies in the forms MySQL and MariaDB write that Strata's engine does not:
// virtual columns with their index lists, an off-page value stored with a longer prefix,
// MySQL 8.0's LOB change accounts and multi-valued columns. Built byte by byte from the
// layout trx0rec.cc writes, each followed by a field that must still decode in place.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ondisk/endian.h"
#include "ondisk/mach.h"
#include "ondisk/undo.h"
#include "ondisk/undo_record.h"

namespace strata::ondisk {
namespace {

constexpr std::size_t kStart = 300;

class RecordBuilder {
 public:
  // An update of an existing record (type 12) of table 42 whose key is one 4-byte field.
  explicit RecordBuilder(std::uint8_t type_cmpl) {
    UndoRecordHeader h;
    h.type_cmpl = type_cmpl;
    h.undo_no = 3;
    h.table_id = 42;
    h.info_bits = 0;
    h.old_trx_id = 77;
    h.old_roll_ptr = RollPtr{false, 5, 9, 120};
    bytes_ = h.Encode();
    Value("KEY1");
  }
  RecordBuilder& Number(std::uint32_t n) {
    WriteCompressed32(bytes_, n);
    return *this;
  }
  RecordBuilder& Byte(std::uint8_t b) {
    bytes_.push_back(std::byte{b});
    return *this;
  }
  RecordBuilder& Raw(const std::string& s) {
    for (char c : s) bytes_.push_back(static_cast<std::byte>(c));
    return *this;
  }
  RecordBuilder& Value(const std::string& s) { return Number(static_cast<std::uint32_t>(s.size())).Raw(s); }
  // A 2-byte length counting itself, then `body`.
  RecordBuilder& Block(const std::string& body) {
    const auto n = static_cast<std::uint16_t>(body.size() + 2);
    Byte(static_cast<std::uint8_t>(n >> 8)).Byte(static_cast<std::uint8_t>(n));
    return Raw(body);
  }
  // The record on a page at kStart, with its next offset and own-start trailer.
  std::vector<std::byte> Page() const {
    std::vector<std::byte> page(16384);
    std::vector<std::byte> rec = bytes_;
    rec.resize(rec.size() + 2);
    Store16(rec, 0, static_cast<std::uint16_t>(kStart + rec.size()));
    Store16(rec, rec.size() - 2, kStart);
    std::copy(rec.begin(), rec.end(), page.begin() + kStart);
    return page;
  }

 private:
  std::vector<std::byte> bytes_;
};

std::string Text(ConstBytes page, const UndoValue& v) { return v.RecordBytes(page); }

Result<UndoRecordBody> Decode(const std::vector<std::byte>& page) {
  auto h = UndoRecordHeader::Decode(page, kStart);
  if (!h.ok()) return h.status();
  return DecodeUndoRecordBody(page, *h, 1);
}

// What the engine writes, read back by the same decoder the inspector uses: NULLs, an
// off-page value's local part, the update vector and the indexed section's length.
TEST(UndoRecordWriterTest, WhatItWritesDecodesBackWhole) {
  UndoRecordHeader h;
  h.type_cmpl = static_cast<std::uint8_t>(UndoRecordType::kUpdateDeleted);
  h.undo_no = 9;
  h.table_id = 1234;
  h.info_bits = 0x20;
  h.old_trx_id = 555;
  h.old_roll_ptr = RollPtr{true, 2, 700, 88};
  const std::string ref(20, 'r');
  UndoRecordWriter w(h);
  w.Value(std::string_view("id-1"), false);
  w.UpdateCount(2);
  w.Field(3, std::nullopt, false);
  w.Field(4, std::string_view("local" + ref), true);
  w.BeginIndexed();
  w.Field(5, std::string_view("old"), false);
  w.EndIndexed();
  const std::vector<std::byte> rec = std::move(w).Finish(kStart);
  std::vector<std::byte> page(16384);
  std::copy(rec.begin(), rec.end(), page.begin() + kStart);
  EXPECT_EQ(Load16(page, kStart + rec.size() - 2), kStart);  // the trailer: where the record starts
  auto head = UndoRecordHeader::Decode(page, kStart);
  ASSERT_TRUE(head.ok()) << head.status().message();
  EXPECT_EQ(head->next, kStart + rec.size());
  EXPECT_EQ(head->table_id, 1234u);
  EXPECT_EQ(*head->old_trx_id, 555u);
  auto body = DecodeUndoRecordBody(page, *head, 1);
  ASSERT_TRUE(body.ok()) << body.status().message();
  EXPECT_EQ(Text(page, body->key.at(0)), "id-1");
  ASSERT_EQ(body->updated.size(), 2u);
  EXPECT_TRUE(body->updated[0].value.is_null);
  EXPECT_EQ(body->updated[1].position, 4u);
  EXPECT_TRUE(body->updated[1].value.external);
  EXPECT_EQ(Text(page, body->updated[1].value), "local" + ref);
  ASSERT_TRUE(body->indexed);
  ASSERT_EQ(body->indexed->size(), 1u);
  EXPECT_EQ(Text(page, body->indexed->at(0).value), "old");
}

TEST(UndoRecordBodyTest, VirtualColumnsAreSkippedWithTheirIndexListsAndBothValues) {
  RecordBuilder b(12);
  b.Number(2);
  b.Number(kRecMaxNFields + 1).Byte(0xF1).Block("\x01\x05\x02").Value("old-v").Value("new-value");
  b.Number(4).Value("stored");
  const auto page = b.Page();
  auto body = Decode(page);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(Text(page, body->key[0]), "KEY1");
  ASSERT_EQ(body->updated.size(), 2u);
  EXPECT_TRUE(body->updated[0].is_virtual());
  EXPECT_EQ(body->updated[1].position, 4u);
  EXPECT_EQ(Text(page, body->updated[1].value), "stored");
}

TEST(UndoRecordBodyTest, VirtualColumnsOfMySql578HaveNoIndexList) {
  RecordBuilder b(12);
  b.Number(2).Number(kRecMaxNFields).Value("a").Value("b").Number(3).Value("after");
  const auto page = b.Page();
  auto body = Decode(page);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(Text(page, body->updated[1].value), "after");
}

TEST(UndoRecordBodyTest, ALongerPrefixGivesBackTheRecordsOwnLocalPart) {
  const std::string ref(20, 'R');
  RecordBuilder b(12 | 0x80);
  // Marker, the record's local length (20: DYNAMIC keeps only the reference), then 768
  // prefix bytes an index needs and the reference.
  b.Number(1).Number(5).Number(kUndoExternStorage).Number(20).Number(kUndoExternStorage + 768 + 20);
  b.Raw(std::string(768, 'p') + ref);
  const auto page = b.Page();
  auto body = Decode(page);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  const UndoValue& v = body->updated[0].value;
  EXPECT_TRUE(v.external);
  EXPECT_EQ(v.length, 788u);
  EXPECT_EQ(Text(page, v), ref);
}

TEST(UndoRecordBodyTest, MySql80LobChangeAccountsAreSkipped) {
  const std::string ref(20, 'R');
  RecordBuilder b(12 | 0x40 | 0x80);
  b.Number(3);
  b.Number(5).Number(kUndoExternStorage + 20).Raw(ref).Byte(0).Number(0);  // no in-place change
  // One small change: first page, version, last trx, last undo no, then offset, length, old
  // bytes and one (trx, undo no) pair.
  b.Number(6).Number(kUndoExternStorage + 20).Raw(ref).Byte(0).Number(1);
  b.Number(4).Number(2).Number(900).Number(1);
  b.Number(10).Number(3).Raw("abc").Number(1).Number(901).Number(2);
  b.Number(7).Value("plain");
  const auto page = b.Page();
  auto body = Decode(page);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  ASSERT_EQ(body->updated.size(), 3u);
  EXPECT_FALSE(body->updated[0].value.lob_changed_in_place);
  EXPECT_EQ(body->updated[1].position, 6u);
  EXPECT_TRUE(body->updated[1].value.lob_changed_in_place);  // its older bytes are not behind the reference
  EXPECT_EQ(Text(page, body->updated[2].value), "plain");
}

TEST(UndoRecordBodyTest, MultiValuedColumnsHaveTheirOwnForm) {
  RecordBuilder b(12 | 0x40);
  b.Number(2);
  b.Number(kRecMaxNFields + 2).Byte(0xF1).Block("\x01\x07\x01");
  b.Byte(0xFF).Byte(0).Byte(6).Raw("1234");  // old: T = 6 counts itself, 4 bytes follow
  b.Byte(0xFF).Byte(0).Byte(1);              // new: NULL
  b.Number(3).Value("after");
  const auto page = b.Page();
  auto body = Decode(page);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(Text(page, body->updated[1].value), "after");
}

TEST(UndoRecordBodyTest, TheIndexedSectionIsReadToItsLength) {
  RecordBuilder b(14);  // delete-mark: no update vector, the indexed columns' old values
  std::vector<std::byte> entries;
  WriteCompressed32(entries, 5);
  WriteCompressed32(entries, 3);
  b.Block(std::string(reinterpret_cast<const char*>(entries.data()), entries.size()) + "old");
  const auto page = b.Page();
  auto body = Decode(page);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  ASSERT_TRUE(body->indexed);
  ASSERT_EQ(body->indexed->size(), 1u);
  EXPECT_EQ(Text(page, body->indexed->at(0).value), "old");
}

TEST(UndoRecordBodyTest, ValuesRunningPastTheRecordAreCorruption) {
  RecordBuilder b(12);
  b.Number(1).Number(4).Number(500).Raw("short");
  EXPECT_TRUE(Decode(b.Page()).status().IsCorruption());
  RecordBuilder lob(12 | 0x40 | 0x80);
  lob.Number(1).Number(5).Number(kUndoExternStorage + 20).Raw(std::string(20, 'R')).Byte(0).Number(1).Number(1);
  EXPECT_TRUE(Decode(lob.Page()).status().IsCorruption());
}

TEST(UndoTest, MySqlUndoSpaceNumbersFollowTheServersRanges) {
  EXPECT_EQ(MySqlUndoSpaceNumber(0xFFFFFFEF), 1);
  EXPECT_EQ(MySqlUndoSpaceNumber(0xFFFFFFEE), 2);
  EXPECT_EQ(MySqlUndoSpaceNumber(0xFFFFFF71), 127);
  EXPECT_EQ(MySqlUndoSpaceNumber(0xFFFFFF70), 1);  // number 1 after a truncation
  EXPECT_EQ(MySqlUndoSpaceNumber(3), 3);           // made by MySQL 5.7
}

}  // namespace
}  // namespace strata::ondisk
