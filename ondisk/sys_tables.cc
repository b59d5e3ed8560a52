#include "ondisk/sys_tables.h"

#include "ondisk/endian.h"

namespace strata::ondisk {

namespace {

std::string Text(ConstBytes b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

}  // namespace

std::optional<SysTablesRow> DecodeSysTables(const SysFields& r) {
  if (r.size() < 4 || r[3].size() != 8) return std::nullopt;
  SysTablesRow row{Text(r[0]), Load64(r[3], 0), std::nullopt};
  if (r.size() >= 10 && r[9].size() == 4) row.space = Load32(r[9], 0);
  return row;
}

std::optional<SysColumnsRow> DecodeSysColumns(const SysFields& r) {
  if (r.size() < 8 || r[0].size() != 8 || r[1].size() != 4 || r[5].size() != 4 || r[6].size() != 4 || r[7].size() != 4)
    return std::nullopt;
  return SysColumnsRow{Load64(r[0], 0),
                       {Text(r[4]), Load32(r[1], 0), Load32(r[5], 0), Load32(r[6], 0), Load32(r[7], 0)}};
}

std::optional<SysIndexesRow> DecodeSysIndexes(const SysFields& r) {
  if (r.size() < 9 || r[0].size() != 8 || r[1].size() != 8 || r[6].size() != 4 || r[8].size() != 4) return std::nullopt;
  return SysIndexesRow{Load64(r[0], 0), Load64(r[1], 0), Text(r[4]), Load32(r[6], 0), Load32(r[8], 0)};
}

std::optional<SysFieldsRow> DecodeSysFields(const SysFields& r) {
  if (r.size() < 5 || r[0].size() != 8 || r[1].size() != 4) return std::nullopt;
  return SysFieldsRow{Load64(r[0], 0), Load32(r[1], 0), Text(r[4])};
}

}  // namespace strata::ondisk
