// Keys for reading encrypted tablespaces, loaded from the files the servers keep them in.
// The inspector never writes them anywhere and never prints them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "ondisk/status.h"

namespace strata::inspect {

struct EncryptionKeys {
  // MariaDB's file_key_management: key id -> key (16, 24 or 32 bytes); every key is version 1.
  std::map<std::uint32_t, std::vector<std::uint8_t>> mariadb;
  std::filesystem::path mariadb_file;
  // MySQL's keyring_file: key id (InnoDB's master keys are "INNODBKey-<server uuid>-<n>") -> key.
  std::map<std::string, std::vector<std::uint8_t>> mysql;
  std::filesystem::path mysql_file;

  bool empty() const { return mariadb.empty() && mysql.empty(); }
};

// Reads a file_key_management key file: lines "<id>;<hex key>", '#' comments. A file that
// starts "Salted__" was encrypted with `openssl enc -aes-256-cbc -md sha1 -k SECRET` and needs
// `secret` (the server's file_key_management_filekey; "FILE:<path>" reads it from a file).
// Errors name the file and the line, as the server's do.
ondisk::Status LoadMariaDbKeyFile(const std::filesystem::path& path, const std::string& secret, EncryptionKeys* keys);

// Reads a keyring_file keyring (keyring_file_data; versions 1.0 and 2.0, the latter with its
// SHA-256 checked), as a 64-bit little-endian server writes it.
ondisk::Status LoadMySqlKeyring(const std::filesystem::path& path, EncryptionKeys* keys);

}  // namespace strata::inspect
