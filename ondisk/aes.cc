#include "ondisk/aes.h"

#include <openssl/evp.h>

#include <memory>
#include <string>

namespace strata::ondisk::aes {

namespace {

enum class Mode { kEcb, kCbc, kCtr };

const EVP_CIPHER* Cipher(Mode mode, std::size_t key_bytes) {
  switch (key_bytes) {
    case 16:
      return mode == Mode::kEcb ? EVP_aes_128_ecb() : mode == Mode::kCbc ? EVP_aes_128_cbc() : EVP_aes_128_ctr();
    case 24:
      return mode == Mode::kEcb ? EVP_aes_192_ecb() : mode == Mode::kCbc ? EVP_aes_192_cbc() : EVP_aes_192_ctr();
    case 32:
      return mode == Mode::kEcb ? EVP_aes_256_ecb() : mode == Mode::kCbc ? EVP_aes_256_cbc() : EVP_aes_256_ctr();
    default:
      return nullptr;
  }
}

Status Run(Mode mode, bool encrypt, Key key, const std::uint8_t* iv, In in, Out out) {
  const EVP_CIPHER* cipher = Cipher(mode, key.size());
  if (!cipher) return Status::InvalidArgument("an AES key is 16, 24 or 32 bytes, not " + std::to_string(key.size()));
  if (mode != Mode::kCtr && in.size() % 16)
    return Status::InvalidArgument("AES-ECB/CBC without padding needs whole 16-byte blocks");
  if (out.size() < in.size()) return Status::InvalidArgument("AES output shorter than its input");
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int n = 0, tail = 0;
  if (!ctx || EVP_CipherInit_ex(ctx.get(), cipher, nullptr, key.data(), iv, encrypt ? 1 : 0) != 1 ||
      EVP_CIPHER_CTX_set_padding(ctx.get(), 0) != 1 ||
      EVP_CipherUpdate(ctx.get(), out.data(), &n, in.data(), static_cast<int>(in.size())) != 1 ||
      EVP_CipherFinal_ex(ctx.get(), out.data() + n, &tail) != 1) {
    return Status::InvalidArgument("OpenSSL refused the AES operation");
  }
  return Status::Ok();
}

}  // namespace

Status EncryptEcb(Key key, In in, Out out) { return Run(Mode::kEcb, true, key, nullptr, in, out); }
Status DecryptEcb(Key key, In in, Out out) { return Run(Mode::kEcb, false, key, nullptr, in, out); }
Status DecryptCbc(Key key, const Block& iv, In in, Out out) { return Run(Mode::kCbc, false, key, iv.data(), in, out); }
Status Ctr(Key key, const Block& iv, In in, Out out) { return Run(Mode::kCtr, true, key, iv.data(), in, out); }

}  // namespace strata::ondisk::aes
