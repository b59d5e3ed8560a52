// The .frm file MySQL 5.x and MariaDB keep beside each table's .ibd: the server's own definition
// of the table, with every detail the client prints by (DECIMAL's scale, ENUM labels, fractional-
// second digits, ZEROFILL, ...) that InnoDB's SYS_COLUMNS does not keep. Little-endian throughout:
//
//   header (64 bytes)  FE 01; @4 u16 length of MariaDB's extra2 segment (MySQL: 3); @6 u16 where
//                      the keys are; @51 u32 server version
//   extra2 (MariaDB, from 64): type, length (0: a u16 follows), data ...; 129 per-column flags
//                      (invisible), 130 per-column data type names (UUID, INET6, ...)
//   forminfo           at the u32 that follows extra2: 288 bytes, @258 column count, @260 screen
//                      bytes, @268 name bytes, @274 ENUM/SET list bytes, @284 comment bytes,
//                      @286 expression bytes (generated columns, defaults)
//   columns            after forminfo and the screens: 17 bytes each (@3 length, @8 pack flags,
//                      @10 unireg check (MySQL 5.7: bit 7 generated), @11 collation high byte,
//                      @12 ENUM/SET list, @13 type, @14 collation), then the names, the lists,
//                      the comments, the expressions
//   keys               @0 count (two bytes when its bit 7 is set), @4 u16 name bytes; from @6
//                      8 bytes a key (@0 flags, @4 parts, @5 algorithm) and 9 a part (@0 column
//                      + 1, @7 bytes), then the key names
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ondisk/status.h"
#include "ondisk/endian.h"

namespace strata::ondisk {

// A column's pack flags (FIELDFLAG_* of the server's field.h).
struct FrmPack {
  static constexpr std::uint16_t kSigned = 0x1;  // with kNumber: signed; for strings: binary
  static constexpr std::uint16_t kNumber = 0x2;
  static constexpr std::uint16_t kZerofill = 0x4;
  static constexpr std::uint16_t kInterval = 0x100;  // ENUM, when the type says STRING
  static constexpr std::uint16_t kBitfield = 0x200;  // SET, when the type says STRING
  static constexpr std::uint16_t kMaybeNull = 0x8000;
  static constexpr int kDecimalsShift = 8;
};

// A key's flags (HA_* of the server's my_base.h), as DecodeFrm returns them: HA_NOSAME, stored
// inverted, already turned back.
struct FrmKeyFlag {
  static constexpr std::uint16_t kUnique = 1;
  static constexpr std::uint16_t kFulltext = 128;
  static constexpr std::uint16_t kSpatial = 1024;
};
// MariaDB's long UNIQUE keys are checked through a hidden hash column, not an index of their own.
inline constexpr std::uint8_t kFrmKeyAlgorithmLongHash = 4;

struct FrmColumn {
  std::string name;
  std::uint32_t length = 0;  // display width, or bytes (strings), or bits (BIT)
  std::uint16_t pack = 0;    // FrmPack
  std::uint32_t decimals = 0;
  std::uint8_t type = 0;      // mysql_type.h
  std::uint8_t interval = 0;  // 1-based ENUM/SET list, 0 for none
  int collation = 0;
  std::string type_name;  // MariaDB's data type name from extra2 (uuid, inet6, ...), if any
  bool invisible = false;
  bool is_virtual = false;
  bool generated = false;
  bool compressed = false;  // MariaDB's COMPRESSED column: values stored zlib-compressed

  bool nullable() const { return pack & FrmPack::kMaybeNull; }
  bool is_unsigned() const { return (pack & FrmPack::kNumber) && !(pack & FrmPack::kSigned); }
  bool zerofill() const { return pack & FrmPack::kZerofill; }
};

struct FrmKeyPart {
  std::size_t column = 0;  // into FrmFile::columns
  std::uint32_t bytes = 0;
};

struct FrmKey {
  std::string name;
  std::uint16_t flags = 0;  // FrmKeyFlag
  std::uint8_t algorithm = 0;
  std::vector<FrmKeyPart> parts;
};

struct FrmFile {
  std::uint32_t server_version = 0;
  std::vector<FrmColumn> columns;
  std::vector<std::vector<std::string>> intervals;  // the ENUM/SET label lists
  std::vector<FrmKey> keys;
  // MySQL 5.7 marks a generated column without saying whether it is stored; the first one's
  // index, which a reader must refuse rather than guess.
  std::optional<std::size_t> mysql_generated_column;

  bool mariadb() const { return server_version >= 100000; }  // MariaDB numbers its versions from 10.0
};

// The .frm in `bytes`. Corruption naming the byte offset when it is cut short or inconsistent.
Result<FrmFile> DecodeFrm(ConstBytes bytes);

}  // namespace strata::ondisk
