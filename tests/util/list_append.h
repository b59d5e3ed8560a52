// A checker for list-append histories, after Jepsen's Elle (Kingsbury and Alvaro, "Elle:
// Inferring Isolation Anomalies from Experimental Observations", 2020).
//
// Clients run transactions of reads and appends on a few keys, each key's value a list, each
// appended element unique. Because every element is unique and lists only grow, the final
// list of a key is the order in which its versions were installed, and every read names the
// version it saw. From that the checker infers, between committed transactions:
//   ww  T1 -> T2  T2 appended the element right after T1's on some key;
//   wr  T1 -> T2  T2 read a list whose last element T1 appended;
//   rw  T1 -> T2  T1 read a list that ends just before T2's element on some key;
// and reports Adya's anomalies:
//   G0        a cycle of ww edges (dirty write);
//   G1a       a committed transaction read an element of an aborted one (aborted read);
//   G1b       it read a list ending in an element its writer later followed on that key
//             with another (intermediate read);
//   G1c       a cycle of ww and wr edges (circular information flow);
//   G-single  a cycle with exactly one rw edge (read skew);
//   G2        a cycle with rw edges that is not G-single (write skew among them);
// and, without cycles:
//   lost-append            a committed append missing from its key's final list;
//   aborted-append-kept    an aborted transaction's element in a final list;
//   incompatible-order     a read that is not a prefix of its key's final list (two reads
//                          that do not extend one another, or one holding a lost element);
//   duplicate-element      an element twice in one list;
//   unknown-element        an element nobody appended;
//   non-repeatable-read    a transaction read a key twice, with no append of its own to it in
//                          between, and saw two different lists;
//   internal               a transaction read a key it had appended to without its own
//                          elements, the last of them last (forbidden at every level).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace strata::testing {

struct ListOp {
  enum Kind { kRead, kAppend } kind = kRead;
  int key = 0;
  int element = 0;        // appends: the element appended
  std::vector<int> read;  // reads: the list seen
};

struct ListTxn {
  int id = 0;
  bool committed = false;  // else aborted (rolled back, or refused by a deadlock or a timeout)
  std::vector<ListOp> ops;
};

struct ListAppendReport {
  std::size_t committed = 0, aborted = 0, reads = 0, appends = 0;
  std::size_t ww = 0, wr = 0, rw = 0;
  std::map<std::string, int> anomalies;  // name -> how many were found
  std::vector<std::string> examples;     // the first few, described
  int count(const std::string& anomaly) const {
    auto it = anomalies.find(anomaly);
    return it == anomalies.end() ? 0 : it->second;
  }
  std::string Summary() const;
};

// `final_lists` is each key's list read once every client has stopped.
ListAppendReport CheckListAppend(const std::vector<ListTxn>& history,
                                 const std::map<int, std::vector<int>>& final_lists);

}  // namespace strata::testing
