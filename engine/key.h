// Index keys: stored field values (a Tuple) and how an index orders them. Most stored forms
// compare as bytes (integers, dates and DECIMAL are kept memcmp-able, as InnoDB keeps them);
// strings compare under their collation and FLOAT/DOUBLE as numbers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/collation.h"
#include "ondisk/endian.h"
#include "ondisk/page_type.h"
#include "ondisk/record.h"
#include "ondisk/types.h"

namespace strata::engine {

enum class CompareKind : std::uint8_t {
  kBinary,    // memcmp, shorter first on a tie (integers, dates, DECIMAL, BINARY/VARBINARY, BLOB)
  kPadSpace,  // binary collations of CHAR/VARCHAR: trailing spaces do not count
  // The case- and accent-insensitive collations of text (engine/collation.h has their rules).
  kGeneralCi,
  kLatin1SwedishCi,
  kUca400,
  kUca400NoPad,
  kUca520,
  kUca520NoPad,
  kUca1400,
  kUca1400NoPad,
  kFloat,   // 4-byte little-endian IEEE
  kDouble,  // 8-byte little-endian IEEE
};

// One stored field: its bytes as they sit in the record (or the 20-byte reference ending
// the local prefix when `external`).
struct Datum {
  bool null = false;
  bool external = false;
  std::string bytes;

  static Datum Null() { return {true, false, {}}; }
  static Datum Of(std::string b) { return {false, false, std::move(b)}; }
  ondisk::ConstBytes span() const { return {reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}; }
  bool operator==(const Datum&) const = default;
};
using Tuple = std::vector<Datum>;

// The collation rule of a text kind (kGeneralCi ... kUca1400NoPad).
TextRule TextRuleOf(CompareKind kind);

// NULL sorts first, as in InnoDB.
int CompareField(CompareKind kind, bool a_null, ondisk::ConstBytes a, bool b_null, ondisk::ConstBytes b);

// What a B-tree needs to know about its index.
struct IndexShape {
  std::uint64_t id = 0;
  ondisk::RecordLayout leaf;         // leaf record layout
  std::vector<CompareKind> compare;  // per leaf field
  std::size_t n_key = 0;             // leading fields that order records; node pointers carry them
  std::size_t n_unique = 0;          // leading fields that must be unique (0: none)
  bool clustered = false;
  ondisk::PageType page_type = ondisk::PageType::kIndex;
  ondisk::RecordLayout node;  // leaf.NodePointer(n_key)
  // A clustered index with row versions (leaf.versions): per leaf field, what a record that
  // does not store it reads as, its instant default (NULL for a dropped column).
  Tuple absent_values;

  // Node pointers keep the bitmap width of the records written before the first instant
  // ADD/DROP COLUMN (version 0), as InnoDB sizes them.
  void Finish() {
    node = leaf.NodePointer(n_key);
    if (leaf.versions) node.null_bitmap_bits = leaf.versions->front().n_nullable();
  }
};

// The record of `shape` as encoded bytes ready for a page (COMPACT).
ondisk::EncodedRecord EncodeTuple(const ondisk::RecordLayout& layout, const Tuple& t);
// The same record appended to `out`; returns its extra size.
std::size_t AppendTuple(const ondisk::RecordLayout& layout, const Tuple& t, std::vector<std::byte>& out);
// Its size in bytes (extra bytes included), without encoding: also for tuples too large to
// encode, whose long fields are about to move off-page.
std::size_t EncodedSize(const ondisk::RecordLayout& layout, const Tuple& t);

}  // namespace strata::engine
