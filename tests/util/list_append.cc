#include "tests/util/list_append.h"

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

namespace strata::testing {

namespace {

enum EdgeKind : unsigned { kWw = 1, kWr = 2, kRw = 4 };

struct Edge {
  int to;
  EdgeKind kind;
};

// A list as [a,b,c]; a long one by its ends: [a,b,c ...(n) x,y,z].
std::string Show(const std::vector<int>& list) {
  auto join = [&](std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i < to; ++i) out += (i > from ? "," : "") + std::to_string(list[i]);
    return out;
  };
  if (list.size() <= 8) return "[" + join(0, list.size()) + "]";
  return "[" + join(0, 3) + " ...(" + std::to_string(list.size()) + ") " + join(list.size() - 3, list.size()) + "]";
}

// Strongly connected components of the graph restricted to edges of `kinds` (Tarjan);
// component[v] numbers v's component.
std::vector<int> Components(const std::vector<std::vector<Edge>>& graph, unsigned kinds) {
  const int n = static_cast<int>(graph.size());
  std::vector<int> index(n, -1), low(n, 0), component(n, -1);
  std::vector<bool> on_stack(n, false);
  std::vector<int> stack;
  int next_index = 0, next_component = 0;
  std::function<void(int)> visit = [&](int v) {
    index[v] = low[v] = next_index++;
    stack.push_back(v);
    on_stack[v] = true;
    for (const Edge& e : graph[v]) {
      if (!(e.kind & kinds)) continue;
      if (index[e.to] < 0) {
        visit(e.to);
        low[v] = std::min(low[v], low[e.to]);
      } else if (on_stack[e.to]) {
        low[v] = std::min(low[v], index[e.to]);
      }
    }
    if (low[v] != index[v]) return;
    for (int w = -1; w != v;) {
      w = stack.back();
      stack.pop_back();
      on_stack[w] = false;
      component[w] = next_component;
    }
    ++next_component;
  };
  for (int v = 0; v < n; ++v) {
    if (index[v] < 0) visit(v);
  }
  return component;
}

}  // namespace

std::string ListAppendReport::Summary() const {
  std::ostringstream out;
  out << committed << " committed and " << aborted << " aborted transactions, " << reads << " reads, " << appends
      << " appends; edges ww " << ww << ", wr " << wr << ", rw " << rw << "; anomalies:";
  if (anomalies.empty()) out << " none";
  for (const auto& [name, n] : anomalies) out << ' ' << name << " x" << n;
  for (const auto& e : examples) out << "\n  " << e;
  return out.str();
}

