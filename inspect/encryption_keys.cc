#include "inspect/encryption_keys.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <cctype>
#include <fstream>
#include <iterator>
#include <memory>

namespace strata::inspect {

using ondisk::Status;

namespace {

constexpr std::size_t kMaxKeyFile = 1 << 20;  // the server reads no more

Status ReadSmallFile(const std::filesystem::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError(path.string() + ": cannot be read");
  out->assign(std::istreambuf_iterator<char>(in), {});
  if (out->size() > kMaxKeyFile)
    return Status::InvalidArgument(path.string() + ": larger than a key file can be (1 MiB)");
  return Status::Ok();
}

// `openssl enc -aes-256-cbc -md sha1 -k SECRET`: "Salted__", 8 bytes of salt, then the text
// encrypted with the key and IV that EVP_BytesToKey derives from the secret and salt.
Status DecryptSalted(const std::filesystem::path& path, const std::string& secret, std::string* text) {
  constexpr std::size_t kHeader = 16;
  if (text->size() < kHeader + 16 || (text->size() - kHeader) % 16) {
    return Status::Corruption(path.string() + ": an encrypted key file, but not whole AES blocks after its salt");
  }
  const auto* salt = reinterpret_cast<const unsigned char*>(text->data() + 8);
  unsigned char key[32], iv[16];
  if (EVP_BytesToKey(EVP_aes_256_cbc(), EVP_sha1(), salt, reinterpret_cast<const unsigned char*>(secret.data()),
                     static_cast<int>(secret.size()), 1, key, iv) != 32) {
    return Status::InvalidArgument("OpenSSL could not derive the key file's key");
  }
  std::string clear(text->size(), '\0');
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int n = 0, tail = 0;
  auto* out = reinterpret_cast<unsigned char*>(clear.data());
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_cbc(), nullptr, key, iv) != 1 ||
      EVP_DecryptUpdate(ctx.get(), out, &n, reinterpret_cast<const unsigned char*>(text->data() + kHeader),
                        static_cast<int>(text->size() - kHeader)) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), out + n, &tail) != 1) {
    return Status::InvalidArgument(path.string() + ": cannot be decrypted with the given file key (wrong secret?)");
  }
  clear.resize(static_cast<std::size_t>(n + tail));
  *text = std::move(clear);
  return Status::Ok();
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::uint64_t LoadLe64(const std::string& b, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 8; i-- > 0;) v = (v << 8) | static_cast<std::uint8_t>(b[at + i]);
  return v;
}

}  // namespace

// keyring_file: "Keyring file version:1.0" or ":2.0" (24 bytes), the keys, "EOF", and in 2.0 a
// SHA-256 of the keys. Each key: five 8-byte lengths (the whole record padded to 8 bytes, id,
// type, user, key), then those fields; the key bytes are XORed with a fixed 24-byte string.
Status LoadMySqlKeyring(const std::filesystem::path& path, EncryptionKeys* keys) {
  static const std::string kV1 = "Keyring file version:1.0", kV2 = "Keyring file version:2.0";
  static const std::string kObfuscation = "*305=Ljt0*!@$Hnm(*-9-w;:";
  std::string b;
  if (Status st = ReadSmallFile(path, &b); !st.ok()) return st;
  auto bad = [&](const std::string& why) { return Status::Corruption(path.string() + ": " + why); };
  const bool v2 = b.rfind(kV2, 0) == 0;
  if (!v2 && b.rfind(kV1, 0) != 0) return bad("not a keyring_file keyring (no \"Keyring file version:\" header)");
  const std::size_t digest = v2 ? SHA256_DIGEST_LENGTH : 0;
  if (b.size() < kV2.size() + 3 + digest || b.compare(b.size() - digest - 3, 3, "EOF") != 0) {
    return bad("truncated: no EOF mark where the keys end");
  }
  const std::size_t begin = kV2.size(), end = b.size() - digest - 3;
  if (v2) {
    unsigned char sum[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(b.data() + begin), end - begin, sum);
    if (b.compare(end + 3, digest, reinterpret_cast<const char*>(sum), digest) != 0) {
      return bad("its SHA-256 does not match its keys: damaged");
    }
  }
  std::map<std::string, std::vector<std::uint8_t>> found;
  for (std::size_t at = begin; at < end;) {
    if (end - at < 40) return bad("byte " + std::to_string(at) + ": a key record shorter than its lengths");
    const std::uint64_t record = LoadLe64(b, at), id_len = LoadLe64(b, at + 8), type_len = LoadLe64(b, at + 16),
                        user_len = LoadLe64(b, at + 24), key_len = LoadLe64(b, at + 32);
    const std::uint64_t fields = 40 + id_len + type_len + user_len + key_len;
    if (id_len > record || type_len > record || user_len > record || key_len > record || fields > record ||
        record % 8 || record > end - at) {
      return bad("byte " + std::to_string(at) + ": a key record whose lengths do not fit it");
    }
    const std::size_t f = at + 40;
    const std::string id = b.substr(f, id_len), type = b.substr(f + id_len, type_len);
    const std::string key = b.substr(f + id_len + type_len + user_len, key_len);
    if (type == "AES") {
      std::vector<std::uint8_t> k(key.size());
      for (std::size_t i = 0; i < key.size(); ++i)
        k[i] = static_cast<std::uint8_t>(key[i] ^ kObfuscation[i % kObfuscation.size()]);
      found[id] = std::move(k);
    }
    at += record;
  }
  keys->mysql = std::move(found);
  keys->mysql_file = path;
  return Status::Ok();
}

