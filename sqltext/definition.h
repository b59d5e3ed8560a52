// Column, key and table definitions as CREATE TABLE and CREATE INDEX write them, read into
// plain structs that say what the text says and no more. Two readers build on them: sql/
// turns them into the engine's columns (refusing by name what it cannot store), and
// inspect/'s --create-table into the record layout a real server's rows have
// (sqltext/column_layout.h). One grammar, so a definition reads the same to both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sqltext/cursor.h"

namespace strata::sqltext {

// A column's type as written, its synonyms named by the server's own word: INTEGER is INT,
// BOOL TINYINT(1), NUMERIC DECIMAL, REAL and DOUBLE PRECISION DOUBLE, FLOAT(p) FLOAT or DOUBLE,
// CHARACTER VARYING VARCHAR, NATIONAL CHAR CHAR, LONG MEDIUMTEXT, SERIAL BIGINT UNSIGNED.
struct TypeText {
  std::string name;               // upper case: "INT", "VARCHAR", "ENUM"
  std::vector<std::string> args;  // "(10,2)": {"10", "2"}; ENUM and SET: the labels, decoded
  bool is_unsigned = false;
  bool zerofill = false;    // implies is_unsigned
  std::string charset;      // CHARACTER SET / CHARSET as written, when written
  std::string collation;    // COLLATE as written, when written
  bool binary = false;      // the BINARY attribute of a text type: its charset's _bin collation
  bool compressed = false;  // MariaDB's COMPRESSED: values are stored zlib-compressed

  std::uint32_t Arg(std::size_t i, std::uint32_t otherwise) const;
};

// A token range of the statement: an expression the grammar does not read itself.
struct TokenRange {
  std::size_t begin = 0, end = 0;
  bool empty() const { return begin == end; }
};

// FOREIGN KEY [index_name] (columns) REFERENCES [db.]table (columns) [ON DELETE|UPDATE action]
// (or REFERENCES ... written on a column, which MariaDB keeps as one).
struct ForeignKeyText {
  std::vector<std::string> columns;
  std::string ref_database, ref_table;  // ref_database empty when not given
  std::vector<std::string> ref_columns;
  // "RESTRICT", "CASCADE", "SET NULL", "NO ACTION", "SET DEFAULT"; empty when not written.
  std::string on_delete, on_update;
};

struct ColumnText {
  std::string name;
  TypeText type;
  std::size_t offset = 0;  // of its first token in the text (for the line errors name)
  bool nullable = true;    // NOT NULL makes it false; so do PRIMARY KEY and SERIAL
  bool auto_increment = false;
  TokenRange default_value;    // DEFAULT x, unless x is the current time
  bool default_now = false;    // DEFAULT CURRENT_TIMESTAMP, NOW(), LOCALTIMESTAMP ...
  bool on_update_now = false;  // ON UPDATE CURRENT_TIMESTAMP
  enum class Generated : std::uint8_t { kNo, kVirtual, kStored } generated = Generated::kNo;
  bool invisible = false;
  std::string comment;
  bool primary_key = false;                  // PRIMARY KEY (or KEY) written on the column
  bool unique_key = false;                   // UNIQUE [KEY] written on the column
  std::vector<std::string> constraints;      // CHECK (...) on the column, as written
  std::optional<ForeignKeyText> references;  // REFERENCES ... on the column
};

struct KeyPart {
  std::string column;        // empty for an expression part (a functional index)
  std::uint32_t prefix = 0;  // characters of the column the key holds (0: all of it)
  bool descending = false;
};

struct KeyText {
  enum class Kind : std::uint8_t { kPrimary, kUnique, kIndex, kFulltext, kSpatial, kForeign, kCheck };
  Kind kind = Kind::kIndex;
  std::string name;    // the key's own name, else its CONSTRAINT's name, else empty
  bool named = false;  // a name was written, even an empty `` (which the server refuses)
  std::vector<KeyPart> parts;
  std::string text;        // FOREIGN KEY and CHECK: the clause as written
  std::string index_name;  // FOREIGN KEY's own name, written after KEY: the index it makes
  ForeignKeyText foreign;
  std::size_t offset = 0;
  bool on_column = false;   // written as a column's PRIMARY KEY, UNIQUE or SERIAL
  bool functional() const;  // one of its parts is an expression
};

struct TableOptions {
  std::string charset, collation;  // DEFAULT CHARSET / COLLATE as written, when written
  std::string engine;
  std::optional<std::uint64_t> auto_increment;
  std::string row_format;
  std::string comment;
  bool partitioned = false;  // PARTITION BY ...: read no further
};

struct TableText {
  std::string database, name;  // database empty when not given
  bool temporary = false;
  bool if_not_exists = false;
  std::string like;  // CREATE TABLE t LIKE other: the other's name (nothing else is read)
  std::vector<ColumnText> columns;
  std::vector<KeyText> keys;  // in the order written, keys written on a column among them
  TableOptions options;
  // CREATE TABLE ... [IGNORE | REPLACE] [AS] SELECT: the cursor's position at the word that
  // begins it (read only when the caller asks for it; refused with 1235 otherwise).
  std::optional<std::size_t> select;
};

// After CREATE [TEMPORARY] TABLE: the name, the elements in parentheses and the options, up
// to the end of the statement. Throws Failure with the server's error (1064 for syntax, 1439
// for a display width over 255, 1063/1425/1427 for FLOAT and DOUBLE specifiers, 1068 for two
// primary keys) at the first thing the server would refuse.
TableText ReadCreateTable(Cursor& c, bool temporary, bool with_select = false);

// One column definition: the name, the type and its attributes in any order.
ColumnText ReadColumn(Cursor& c);
// The type of a column named `column` (for the errors), up to its attributes.
TypeText ReadType(Cursor& c, const std::string& column);
// The parenthesised parts of a key: `col`, `col`(n), `col` DESC, (expression).
std::vector<KeyPart> ReadKeyParts(Cursor& c);
// Index options after a key's parts: USING, COMMENT, KEY_BLOCK_SIZE, VISIBLE, ...
void ReadIndexOptions(Cursor& c);
// CHARACTER SET x / CHARSET x / COLLATE y (each optionally with '='), as table and database
// options write them: true when one was read.
bool ReadCharsetOption(Cursor& c, std::string* charset, std::string* collation);

// A key, foreign key or check as written among the columns (or after ALTER TABLE ... ADD),
// after its CONSTRAINT name if any; StartsKey says whether one starts here.
KeyText ReadKey(Cursor& c, std::string constraint);
bool StartsKey(const Cursor& c);
// One table option (ENGINE=, AUTO_INCREMENT=, [DEFAULT] CHARSET=, COMMENT=, ...), into `o`.
void ReadTableOption(Cursor& c, TableOptions& o);

// The names the server gives keys written without one: the first column's, then _2, _3 ...
void NameUnnamedKeys(std::vector<KeyText>& keys);

}  // namespace strata::sqltext
