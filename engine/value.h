// A column value as the API takes and returns it: NULL, a signed or unsigned integer, a
// double, or text (strings, binary strings, DECIMAL as "12.50", dates as "2024-01-31",
// DATETIME/TIMESTAMP as "2024-01-31 10:00:00[.ffffff]").
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "ondisk/status.h"

namespace strata::engine {

using ondisk::Result;
using ondisk::Status;

class Value {
 public:
  Value() = default;  // NULL
  static Value Null() { return {}; }
  static Value Int(std::int64_t v) { return Value(v); }
  static Value UInt(std::uint64_t v) { return Value(v); }
  static Value Double(double v) { return Value(v); }
  static Value String(std::string v) { return Value(std::move(v)); }

  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_int() const { return std::holds_alternative<std::int64_t>(v_); }
  bool is_uint() const { return std::holds_alternative<std::uint64_t>(v_); }
  bool is_double() const { return std::holds_alternative<double>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(v_); }
  std::uint64_t as_uint() const { return std::get<std::uint64_t>(v_); }
  double as_double() const { return std::get<double>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }

  // The value as the mysql client prints it ("NULL" for NULL).
  std::string ToString() const;
  bool operator==(const Value&) const = default;

 private:
  template <typename T>
  explicit Value(T v) : v_(std::move(v)) {}
  std::variant<std::monostate, std::int64_t, std::uint64_t, double, std::string> v_;
};

}  // namespace strata::engine
