// The options that hand the inspector keys for encrypted tablespaces, shared by every command
// that reads pages: --key-file (MariaDB's file_key_management key file) and its --filekey,
// --keyring (MySQL's keyring_file).
#pragma once

#include <boost/program_options.hpp>

#include "inspect/encryption_keys.h"
#include "ondisk/status.h"

namespace strata::cli {

void AddKeyOptions(boost::program_options::options_description& options);
// The keys the options name (none when they name none); errors name the file and line.
ondisk::Result<inspect::EncryptionKeys> KeysFromOptions(const boost::program_options::variables_map& vm);

}  // namespace strata::cli
