#include "ondisk/status.h"

namespace strata::ondisk {

std::string Status::ToString() const {
  switch (code_) {
    case Code::kOk:
      return "OK";
    case Code::kCorruption:
      return "Corruption: " + message_;
    case Code::kInvalidArgument:
      return "Invalid argument: " + message_;
    case Code::kNotSupported:
      return "Not supported: " + message_;
    case Code::kIoError:
      return "I/O error: " + message_;
    case Code::kNotFound:
      return "Not found: " + message_;
    case Code::kAlreadyExists:
      return "Already exists: " + message_;
    case Code::kBusy:
      return "Busy: " + message_;
    case Code::kDeadlock:
      return "Deadlock: " + message_;
    case Code::kLockWaitTimeout:
      return "Lock wait timeout: " + message_;
  }
  return "Unknown status: " + message_;
}

}  // namespace strata::ondisk
