// The SQLite calls the benchmarks that measure it as the peer share (engine_bench, trx_bench).
#pragma once

#include <sqlite3.h>

#include <string>

namespace strata::bench {

// Runs SQL text; an empty string, or the statement and SQLite's message.
inline std::string SqlExec(sqlite3* db, const std::string& sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    std::string e = sql + ": " + (msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return e;
  }
  return {};
}

// A prepared statement, finalized when it goes away.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return rc_ == SQLITE_OK; }
  sqlite3_stmt* get() const { return s_; }

 private:
  sqlite3_stmt* s_ = nullptr;
  int rc_ = SQLITE_OK;
};

}  // namespace strata::bench
