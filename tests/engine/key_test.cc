// How index keys order text: PAD SPACE, as the server's CHAR/VARCHAR collations do. The
// shorter string compares as if padded with spaces, so a byte below a space after a common
// prefix sorts first. The orders below are the ones MariaDB 10.11 gives (ORDER BY on a
// utf8mb4_bin and a utf8mb4_general_ci column; tests/cli/sql_cli_test.cc checks it live).
#include "engine/key.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace strata::engine {
namespace {

int Compare(CompareKind kind, const std::string& a, const std::string& b) {
  auto bytes = [](const std::string& s) {
    return ondisk::ConstBytes(reinterpret_cast<const std::byte*>(s.data()), s.size());
  };
  return CompareField(kind, false, bytes(a), false, bytes(b));
}

void ExpectAscending(CompareKind kind, const std::vector<std::string>& in_order) {
  for (std::size_t i = 0; i < in_order.size(); ++i) {
    EXPECT_EQ(Compare(kind, in_order[i], in_order[i]), 0);
    for (std::size_t j = i + 1; j < in_order.size(); ++j) {
      EXPECT_LT(Compare(kind, in_order[i], in_order[j]), 0) << i << " < " << j;
      EXPECT_GT(Compare(kind, in_order[j], in_order[i]), 0) << j << " > " << i;
    }
  }
}

TEST(KeyTest, PadSpaceOrdersBytesBelowASpaceFirst) {
  ExpectAscending(CompareKind::kPadSpace, {"A", "a\t", "a \t", "a", "a~", "b"});
  EXPECT_EQ(Compare(CompareKind::kPadSpace, "a", "a   "), 0);
  EXPECT_LT(Compare(CompareKind::kPadSpace, "B", "b\t"), 0);  // bytes: 'B' < 'b'
}

TEST(KeyTest, CaseFoldingFoldsAsciiLettersAndPadsToo) {
  ExpectAscending(CompareKind::kGeneralCi, {"b\t", "b \t", "B", "b~", "C"});
  EXPECT_EQ(Compare(CompareKind::kGeneralCi, "abc", "ABC  "), 0);
}

}  // namespace
}  // namespace strata::engine
