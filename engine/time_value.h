// TIME values as MySQL reads them: a signed duration of at most 838:59:59.999999, written as
// '[-][D ]HH:MM[:SS][.f]', '[-]HHMMSS[.f]' (or MMSS, SS), a DATETIME whose time part it takes,
// or a number read the same way (123456 is 12:34:56, 12.5 twelve and a half seconds).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/value.h"
#include "ondisk/column_format.h"

namespace strata::engine {

using TimeParts = ondisk::DateTimeParts;  // hour may pass 23; negative for a negative duration

// nullopt when `text` is none of the forms, or a minute or second is past 59. The result may
// lie past the range (839:00:00): see TimeInRange.
std::optional<TimeParts> ParseTime(std::string_view text);
// The same for a value: text, or a number read as HHMMSS[.ffffff] (123456, 12.5, -12).
std::optional<TimeParts> ParseTime(const Value& v);
bool TimeInRange(const TimeParts& t);
// The nearest time in range: ±838:59:59 with the fraction `fsp` digits can hold.
TimeParts ClampTime(TimeParts t, std::uint32_t fsp);
// "-838:59:59.999" with `fsp` fractional digits (the rest dropped, as the server truncates).
std::string TimeText(const TimeParts& t, std::uint32_t fsp);
// The signed duration in microseconds: what TIME values compare by.
std::int64_t TimeMicros(const TimeParts& t);

}  // namespace strata::engine
