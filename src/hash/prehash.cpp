// Pre-hash functions for HashML-DSA (FIPS 204 §5.4, Algorithm 4) and HashSLH-DSA (FIPS 205 §10.2).
#include <cctype>
#include <cstring>
#include <string>

#include "pqsig/hash.hpp"

namespace pqsig::hash {

namespace {
constexpr std::array<std::uint8_t, 11> oid(std::uint8_t last) {
  return {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, last};
}
// NIST OIDs 2.16.840.1.101.3.4.2.x (CSOR); SHAKE128 output 256 bits, SHAKE256 512 bits.
constexpr PreHashInfo kTable[] = {
    {PreHash::sha2_224, "SHA2-224", 28, oid(0x04)},
    {PreHash::sha2_256, "SHA2-256", 32, oid(0x01)},
    {PreHash::sha2_384, "SHA2-384", 48, oid(0x02)},
    {PreHash::sha2_512, "SHA2-512", 64, oid(0x03)},
    {PreHash::sha2_512_224, "SHA2-512/224", 28, oid(0x05)},
    {PreHash::sha2_512_256, "SHA2-512/256", 32, oid(0x06)},
    {PreHash::sha3_224, "SHA3-224", 28, oid(0x07)},
    {PreHash::sha3_256, "SHA3-256", 32, oid(0x08)},
    {PreHash::sha3_384, "SHA3-384", 48, oid(0x09)},
    {PreHash::sha3_512, "SHA3-512", 64, oid(0x0A)},
    {PreHash::shake_128, "SHAKE-128", 32, oid(0x0B)},
    {PreHash::shake_256, "SHAKE-256", 64, oid(0x0C)},
};

std::string normalize(std::string_view s) {
  std::string o;
  for (char c : s) {
    if (c == '-' || c == '_') continue;
    o += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return o;
}
}  // namespace

const PreHashInfo* find_prehash(std::string_view name) noexcept {
  std::string n = normalize(name);
  // Accept "SHA256" style aliases for SHA-2.
  if (n == "SHA224") n = "SHA2224";
  if (n == "SHA256") n = "SHA2256";
  if (n == "SHA384") n = "SHA2384";
  if (n == "SHA512") n = "SHA2512";
  if (n == "SHA512/224") n = "SHA2512/224";
  if (n == "SHA512/256") n = "SHA2512/256";
  for (const auto& e : kTable)
    if (normalize(e.acvp_name) == n) return &e;
  return nullptr;
}

const PreHashInfo& prehash_info(PreHash id) noexcept { return kTable[static_cast<int>(id)]; }

void prehash_compute(PreHash id, byte_span msg, mut_byte_span out) noexcept {
  std::uint8_t buf[64];
  switch (id) {
    case PreHash::sha2_224:
    case PreHash::sha2_256: {
      Sha256 h(id == PreHash::sha2_224);
      h.update(msg);
      h.final(buf);
      break;
    }
    case PreHash::sha2_384:
    case PreHash::sha2_512:
    case PreHash::sha2_512_224:
    case PreHash::sha2_512_256: {
      Sha512::Variant v = id == PreHash::sha2_384       ? Sha512::Variant::sha384
                          : id == PreHash::sha2_512_224 ? Sha512::Variant::sha512_224
                          : id == PreHash::sha2_512_256 ? Sha512::Variant::sha512_256
                                                        : Sha512::Variant::sha512;
      Sha512 h(v);
      h.update(msg);
      h.final(buf);
      break;
    }
    case PreHash::sha3_224: { Sha3_224 h; h.absorb(msg); h.squeeze(buf, 28); break; }
    case PreHash::sha3_256: { Sha3_256 h; h.absorb(msg); h.squeeze(buf, 32); break; }
    case PreHash::sha3_384: { Sha3_384 h; h.absorb(msg); h.squeeze(buf, 48); break; }
    case PreHash::sha3_512: { Sha3_512 h; h.absorb(msg); h.squeeze(buf, 64); break; }
    case PreHash::shake_128: { Shake128 h; h.absorb(msg); h.squeeze(buf, 32); break; }
    case PreHash::shake_256: { Shake256 h; h.absorb(msg); h.squeeze(buf, 64); break; }
  }
  std::size_t n = prehash_info(id).out_len;
  std::memcpy(out.data(), buf, out.size() < n ? out.size() : n);
}

}  // namespace pqsig::hash
