#include "engine/time_value.h"

#include <cctype>
#include <cstdio>

namespace strata::engine {

namespace {

constexpr std::int64_t kMaxHours = 838;

bool Digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::int64_t Number(std::string_view s) {
  std::int64_t n = 0;
  for (char c : s) n = n > 1'000'000'000'000 ? n : n * 10 + (c - '0');  // saturates: past any range
  return n;
}

// ".f" to microseconds (more than six digits dropped); false when it is not digits.
bool Fraction(std::string_view f, std::uint32_t& micro) {
  if (f.empty()) return true;
  if (!Digits(f)) return false;
  std::string six(f.substr(0, 6));
  six.resize(6, '0');
  micro = static_cast<std::uint32_t>(Number(six));
  return true;
}

// "HH:MM[:SS]" (also "HH" after days): hours any number of digits, minutes and seconds two
// at most and below 60.
bool Clock(std::string_view s, TimeParts& t) {
  std::int64_t part[3] = {0, 0, 0};
  int n = 0;
  while (true) {
    const std::size_t colon = s.find(':');
    const std::string_view p = s.substr(0, colon);
    if (!Digits(p) || n == 3 || (n > 0 && p.size() > 2)) return false;
    part[n++] = Number(p);
    if (colon == std::string_view::npos) break;
    s.remove_prefix(colon + 1);
  }
  if (part[1] > 59 || part[2] > 59) return false;
  t.hour = static_cast<int>(std::min<std::int64_t>(part[0], 1'000'000)), t.minute = static_cast<int>(part[1]);
  t.second = static_cast<int>(part[2]);
  return true;
}

// "HHMMSS" read from the right: "59" is seconds, "1011" ten minutes eleven seconds.
bool Packed(std::string_view s, TimeParts& t) {
  if (!Digits(s)) return false;
  if (s.size() > 14) {  // past even a DATETIME's digits: a time out of range (1e20 is clamped)
    t.hour = 1'000'000;
    return true;
  }
  const std::int64_t n = Number(s);
  t.second = static_cast<int>(n % 100), t.minute = static_cast<int>(n / 100 % 100);
  t.hour = static_cast<int>(std::min<std::int64_t>(n / 10000, 1'000'000));
  return t.minute <= 59 && t.second <= 59;
}

}  // namespace

std::optional<TimeParts> ParseTime(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  TimeParts t;
  if (!text.empty() && text.front() == '-') {
    t.negative = true;
    text.remove_prefix(1);
  }
  // A DATETIME ('2024-01-02 03:04:05'): its time part.
  if (text.size() >= 10 && text[4] == '-' && text[7] == '-') {
    if (t.negative) return std::nullopt;
    const std::size_t space = text.find_first_of(" T");
    if (space == std::string_view::npos) return std::nullopt;  // a DATE alone is no time, as MariaDB reads it
    text.remove_prefix(space + 1);
  }
  const std::size_t dot = text.find('.');
  if (!Fraction(dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1), t.micro))
    return std::nullopt;
  std::string_view whole = text.substr(0, dot);
  std::int64_t days = 0;
  if (const std::size_t space = whole.find(' '); space != std::string_view::npos) {
    if (!Digits(whole.substr(0, space))) return std::nullopt;
    days = Number(whole.substr(0, space));
    whole.remove_prefix(space + 1);
    if (!Clock(whole, t)) return std::nullopt;
  } else if (whole.find(':') != std::string_view::npos) {
    if (!Clock(whole, t)) return std::nullopt;
  } else if (!Packed(whole, t)) {
    return std::nullopt;
  }
  t.hour = static_cast<int>(std::min<std::int64_t>(t.hour + 24 * days, 1'000'000));
  if (t.hour == 0 && t.minute == 0 && t.second == 0 && t.micro == 0) t.negative = false;  // -0 is 0
  return t;
}

std::optional<TimeParts> ParseTime(const Value& v) {
  if (v.is_null()) return std::nullopt;
  if (v.is_string()) return ParseTime(std::string_view(v.as_string()));
  if (v.is_double()) {
    char text[400];
    std::snprintf(text, sizeof text, "%.6f", v.as_double());
    return ParseTime(std::string_view(text));
  }
  return ParseTime(std::string_view(v.ToString()));
}

bool TimeInRange(const TimeParts& t) { return t.hour <= kMaxHours; }

TimeParts ClampTime(TimeParts t, std::uint32_t fsp) {
  if (TimeInRange(t)) return t;
  t.hour = static_cast<int>(kMaxHours), t.minute = 59, t.second = 59;
  std::uint32_t unit = 1;
  for (std::uint32_t i = fsp; i < 6; ++i) unit *= 10;
  t.micro = 999999 / unit * unit;
  return t;
}

std::string TimeText(const TimeParts& t, std::uint32_t fsp) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%02d:%02d:%02d", t.negative ? "-" : "", t.hour, t.minute, t.second);
  std::string out = buf;
  if (fsp) {
    std::snprintf(buf, sizeof buf, "%06u", t.micro);
    out += "." + std::string(buf, fsp);
  }
  return out;
}

std::int64_t TimeMicros(const TimeParts& t) {
  const std::int64_t us = ((static_cast<std::int64_t>(t.hour) * 60 + t.minute) * 60 + t.second) * 1'000'000 + t.micro;
  return t.negative ? -us : us;
}

}  // namespace strata::engine