Status LoadMariaDbKeyFile(const std::filesystem::path& path, const std::string& secret_arg, EncryptionKeys* keys) {
  std::string text;
  if (Status st = ReadSmallFile(path, &text); !st.ok()) return st;
  std::string secret = secret_arg;
  if (secret.rfind("FILE:", 0) == 0) {
    if (Status st = ReadSmallFile(secret.substr(5), &secret); !st.ok()) return st;
    while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  }
  if (text.rfind("Salted__", 0) == 0) {
    if (secret.empty()) {
      return Status::InvalidArgument(path.string() + ": the key file is encrypted; give its secret with --filekey");
    }
    if (Status st = DecryptSalted(path, secret, &text); !st.ok()) return st;
  } else if (!secret.empty()) {
    return Status::InvalidArgument(path.string() + ": a file key was given, but the key file is not encrypted");
  }
  std::map<std::uint32_t, std::vector<std::uint8_t>> found;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    auto fail = [&](const std::string& why, std::size_t col) {
      return Status::InvalidArgument(path.string() + " line " + std::to_string(line_no) + ", column " +
                                     std::to_string(col + 1) + ": " + why);
    };
    std::size_t i = 0;
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i == line.size() || line[i] == '#') continue;
    std::uint64_t id = 0;
    const std::size_t id_start = i;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) {
      id = id * 10 + static_cast<std::uint64_t>(line[i++] - '0');
      if (id > 0xFFFFFFFFu) return fail("key id out of range", id_start);
    }
    if (i == id_start) return fail("expected a key id", i);
    if (id == 0) return fail("key id 0 is not allowed", id_start);
    if (i == line.size() || line[i] != ';') return fail("expected ';' after the key id", i);
    ++i;
    std::vector<std::uint8_t> key;
    while (i + 1 < line.size() && HexDigit(line[i]) >= 0 && HexDigit(line[i + 1]) >= 0 && key.size() < 32) {
      key.push_back(static_cast<std::uint8_t>(HexDigit(line[i]) * 16 + HexDigit(line[i + 1])));
      i += 2;
    }
    if ((i < line.size() && HexDigit(line[i]) >= 0) || (key.size() != 16 && key.size() != 24 && key.size() != 32)) {
      return fail("a key is 32, 48 or 64 hex digits", i);
    }
    found[static_cast<std::uint32_t>(id)] = std::move(key);
  }
  if (found.empty()) return Status::InvalidArgument(path.string() + ": no keys in the file");
  keys->mariadb = std::move(found);
  keys->mariadb_file = path;
  return Status::Ok();
}

}  // namespace strata::inspect
