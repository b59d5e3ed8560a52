#include "inspect/fts_aux.h"

#include <fmt/format.h>

#include <charconv>
#include <regex>

#include "inspect/table_layout.h"
#include "inspect/sys_columns.h"
#include "ondisk/charsets.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

constexpr std::uint32_t kMaxWordChars = 84;   // FTS_MAX_WORD_LEN_IN_CHAR
constexpr std::uint32_t kMaxWordBytes = 336;  // FTS_INDEX_WORD_LEN: decides 1- or 2-byte lengths

ColumnDef Unsigned(const std::string& name, std::uint32_t bytes, bool nullable) {
  ColumnDef c;
  c.name = name;
  c.nullable = nullable;
  c.is_unsigned = true;
  c.format.type = ColumnType::kInt;
  c.format.length = bytes;
  c.format.is_unsigned = true;
  c.format.name = bytes == 8 ? "bigint unsigned" : "int unsigned";
  c.sql_type = c.format.name;
  c.field = FieldDef::Fixed(name, bytes, nullable);
  return c;
}

ColumnDef Varchar(const std::string& name, std::uint32_t chars, int collation, bool nullable) {
  ColumnDef c;
  c.name = name;
  c.nullable = nullable;
  c.format.type = ColumnType::kVarchar;
  c.format.length = chars;
  c.format.collation = collation;
  c.format.name = "varchar(" + std::to_string(chars) + ")";
  c.sql_type = c.format.name;
  c.field = FieldDef::Variable(
      name, chars * std::max<std::uint32_t>(ondisk::CharsetOfCollationId(collation).mbmaxlen, 1), nullable);
  return c;
}

// The 7-bit groups of one number at `at`, moving `at` past it; nullopt when the bytes end first.
std::optional<std::uint64_t> ReadVlc(const std::string& b, std::size_t& at) {
  std::uint64_t v = 0;
  for (int n = 0; at < b.size() && n < 10; ++n) {
    const auto byte = static_cast<unsigned char>(b[at++]);
    if (v >> 57) return std::nullopt;  // more than 64 bits: damage
    v = (v << 7) | (byte & 0x7F);
    if (byte & 0x80) return v;
  }
  return std::nullopt;
}

}  // namespace

std::optional<FtsAuxFile> FtsAuxOf(const std::filesystem::path& path) {
  static const std::regex re(
      R"(fts_([0-9a-f]{16})_(?:([0-9a-f]{16})_index_([1-6])|(config)|(being_deleted|deleted)(?:_cache)?)\.ibd)",
      std::regex::icase);
  std::smatch m;
  const std::string name = path.filename().string();
  if (!std::regex_match(name, m, re)) return std::nullopt;
  FtsAuxFile aux;
  aux.table_id = std::stoull(m[1].str(), nullptr, 16);
  if (m[2].matched) {
    aux.kind = FtsAuxFile::kIndex;
    aux.index_id = std::stoull(m[2].str(), nullptr, 16);
    aux.part = std::stoi(m[3].str());
  } else {
    aux.kind = m[4].matched ? FtsAuxFile::kConfig : FtsAuxFile::kDocIds;
  }
  return aux;
}

const ColumnDef* FtsWordColumn(const TableDef& parent) {
  const ColumnDef* word = nullptr;
  for (const auto& name : parent.fulltext_first_columns) {
    for (const auto& c : parent.columns) {
      if (c.name != name) continue;
      if (word && (word->format.collation != c.format.collation || word->nullable != c.nullable)) return nullptr;
      word = &c;
    }
  }
  return word;
}

