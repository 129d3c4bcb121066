// FIPS 180-4: SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224, SHA-512/256 (scalar reference).
#include <cstring>

#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::hash {

namespace detail {
// FIPS 180-4 §4.2.2: the SHA-224/256 constants (shared with the SHA-NI kernel).
alignas(64) const std::uint32_t kSha256K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
// FIPS 180-4 §4.2.3: the SHA-384/512 constants (shared with the 4-way kernel).
alignas(64) const std::uint64_t kSha512K[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};
}  // namespace detail

namespace {
constexpr const std::uint64_t* K512 = detail::kSha512K;
constexpr const std::uint32_t* K256 = detail::kSha256K;

inline std::uint32_t ror32(std::uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }
inline std::uint64_t ror64(std::uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }
inline std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}
inline std::uint64_t be64(const std::uint8_t* p) { return (std::uint64_t(be32(p)) << 32) | be32(p + 4); }
}  // namespace

// FIPS 180-4 §6.2.2: SHA-256 hash computation (one 64-byte block at a time).
void sha256_compress_scalar(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept {
  for (std::size_t b = 0; b < nblocks; ++b, blocks += 64) {
    std::uint32_t w[64];
    for (int t = 0; t < 16; ++t) w[t] = be32(blocks + 4 * t);
    for (int t = 16; t < 64; ++t) {
      std::uint32_t s0 = ror32(w[t - 15], 7) ^ ror32(w[t - 15], 18) ^ (w[t - 15] >> 3);
      std::uint32_t s1 = ror32(w[t - 2], 17) ^ ror32(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; ++t) {
      std::uint32_t S1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);
      std::uint32_t ch = (e & f) ^ (~e & g);
      std::uint32_t t1 = hh + S1 + ch + K256[t] + w[t];
      std::uint32_t S0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);
      std::uint32_t maj = (a & bb) ^ (a & c) ^ (bb & c);
      std::uint32_t t2 = S0 + maj;
      hh = g; g = f; f = e; e = d + t1; d = c; c = bb; bb = a; a = t1 + t2;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
}

// FIPS 180-4 §6.4.2: SHA-512 hash computation.
void sha512_compress(std::uint64_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept {
  for (std::size_t b = 0; b < nblocks; ++b, blocks += 128) {
    std::uint64_t w[80];
    for (int t = 0; t < 16; ++t) w[t] = be64(blocks + 8 * t);
    for (int t = 16; t < 80; ++t) {
      std::uint64_t s0 = ror64(w[t - 15], 1) ^ ror64(w[t - 15], 8) ^ (w[t - 15] >> 7);
      std::uint64_t s1 = ror64(w[t - 2], 19) ^ ror64(w[t - 2], 61) ^ (w[t - 2] >> 6);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint64_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 80; ++t) {
      std::uint64_t S1 = ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41);
      std::uint64_t ch = (e & f) ^ (~e & g);
      std::uint64_t t1 = hh + S1 + ch + K512[t] + w[t];
      std::uint64_t S0 = ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39);
      std::uint64_t maj = (a & bb) ^ (a & c) ^ (bb & c);
      std::uint64_t t2 = S0 + maj;
      hh = g; g = f; f = e; e = d + t1; d = c; c = bb; bb = a; a = t1 + t2;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
}

void sha256_compress(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept {
  detail::sha256_compress_fn()(h, blocks, nblocks);
}

// FIPS 180-4 §5.3.2 / §5.3.3: initial hash values.
void Sha256::reset(bool is224) noexcept {
  static constexpr std::uint32_t iv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  static constexpr std::uint32_t iv224[8] = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                                             0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4};
  std::memcpy(h, is224 ? iv224 : iv256, sizeof h);
  std::memset(buf, 0, sizeof buf);
  total = 0;
  buflen = 0;
}

void Sha256::update(byte_span in) noexcept {
  if (in.empty()) return;  // also keeps memcpy away from a null data() (UB even for 0 bytes)
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  total += n;
  if (buflen) {
    std::size_t take = 64 - buflen < n ? 64 - buflen : n;
    std::memcpy(buf + buflen, p, take);
    buflen += take;
    p += take;
    n -= take;
    if (buflen == 64) {
      sha256_compress(h, buf, 1);
      buflen = 0;
    }
  }
  if (n >= 64) {
    sha256_compress(h, p, n / 64);
    p += n / 64 * 64;
    n %= 64;
  }
  if (n) {
    std::memcpy(buf, p, n);
    buflen = n;
  }
}

// FIPS 180-4 §5.1.1 padding.
void Sha256::final(std::uint8_t out[32]) noexcept {
  std::uint64_t bits = total * 8;
  buf[buflen++] = 0x80;
  if (buflen > 56) {
    std::memset(buf + buflen, 0, 64 - buflen);
    sha256_compress(h, buf, 1);
    buflen = 0;
  }
  std::memset(buf + buflen, 0, 56 - buflen);
  for (int i = 0; i < 8; ++i) buf[56 + i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
  sha256_compress(h, buf, 1);
  for (int i = 0; i < 8; ++i) {
    out[4 * i] = static_cast<std::uint8_t>(h[i] >> 24);
    out[4 * i + 1] = static_cast<std::uint8_t>(h[i] >> 16);
    out[4 * i + 2] = static_cast<std::uint8_t>(h[i] >> 8);
    out[4 * i + 3] = static_cast<std::uint8_t>(h[i]);
  }
}

// FIPS 180-4 §5.3.4–§5.3.6: initial hash values.
void Sha512::reset(Variant v) noexcept {
  static constexpr std::uint64_t iv512[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                                             0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                             0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
  static constexpr std::uint64_t iv384[8] = {0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL,
                                             0x152fecd8f70e5939ULL, 0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL,
                                             0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL};
  static constexpr std::uint64_t iv224[8] = {0x8C3D37C819544DA2ULL, 0x73E1996689DCD4D6ULL, 0x1DFAB7AE32FF9C82ULL,
                                             0x679DD514582F9FCFULL, 0x0F6D2B697BD44DA8ULL, 0x77E36F7304C48942ULL,
                                             0x3F9D85A86A1D36C8ULL, 0x1112E6AD91D692A1ULL};
  static constexpr std::uint64_t iv256[8] = {0x22312194FC2BF72CULL, 0x9F555FA3C84C64C2ULL, 0x2393B86B6F53B151ULL,
                                             0x963877195940EABDULL, 0x96283EE2A88EFFE3ULL, 0xBE5E1E2553863992ULL,
                                             0x2B0199FC2C85B8AAULL, 0x0EB72DDC81C52CA2ULL};
  const std::uint64_t* iv = iv512;
  if (v == Variant::sha384) iv = iv384;
  if (v == Variant::sha512_224) iv = iv224;
  if (v == Variant::sha512_256) iv = iv256;
  std::memcpy(h, iv, sizeof h);
  std::memset(buf, 0, sizeof buf);
  total = 0;
  buflen = 0;
}

void Sha512::update(byte_span in) noexcept {
  if (in.empty()) return;  // also keeps memcpy away from a null data() (UB even for 0 bytes)
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  total += n;
  if (buflen) {
    std::size_t take = 128 - buflen < n ? 128 - buflen : n;
    std::memcpy(buf + buflen, p, take);
    buflen += take;
    p += take;
    n -= take;
    if (buflen == 128) {
      sha512_compress(h, buf, 1);
      buflen = 0;
    }
  }
  if (n >= 128) {
    sha512_compress(h, p, n / 128);
    p += n / 128 * 128;
    n %= 128;
  }
  if (n) {
    std::memcpy(buf, p, n);
    buflen = n;
  }
}

// FIPS 180-4 §5.1.2 padding (128-bit length; inputs < 2^61 bytes).
void Sha512::final(std::uint8_t out[64]) noexcept {
  std::uint64_t bits = total * 8;
  buf[buflen++] = 0x80;
  if (buflen > 112) {
    std::memset(buf + buflen, 0, 128 - buflen);
    sha512_compress(h, buf, 1);
    buflen = 0;
  }
  std::memset(buf + buflen, 0, 120 - buflen);
  for (int i = 0; i < 8; ++i) buf[120 + i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
  sha512_compress(h, buf, 1);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) out[8 * i + j] = static_cast<std::uint8_t>(h[i] >> (56 - 8 * j));
}

std::array<std::uint8_t, 32> sha256(byte_span in) noexcept {
  Sha256 s;
  s.update(in);
  std::array<std::uint8_t, 32> o{};
  s.final(o.data());
  return o;
}
std::array<std::uint8_t, 28> sha224(byte_span in) noexcept {
  Sha256 s(true);
  s.update(in);
  std::uint8_t full[32];
  s.final(full);
  std::array<std::uint8_t, 28> o{};
  std::memcpy(o.data(), full, 28);
  return o;
}
std::array<std::uint8_t, 64> sha512(byte_span in) noexcept {
  Sha512 s;
  s.update(in);
  std::array<std::uint8_t, 64> o{};
  s.final(o.data());
  return o;
}
std::array<std::uint8_t, 48> sha384(byte_span in) noexcept {
  Sha512 s(Sha512::Variant::sha384);
  s.update(in);
  std::uint8_t full[64];
  s.final(full);
  std::array<std::uint8_t, 48> o{};
  std::memcpy(o.data(), full, 48);
  return o;
}

}  // namespace pqsig::hash
