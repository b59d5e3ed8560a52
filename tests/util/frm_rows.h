// For inspector tests on MariaDB fixtures: a table's rows as `mariadb -B` prints SELECT *,
// read with the definition in the .frm beside its .ibd (header only: the inspector tests
// alone use it, and the shared test library does not link the inspector).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "inspect/create_table.h"
#include "inspect/frm.h"
#include "inspect/row_output.h"
#include "inspect/rows.h"
#include "inspect/space_file.h"
#include "tests/util/fixtures.h"

namespace strata::testing {

// Every row, header first; a read that loses or cannot decode anything fails the test.
inline std::string RowsByFrm(const inspect::SpaceFile& file) {
  const std::string frm = ReadText(inspect::FrmBeside(file.path()).value_or(""));
  auto def =
      inspect::TableFromFrm({reinterpret_cast<const std::byte*>(frm.data()), frm.size()}, file.path().stem().string());
  EXPECT_TRUE(def.ok()) << def.status().ToString();
  if (!def.ok()) return "";
  EXPECT_TRUE(inspect::PlaceInFile(*def, file).ok());
  std::string out = inspect::TsvHeader(inspect::RowColumns(*def, *def->Clustered()), false);
  inspect::RowScan scan = inspect::ScanRows(file, *def, *def->Clustered(), false,
                                            [&](const inspect::Row& r) { out += inspect::TsvLine(r, false); });
  EXPECT_TRUE(scan.findings.empty()) << scan.findings[0].ToString();
  EXPECT_EQ(scan.unknown_cells, 0u);
  return out;
}

}  // namespace strata::testing
