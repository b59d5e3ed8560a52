// A consistent-read view (InnoDB's ReadView): which transactions' changes a reader sees.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace strata::engine {

struct ReadView {
  std::uint64_t creator = 0;       // the transaction that opened it (sees its own changes)
  std::uint64_t low_limit_id = 0;  // ids at or above: started after the view, unseen
  std::uint64_t up_limit_id = 0;   // ids below: committed before the view, seen
  std::uint64_t low_limit_no = 0;  // undo of transactions serialised below this number is not needed
  std::vector<std::uint64_t> ids;  // active (uncommitted) when the view opened, ascending

  bool Sees(std::uint64_t trx_id) const {
    if (trx_id == creator || trx_id < up_limit_id) return true;
    if (trx_id >= low_limit_id) return false;
    return !std::binary_search(ids.begin(), ids.end(), trx_id);
  }
};

}  // namespace strata::engine
