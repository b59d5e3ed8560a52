// Status and Result<T>: how ondisk (and every module above it) reports failure.
//
// Bytes read from disk are data, not invariants: a decoder that meets an impossible value
// returns Status::Corruption naming the offset, never asserts and never reads out of bounds.
// Broken internal invariants (an encoder handed a bad argument) are bugs and assert instead.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace strata::ondisk {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kCorruption = 1,
    kInvalidArgument = 2,
    kNotSupported = 3,
    kIoError = 4,
    kNotFound = 5,
    kAlreadyExists = 6,
    kBusy = 7,
    kDeadlock = 8,
    kLockWaitTimeout = 9
  };

  // Which error exactly, beyond its code, for callers that map errors to another system's
  // numbers (the SQL layer's MySQL error codes) without reading the message text. Set where
  // the error is made; kNone elsewhere.
  enum class Reason : std::uint8_t {
    kNone,
    kDuplicateKey,            // a unique key already holds the value
    kDatabaseExists,          // CREATE DATABASE of one that exists
    kTableExists,             // CREATE TABLE of one that exists
    kUnknownDatabase,         // a table created in a database that does not exist
    kNoDatabaseToDrop,        // DROP DATABASE of one that does not exist
    kNoSuchTable,             // a table opened that does not exist
    kUnknownTable,            // DROP TABLE of one that does not exist
    kNullNotAllowed,          // NULL into a NOT NULL column
    kOutOfRange,              // a number outside its column's type
    kDataTooLong,             // a string or binary value longer than its column
    kIncorrectValue,          // a value its column's type cannot read (a number, a string)
    kIncorrectDatetime,       // a date or time its column's type cannot read ('2020-13-45')
    kInvalidCharacterString,  // bytes that are not valid in the column's character set
    kRowTooLargeForLog,       // a row's BLOB/TEXT data over a quarter of the redo log
    kTableUnavailable,        // a table whose file is missing or damaged, left unopened
    kDataTruncated,           // a number with text after it ('12abc')
    kAutoincOutOfRange,       // the next AUTO_INCREMENT value is past its column's type
    kAutoincExhausted,        // a BIGINT UNSIGNED AUTO_INCREMENT has handed out its last value
    kInvalidDefault,          // a column's DEFAULT its own type cannot hold
    kNotGeometry,             // bytes for a spatial column that are not a geometry
    kInvalidJson,             // text for a JSON column that is not a JSON document
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  // The usual form: what is wrong and where, as "offset N: what".
  static Status CorruptionAt(std::size_t offset, const std::string& what) {
    return Corruption("offset " + std::to_string(offset) + ": " + what);
  }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status NotSupported(std::string msg) { return Status(Code::kNotSupported, std::move(msg)); }
  static Status IoError(std::string msg) { return Status(Code::kIoError, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status AlreadyExists(std::string msg) { return Status(Code::kAlreadyExists, std::move(msg)); }
  // A resource is in use or exhausted (a locked data directory, a buffer pool with every frame pinned).
  static Status Busy(std::string msg) { return Status(Code::kBusy, std::move(msg)); }
  // A transaction chosen as a deadlock's victim (and rolled back), or a row lock wait that ran
  // out of time (only the statement is rolled back): MySQL's errors 1213 and 1205.
  static Status Deadlock(std::string msg) { return Status(Code::kDeadlock, std::move(msg)); }
  static Status LockWaitTimeout(std::string msg) { return Status(Code::kLockWaitTimeout, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsAlreadyExists() const { return code_ == Code::kAlreadyExists; }
  bool IsDeadlock() const { return code_ == Code::kDeadlock; }
  bool IsLockWaitTimeout() const { return code_ == Code::kLockWaitTimeout; }
  Code code() const { return code_; }
  Reason reason() const { return reason_; }
  const std::string& message() const { return message_; }

  // A copy that says which error exactly: `Status::NotFound(...).Because(Reason::kNoSuchTable)`.
  Status Because(Reason r) const {
    Status s = *this;
    s.reason_ = r;
    return s;
  }

  // "Corruption: offset 120: ..." — ready for a user-facing line.
  std::string ToString() const;

  // Returns a copy whose message starts with `context` (e.g. "page 7") for callers that
  // know more about where the bytes came from than the decoder did.
  Status WithContext(const std::string& context) const {
    if (ok()) return *this;
    Status s(code_, context + ": " + message_);
    s.reason_ = reason_;
    return s;
  }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  Reason reason_ = Reason::kNone;
  std::string message_;
};

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(v_).ok() && "a Result built from a Status must carry an error");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & {
    assert(ok());
    return std::get<T>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<T>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace strata::ondisk

// Early return on error, LevelDB style.
#define STRATA_RETURN_IF_ERROR(expr)       \
  do {                                     \
    ::strata::ondisk::Status _st = (expr); \
    if (!_st.ok()) return _st;             \
  } while (0)
