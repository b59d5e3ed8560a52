#include "ondisk/redo_record.h"

#include "ondisk/mach.h"

namespace strata::ondisk {

std::string ToString(RedoType t) {
  switch (t) {
    case RedoType::kWrite:
      return "WRITE";
    case RedoType::kInit:
      return "INIT";
    case RedoType::kExtend:
      return "EXTEND";
    case RedoType::kMtrEnd:
      return "MTR_END";
  }
  return "type " + std::to_string(static_cast<int>(t));
}

void AppendRedoWrite(std::vector<std::byte>& out, std::uint32_t space, std::uint32_t page, std::uint16_t offset,
                     ConstBytes bytes) {
  out.push_back(std::byte{static_cast<std::uint8_t>(RedoType::kWrite)});
  WriteCompressed32(out, space);
  WriteCompressed32(out, page);
  out.push_back(std::byte{static_cast<std::uint8_t>(offset >> 8)});
  out.push_back(std::byte{static_cast<std::uint8_t>(offset)});
  WriteCompressed32(out, static_cast<std::uint32_t>(bytes.size()));
  out.insert(out.end(), bytes.begin(), bytes.end());
}

void AppendRedoInit(std::vector<std::byte>& out, std::uint32_t space, std::uint32_t page) {
  out.push_back(std::byte{static_cast<std::uint8_t>(RedoType::kInit)});
  WriteCompressed32(out, space);
  WriteCompressed32(out, page);
}

void AppendRedoExtend(std::vector<std::byte>& out, std::uint32_t space, std::uint32_t pages) {
  out.push_back(std::byte{static_cast<std::uint8_t>(RedoType::kExtend)});
  WriteCompressed32(out, space);
  WriteCompressed32(out, pages);
}

void AppendRedoMtrEnd(std::vector<std::byte>& out) {
  out.push_back(std::byte{static_cast<std::uint8_t>(RedoType::kMtrEnd)});
}

Result<std::optional<RedoRecord>> ParseRedoRecord(ConstBytes buf, std::size_t at, std::size_t page_size,
                                                  std::size_t* next) {
  using Out = std::optional<RedoRecord>;
  if (at >= buf.size()) return Out();
  RedoRecord r;
  const auto type = Load8(buf, at);
  r.type = static_cast<RedoType>(type);
  std::size_t p = at + 1;
  // 1: read; 0: the buffer ends inside it (the group was cut short); -1: malformed.
  auto c32 = [&](std::uint32_t& v) -> int {
    if (p >= buf.size()) return 0;
    const std::uint8_t first = Load8(buf, p);
    const std::size_t n = first < 0x80    ? 1
                          : first < 0xC0  ? 2
                          : first < 0xE0  ? 3
                          : first < 0xF0  ? 4
                          : first == 0xF0 ? 5
                                          : 0;
    if (n == 0) return -1;
    if (p + n > buf.size()) return 0;
    auto d = ReadCompressed32(buf, p);
    if (!d.ok()) return -1;
    v = static_cast<std::uint32_t>(d->value);
    p += d->size;
    return 1;
  };
  auto bad = [&](const std::string& what) { return Status::CorruptionAt(at, "redo record: " + what); };
  switch (r.type) {
    case RedoType::kMtrEnd:
      *next = p;
      return Out(r);
    case RedoType::kWrite:
    case RedoType::kInit:
    case RedoType::kExtend: {
      for (std::uint32_t* v : {&r.space, &r.page}) {
        const int got = c32(*v);
        if (got < 0) return bad("malformed compressed integer");
        if (got == 0) return Out();
      }
      if (r.type != RedoType::kWrite) {
        *next = p;
        return Out(r);
      }
      if (p + 2 > buf.size()) return Out();
      r.offset = Load16(buf, p);
      p += 2;
      std::uint32_t len = 0;
      const int got = c32(len);
      if (got < 0) return bad("malformed compressed integer");
      if (got == 0) return Out();
      if (std::size_t{r.offset} + len > page_size)
        return bad("write of " + std::to_string(len) + " bytes at offset " + std::to_string(r.offset) +
                   " runs past the page");
      if (p + len > buf.size()) return Out();
      r.bytes = buf.subspan(p, len);
      *next = p + len;
      return Out(r);
    }
  }
  return bad("unknown record type " + std::to_string(type));
}

}  // namespace strata::ondisk
