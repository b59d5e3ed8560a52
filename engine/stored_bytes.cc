#include "engine/stored_bytes.h"

#include "engine/row_codec.h"

namespace strata::engine {

Result<std::string> StoredBytes(const Column& c, const Value& v) {
  auto d = EncodeValue(c, v);
  if (!d.ok()) return d.status();
  return std::move(d->bytes);
}

}  // namespace strata::engine
