#include "cli/key_options.h"

namespace strata::cli {

namespace po = boost::program_options;

void AddKeyOptions(po::options_description& options) {
  options.add_options()("key-file", po::value<std::string>(),
                        "MariaDB: decrypt with the keys of this file_key_management key file (id;hex key lines)")(
      "filekey", po::value<std::string>(),
      "MariaDB: the secret the key file is encrypted with (file_key_management_filekey; FILE:PATH reads it from a "
      "file)")("keyring", po::value<std::string>(),
               "MySQL: decrypt with the master keys of this keyring_file keyring (keyring_file_data)");
}

ondisk::Result<inspect::EncryptionKeys> KeysFromOptions(const po::variables_map& vm) {
  inspect::EncryptionKeys keys;
  if (vm.count("filekey") && !vm.count("key-file")) {
    return ondisk::Status::InvalidArgument("--filekey is the secret of a --key-file; give the key file too");
  }
  if (vm.count("key-file")) {
    ondisk::Status st = inspect::LoadMariaDbKeyFile(vm["key-file"].as<std::string>(),
                                                    vm.count("filekey") ? vm["filekey"].as<std::string>() : "", &keys);
    if (!st.ok()) return st;
  }
  if (vm.count("keyring")) {
    ondisk::Status st = inspect::LoadMySqlKeyring(vm["keyring"].as<std::string>(), &keys);
    if (!st.ok()) return st;
  }
  return keys;
}

}  // namespace strata::cli
