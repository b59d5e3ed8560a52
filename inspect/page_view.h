// `strata inspect page N`: every header field of one page, decoded by its type, and with
// --records each record of a B-tree page (fields by name when the file has a schema).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/page_regions.h"
#include "inspect/space_file.h"

namespace strata::inspect {

struct Dictionary;

struct ViewField {
  std::string name;
  std::size_t offset = 0;  // where the field sits on the page
  std::size_t size = 0;    // bytes
  nlohmann::json value;    // number, string, bool or null
  std::string note;        // human explanation ("RIGHT", "COMPACT", ...)
};

struct ViewSection {
  std::string name;  // "FIL header", "INDEX header", "FSP header", ...
  std::vector<ViewField> fields;
};

struct RecordField {
  std::string name;
  std::size_t offset = 0;
  std::size_t length = 0;
  bool is_null = false;
  bool external = false;
  std::string value;  // integer, quoted text or hex
};

struct RecordView {
  std::size_t offset = 0;  // origin
  std::uint16_t heap_no = 0;
  std::string status;  // ordinary, node_pointer, instant
  bool deleted = false;
  bool min_rec = false;
  std::uint8_t n_owned = 0;
  std::size_t next = 0;
  // MySQL 8.0.29+ instant ADD/DROP: the row version the record was written in (none when the
  // index has no row versions).
  std::optional<std::uint8_t> row_version;
  // COMPACT: the bytes below the 5-byte header, highest address first (version byte, NULL
  // bitmap, lengths), in hex; empty when the fields did not decode.
  std::string extra_hex;
  std::vector<RecordField> fields;  // empty when no layout is known
  std::string error;                // why the fields did not decode
};

struct PageView {
  std::string file;
  std::uint32_t page_no = 0;
  std::string type;
  std::vector<ViewSection> sections;
  std::vector<PageRegion> regions;  // where the page's bytes go, first to last
  bool with_records = false;
  std::string layout_source;  // "SDI index PRIMARY", "REDUNDANT (self-describing)", or empty
  std::vector<RecordView> records;
  std::vector<std::string> problems;  // decode errors, with offsets
};

PageView ViewPage(const SpaceFile& file, std::uint32_t page_no, bool with_records, const Dictionary* server = nullptr);

nlohmann::json ToJson(const PageView& v);
std::string ToText(const PageView& v);

}  // namespace strata::inspect
