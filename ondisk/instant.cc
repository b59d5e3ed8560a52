#include "ondisk/instant.h"

#include "ondisk/endian.h"

namespace strata::ondisk {

FieldDef MariaDbColumnMapEntry::DroppedField() const {
  const bool nullable = !(raw & kDroppedNotNull);
  const std::uint32_t storage = raw & kColumnBits;
  if (storage == 0) return FieldDef::Variable("(dropped)", 255, nullable);
  if (storage == 1) return FieldDef::Variable("(dropped)", 65535, nullable, true);
  return FieldDef::Fixed("(dropped)", storage - 1, nullable);
}

bool MariaDbRootHasColumnMap(ConstBytes root, std::size_t infimum) {
  return infimum < root.size() && Load8(root, infimum) == 0;
}

Result<std::vector<MariaDbColumnMapEntry>> DecodeMariaDbColumnMap(ConstBytes b) {
  if (b.size() < 4) return Status::CorruptionAt(0, "the column map is " + std::to_string(b.size()) + " bytes long");
  const std::uint32_t n = Load32(b, 0);
  if (b.size() != 4 + 2 * std::size_t{n}) {
    return Status::Corruption("the column map counts " + std::to_string(n) + " fields in " + std::to_string(b.size()) +
                              " bytes");
  }
  std::vector<MariaDbColumnMapEntry> entries(n);
  for (std::uint32_t i = 0; i < n; ++i) entries[i].raw = Load16(b, 4 + 2 * i);
  return entries;
}

}  // namespace strata::ondisk