Result<TableDef> FtsAuxTable(const FtsAuxFile& aux, const ColumnDef* word) {
  TableDef t;
  std::vector<IndexSpec> key;
  switch (aux.kind) {
    case FtsAuxFile::kIndex:
      if (!word) {
        return Status::InvalidArgument(
            "a FULLTEXT index table's words have the type of the index's first column: give the "
            "CREATE TABLE of the table it indexes with --create-table");
      }
      t.name = fmt::format("FTS_{:016x}_{:016x}_INDEX_{}", aux.table_id, aux.index_id, aux.part);
      t.columns = {Varchar("word", kMaxWordChars, word->format.collation, word->nullable),
                   Unsigned("first_doc_id", 8, false), Unsigned("last_doc_id", 8, false),
                   Unsigned("doc_count", 4, false)};
      {
        ColumnDef ilist;
        ilist.name = "ilist";
        ilist.format.type = ColumnType::kVarchar;
        ilist.format.collation = 63;
        ilist.format.name = ilist.sql_type = "blob";
        ilist.field = FieldDef::Variable("ilist", 0xFFFFFFFF, false, true);
        t.columns.push_back(std::move(ilist));
      }
      t.columns.front().field.max_length = kMaxWordBytes;  // whatever the character set
      key.push_back({"PRIMARY", true, true, false, {{"word", 0}, {"first_doc_id", 0}}});
      break;
    case FtsAuxFile::kConfig:
      t.name = fmt::format("FTS_{:016x}_CONFIG", aux.table_id);
      t.columns = {Varchar("key", 50, 8, true), Varchar("value", 200, 8, false)};  // latin1
      key.push_back({"PRIMARY", true, true, false, {{"key", 0}}});
      break;
    case FtsAuxFile::kDocIds:
      t.name = fmt::format("FTS_{:016x}_DELETED", aux.table_id);
      t.columns = {Unsigned("doc_id", 8, true)};
      key.push_back({"PRIMARY", true, true, false, {{"doc_id", 0}}});
      break;
  }
  return LayOutTable(std::move(t), key);
}

const std::vector<RowColumn>& FtsIndexColumns() {
  static const ColumnFormat kText = [] {
    ColumnFormat f;
    f.type = ColumnType::kVarchar;
    f.collation = 45;
    return f;
  }();
  static const ColumnFormat kNumber = [] {
    ColumnFormat f;
    f.type = ColumnType::kInt;
    f.length = 8;
    f.is_unsigned = true;
    return f;
  }();
  static const std::vector<RowColumn> kColumns = {{"WORD", 0, &kText},          {"FIRST_DOC_ID", 1, &kNumber},
                                                  {"LAST_DOC_ID", 2, &kNumber}, {"DOC_COUNT", 3, &kNumber},
                                                  {"DOC_ID", 4, &kNumber},      {"POSITION", 5, &kNumber}};
  return kColumns;
}

Status ExpandIlist(const Row& node, const std::function<void(const Row&)>& each) {
  if (node.cells.size() < 5 || !node.cells[4].text || !node.cells[1].text || !node.cells[3].text) {
    return Status::InvalidArgument(
        "not a FULLTEXT index table row (its first_doc_id, doc_count or ilist is not known)");
  }
  const std::string& ilist = *node.cells[4].text;
  Row out;
  out.deleted = node.deleted;
  out.page = node.page;
  out.offset = node.offset;
  out.cells.resize(6);
  for (int c = 0; c < 4; ++c) out.cells[c] = node.cells[c];
  std::uint64_t doc_count = 0;
  const std::string& count = *node.cells[3].text;
  if (std::from_chars(count.data(), count.data() + count.size(), doc_count).ec != std::errc()) {
    return Status::InvalidArgument("doc_count '" + count + "' is not a number");
  }
  std::uint64_t doc_id = 0, docs = 0;
  auto cut = [&](std::size_t at) {
    return Status::Corruption(fmt::format("page {} offset {}: the ilist ends inside a number at byte {} of {}",
                                          node.page, node.offset, at, ilist.size()));
  };
  for (std::size_t at = 0; at < ilist.size();) {
    const auto gap = ReadVlc(ilist, at);
    if (!gap) return cut(at);
    if (doc_id + *gap < doc_id) return cut(at);
    doc_id += *gap;
    ++docs;
    out.cells[4] = {std::to_string(doc_id), ""};
    while (true) {
      if (at >= ilist.size()) return cut(at);
      if (ilist[at] == 0) {
        ++at;
        break;
      }
      const auto position_gap = ReadVlc(ilist, at);
      if (!position_gap) return cut(at);
      out.cells[5] = {std::to_string(*position_gap), ""};
      each(out);
    }
  }
  if (docs != doc_count) {
    return Status::Corruption(fmt::format("page {} offset {}: the ilist holds {} documents, doc_count says {}",
                                          node.page, node.offset, docs, doc_count));
  }
  return Status::Ok();
}

}  // namespace strata::inspect