ListAppendReport CheckListAppend(const std::vector<ListTxn>& history,
                                 const std::map<int, std::vector<int>>& final_lists) {
  ListAppendReport rep;
  auto note = [&](const std::string& anomaly, const std::string& what) {
    ++rep.anomalies[anomaly];
    if (rep.examples.size() < 12) rep.examples.push_back(anomaly + ": " + what);
  };
  auto name = [&](const ListTxn& t) { return "T" + std::to_string(t.id); };

  // Who appended each element; committed transactions become the graph's nodes.
  std::map<int, const ListTxn*> writer;
  std::map<const ListTxn*, int> node;
  std::vector<const ListTxn*> nodes;
  for (const ListTxn& t : history) {
    if (t.committed) {
      ++rep.committed;
      node[&t] = static_cast<int>(nodes.size());
      nodes.push_back(&t);
    } else {
      ++rep.aborted;
    }
    for (const ListOp& op : t.ops) {
      if (op.kind == ListOp::kRead) {
        ++rep.reads;
        continue;
      }
      ++rep.appends;
      if (!writer.emplace(op.element, &t).second)
        note("duplicate-element", "element " + std::to_string(op.element) + " appended twice");
    }
  }
  auto final_of = [&](int key) -> const std::vector<int>& {
    static const std::vector<int> kEmpty;
    auto it = final_lists.find(key);
    return it == final_lists.end() ? kEmpty : it->second;
  };

  // The final lists: the version order of each key.
  for (const auto& [key, list] : final_lists) {
    std::set<int> seen;
    for (int e : list) {
      if (!seen.insert(e).second)
        note("duplicate-element", "key " + std::to_string(key) + " holds " + std::to_string(e) + " twice");
      auto w = writer.find(e);
      if (w == writer.end())
        note("unknown-element", "key " + std::to_string(key) + " holds " + std::to_string(e));
      else if (!w->second->committed)
        note("aborted-append-kept",
             "key " + std::to_string(key) + " holds " + std::to_string(e) + " of aborted " + name(*w->second));
    }
  }
  for (const ListTxn* t : nodes) {
    for (const ListOp& op : t->ops) {
      if (op.kind != ListOp::kAppend) continue;
      const auto& list = final_of(op.key);
      if (std::find(list.begin(), list.end(), op.element) == list.end()) {
        note("lost-append", name(*t) + " committed its append of " + std::to_string(op.element) + " to key " +
                                std::to_string(op.key) + ", not in the final list");
      }
    }
  }

  // Edges, each once.
  std::vector<std::vector<Edge>> graph(nodes.size());
  std::set<std::tuple<int, int, unsigned>> made;
  auto edge = [&](const ListTxn* from, const ListTxn* to, EdgeKind kind) {
    if (from == to || !from->committed || !to->committed) return;
    const int a = node[from], b = node[to];
    if (!made.emplace(a, b, kind).second) return;
    graph[a].push_back({b, kind});
    (kind == kWw ? rep.ww : kind == kWr ? rep.wr : rep.rw) += 1;
  };
  for (const auto& [key, list] : final_lists) {
    for (std::size_t i = 0; i + 1 < list.size(); ++i) {
      auto a = writer.find(list[i]), b = writer.find(list[i + 1]);
      if (a != writer.end() && b != writer.end()) edge(a->second, b->second, kWw);
    }
  }
  for (const ListTxn* t : nodes) {
    std::map<int, std::vector<int>> last_read;  // key -> list, forgotten when t appends to the key
    std::map<int, std::vector<int>> own;        // key -> t's appends so far
    for (const ListOp& op : t->ops) {
      if (op.kind == ListOp::kAppend) {
        last_read.erase(op.key);
        own[op.key].push_back(op.element);
        continue;
      }
      // Every level lets a transaction read its own appends, the last of them last.
      if (auto mine = own.find(op.key); mine != own.end()) {
        const auto& elements = mine->second;
        const bool all_there = std::all_of(elements.begin(), elements.end(), [&](int e) {
          return std::find(op.read.begin(), op.read.end(), e) != op.read.end();
        });
        if (!all_there || op.read.empty() || op.read.back() != elements.back()) {
          note("internal", name(*t) + " appended " + Show(elements) + " to key " + std::to_string(op.key) +
                               " and then read " + Show(op.read));
        }
      }
      const auto& list = final_of(op.key);
      std::set<int> seen;
      bool prefix = op.read.size() <= list.size(), dirty = false;
      for (std::size_t i = 0; i < op.read.size(); ++i) {
        const int e = op.read[i];
        if (!seen.insert(e).second) note("duplicate-element", name(*t) + " read " + Show(op.read));
        if (prefix && list[i] != e) prefix = false;
        auto w = writer.find(e);
        if (w == writer.end()) {
          note("unknown-element", name(*t) + " read " + std::to_string(e) + " on key " + std::to_string(op.key));
        } else if (!w->second->committed) {
          dirty = true;
          note("G1a", name(*t) + " read " + std::to_string(e) + " of aborted " + name(*w->second));
        }
      }
      if (dirty) continue;  // a version that never was: it is in no order (nor an edge)
      if (!prefix) {
        note("incompatible-order",
             name(*t) + " read " + Show(op.read) + " on key " + std::to_string(op.key) + ", final " + Show(list));
        continue;
      }
      if (auto it = last_read.find(op.key); it != last_read.end() && it->second != op.read) {
        note("non-repeatable-read",
             name(*t) + " read key " + std::to_string(op.key) + " as " + Show(it->second) + " then " + Show(op.read));
      }
      last_read[op.key] = op.read;
      if (!op.read.empty() && writer.count(op.read.back())) {
        const ListTxn* w = writer.at(op.read.back());
        if (w != t && w->committed) {
          edge(w, t, kWr);
          // G1b: the writer appended to this key again after the element read.
          bool after = false;
          for (const ListOp& wop : w->ops) {
            if (wop.kind == ListOp::kAppend && wop.key == op.key && after) {
              note("G1b", name(*t) + " read " + Show(op.read) + ", an intermediate state of " + name(*w));
              break;
            }
            if (wop.kind == ListOp::kAppend && wop.element == op.read.back()) after = true;
          }
        }
      }
      if (op.read.size() < list.size() && writer.count(list[op.read.size()]))
        edge(t, writer.at(list[op.read.size()]), kRw);
    }
  }

  // Cycles, from the strictest kind of edge up.
  auto describe = [&](const std::vector<int>& component, int c) {
    std::string out;
    int shown = 0;
    for (std::size_t v = 0; v < component.size(); ++v) {
      if (component[v] != c) continue;
      if (shown++ == 8) return out + " ...";
      out += (out.empty() ? "" : " ") + name(*nodes[v]);
    }
    return out;
  };
  auto cycles = [&](unsigned kinds, unsigned must_use, const std::string& anomaly) {
    const std::vector<int> component = Components(graph, kinds);
    std::set<int> reported;
    for (std::size_t v = 0; v < graph.size(); ++v) {
      for (const Edge& e : graph[v]) {
        if ((e.kind & must_use) && component[v] == component[e.to] && reported.insert(component[v]).second) {
          note(anomaly, "a cycle among " + describe(component, component[v]));
        }
      }
    }
    return component;
  };
  cycles(kWw, kWw, "G0");
  cycles(kWw | kWr, kWr, "G1c");
  // Cycles through rw edges, one finding per component and kind: from each rw edge a -> b,
  // a way back from b to a through ww and wr edges alone closes a G-single; a way back that
  // takes another rw edge closes a G2 (a walk over (transaction, rw edge taken yet) states).
  const std::vector<int> all = Components(graph, kWw | kWr | kRw);
  std::set<int> single, g2;
  for (std::size_t a = 0; a < graph.size(); ++a) {
    for (const Edge& e : graph[a]) {
      const int c = all[a];
      if (e.kind != kRw || c != all[static_cast<std::size_t>(e.to)] || (single.count(c) && g2.count(c))) continue;
      std::vector<std::array<bool, 2>> seen(graph.size(), {false, false});
      std::deque<std::pair<int, int>> queue{{e.to, 0}};
      seen[static_cast<std::size_t>(e.to)][0] = true;
      bool back[2] = {false, false};
      while (!queue.empty()) {
        const auto [v, rw] = queue.front();
        queue.pop_front();
        for (const Edge& f : graph[static_cast<std::size_t>(v)]) {
          const auto to = static_cast<std::size_t>(f.to);
          const int next = rw | (f.kind == kRw ? 1 : 0);
          if (all[to] != c || seen[to][next]) continue;
          seen[to][next] = true;
          if (to == a)
            back[next] = true;
          else
            queue.push_back({f.to, next});
        }
      }
      if (back[0] && single.insert(c).second) {
        note("G-single",
             name(*nodes[a]) + " -rw-> " + name(*nodes[static_cast<std::size_t>(e.to)]) + " and back through ww/wr");
      }
      if (back[1] && g2.insert(c).second) {
        note("G2", name(*nodes[a]) + " -rw-> " + name(*nodes[static_cast<std::size_t>(e.to)]) +
                       " and back through another rw edge");
      }
    }
  }
  return rep;
}

}  // namespace strata::testing
