// Statements an experiment sends through a SQL session, as a client would.
#pragma once

#include <fmt/format.h>

#include <string>

#include "ondisk/status.h"
#include "sql/session.h"

namespace strata::experiments {

// Runs one statement; an error becomes InvalidArgument naming the statement (its first 120
// characters) and MySQL's code, SQLSTATE and message. `out`, when given, keeps the first value
// of the result.
inline ondisk::Status RunSql(sql::Session& session, const std::string& text, sql::FirstValueSink* out = nullptr) {
  sql::FirstValueSink ignore;
  auto o = session.Execute(text, out ? *out : ignore);
  if (!o.error) return ondisk::Status::Ok();
  const std::string shown = text.size() > 120 ? text.substr(0, 120) + "..." : text;
  return ondisk::Status::InvalidArgument(
      fmt::format("{}: ERROR {} ({}): {}", shown, o.error->code, o.error->sqlstate, o.error->message));
}

}  // namespace strata::experiments
