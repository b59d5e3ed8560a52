// A tablespace's pages as the readers want them: decrypted with the keys given (MariaDB's
// file_key_management, MySQL's keyring) and MariaDB's PAGE_COMPRESSED pages decompressed, in a
// private copy; and the rules a page of the file is checked by, which encryption and page
// compression change (what is checksummed, what can be verified without the key).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "inspect/encryption_keys.h"
#include "inspect/finding.h"
#include "inspect/space_shape.h"
#include "ondisk/checksum.h"
#include "ondisk/mariadb_encryption.h"
#include "ondisk/mysql_encryption.h"

namespace strata::inspect {

// What unpacking found and did.
struct UnpackedPages {
  std::map<std::string, std::uint32_t> compressed_pages;  // page-compressed pages read, by algorithm
  std::optional<ondisk::MariaDbCryptData> mariadb_crypt;  // MariaDB's encryption, from page 0
  std::uint32_t decrypted_pages = 0;
  std::string decrypted_with;  // "key id 1 of keys.txt, AES-CBC"; empty when nothing was decrypted
};

// How the pages of a tablespace of `shape` are recognised and checked.
class PageRules {
 public:
  PageRules(const SpaceShape& shape, bool mariadb_encrypted) : shape_(shape), mariadb_encrypted_(mariadb_encrypted) {}
  // MySQL's encrypted page types, which say it even when page 0 cannot be read.
  bool IsMySqlEncryptedType(ondisk::ConstBytes page) const;
  // An encrypted page, MySQL's (by its type) or MariaDB's (by its key version).
  bool IsEncryptedPage(ondisk::ConstBytes page) const;
  // The page checked as pages of this tablespace are written (full_crc32, compressed or not;
  // MySQL-encrypted pages come back `encrypted`, neither valid nor damaged).
  ondisk::PageCheck CheckPage(ondisk::ConstBytes page) const;

 private:
  const SpaceShape& shape_;
  bool mariadb_encrypted_;
};

class PageUnpacker {
 public:
  // `stored`: the file's pages as stored; `out.mariadb_crypt` already read from page 0.
  PageUnpacker(const std::string& name, const SpaceShape& shape, ondisk::ConstBytes stored, UnpackedPages& out,
               std::vector<Finding>& findings)
      : name_(name),
        shape_(shape),
        stored_(stored),
        out_(out),
        findings_(findings),
        rules_(shape, out.mariadb_crypt.has_value()) {}

  // The unpacked copy (an anonymous private mapping of n_pages * page_size bytes, each page
  // made to check as its stored form did), or null when there is nothing to unpack or no memory.
  std::byte* Unpack(const EncryptionKeys* keys);

 private:
  ondisk::ConstBytes Page(std::uint32_t n) const {
    return stored_.subspan(std::size_t{n} * shape_.page_size, shape_.page_size);
  }
  std::optional<ondisk::MariaDbPageKey> MariaDbKey(const EncryptionKeys* keys, ondisk::MariaDbCipher* cipher);
  std::optional<ondisk::MySqlTablespaceKey> MySqlKey(const EncryptionKeys* keys);
  void CheckAsStored(ondisk::ConstBytes stored, ondisk::MutableBytes into, bool was_decrypted) const;

  const std::string& name_;
  const SpaceShape& shape_;
  ondisk::ConstBytes stored_;
  UnpackedPages& out_;
  std::vector<Finding>& findings_;
  PageRules rules_;
};

}  // namespace strata::inspect
