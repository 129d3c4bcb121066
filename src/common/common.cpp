#include "pqsig/common.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include "common/cpu.hpp"
#include "common/ct.hpp"

#ifndef PQSIG_VERSION_STRING
#define PQSIG_VERSION_STRING "0.0.0"
#endif

namespace pqsig {

std::string_view version() noexcept { return PQSIG_VERSION_STRING; }

std::string_view errc_name(Errc e) noexcept {
  switch (e) {
    case Errc::invalid_length: return "invalid_length";
    case Errc::invalid_encoding: return "invalid_encoding";
    case Errc::invalid_context: return "invalid_context";
    case Errc::invalid_argument: return "invalid_argument";
    case Errc::unknown_suite: return "unknown_suite";
    case Errc::unsupported: return "unsupported";
    case Errc::verify_failed: return "verify_failed";
    case Errc::key_check_failed: return "key_check_failed";
    case Errc::rng_failure: return "rng_failure";
    case Errc::crypto_backend: return "crypto_backend";
    case Errc::policy: return "policy";
    case Errc::io: return "io";
    case Errc::internal: return "internal";
    case Errc::key_exhausted: return "key_exhausted";
    case Errc::state_rejected: return "state_rejected";
    case Errc::stateful_key: return "stateful_key";
  }
  return "unknown_error";
}

void secure_zero(void* p, std::size_t n) noexcept {
  if (n == 0) return;
  std::memset(p, 0, n);
  // Make the compiler believe the memory is read afterwards.
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

bool ct_equal(byte_span a, byte_span b) noexcept {
  if (a.size() != b.size()) return false;  // lengths are public
  return ct::neq_mask(a.data(), b.data(), a.size()) == 0;
}

bool random_bytes(mut_byte_span out) noexcept {
  std::size_t off = 0;
  while (off < out.size()) {
    ssize_t r = ::getrandom(out.data() + off, out.size() - off, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      secure_zero(out.data(), out.size());
      return false;
    }
    off += static_cast<std::size_t>(r);
  }
  return true;
}

namespace {
constexpr char kHexLower[] = "0123456789abcdef";
constexpr char kHexUpper[] = "0123456789ABCDEF";
constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kB64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string b64enc(byte_span b, const char* alpha, bool pad) {
  std::string out;
  out.reserve((b.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= b.size(); i += 3) {
    std::uint32_t v = (std::uint32_t(b[i]) << 16) | (std::uint32_t(b[i + 1]) << 8) | b[i + 2];
    out += alpha[(v >> 18) & 63];
    out += alpha[(v >> 12) & 63];
    out += alpha[(v >> 6) & 63];
    out += alpha[v & 63];
  }
  std::size_t rem = b.size() - i;
  if (rem == 1) {
    std::uint32_t v = std::uint32_t(b[i]) << 16;
    out += alpha[(v >> 18) & 63];
    out += alpha[(v >> 12) & 63];
    if (pad) out += "==";
  } else if (rem == 2) {
    std::uint32_t v = (std::uint32_t(b[i]) << 16) | (std::uint32_t(b[i + 1]) << 8);
    out += alpha[(v >> 18) & 63];
    out += alpha[(v >> 12) & 63];
    out += alpha[(v >> 6) & 63];
    if (pad) out += '=';
  }
  return out;
}

// Value of each byte in the alphabet (-1: not in it), one table per alphabet: decoding the
// 3.2 KB ML-DSA-44 signature of every request is on the verifier's hot path.
struct B64Table {
  std::int8_t v[256];
  constexpr explicit B64Table(bool url) : v{} {
    for (int c = 0; c < 256; ++c) v[c] = -1;
    for (int c = 'A'; c <= 'Z'; ++c) v[c] = static_cast<std::int8_t>(c - 'A');
    for (int c = 'a'; c <= 'z'; ++c) v[c] = static_cast<std::int8_t>(c - 'a' + 26);
    for (int c = '0'; c <= '9'; ++c) v[c] = static_cast<std::int8_t>(c - '0' + 52);
    v[static_cast<unsigned char>(url ? '-' : '+')] = 62;
    v[static_cast<unsigned char>(url ? '_' : '/')] = 63;
  }
};
constexpr B64Table kB64DecStd(false), kB64DecUrl(true);

// The same values placed at their bit position in a group of four characters (24 bits), with
// bit 31 set for a character outside the alphabet: a group is four loads and three ORs, and one
// test finds any bad character in it.
struct B64GroupTable {
  std::uint32_t at[4][256];
  constexpr explicit B64GroupTable(const B64Table& t) : at{} {
    for (int k = 0; k < 4; ++k)
      for (int c = 0; c < 256; ++c)
        at[k][c] = t.v[c] < 0 ? 0x80000000u : static_cast<std::uint32_t>(t.v[c]) << (18 - 6 * k);
  }
};
constexpr B64GroupTable kB64GroupStd(kB64DecStd), kB64GroupUrl(kB64DecUrl);

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PQSIG_B64_AVX2 1
// RFC 4648 §4 decoding, 32 characters into 24 bytes per step with AVX2 (the vector method of Muła
// and Lemire, "Faster Base64 Encoding and Decoding using AVX2 Instructions", 2018): a character is
// in the alphabet when the table bits of its low and high nibbles share none; its value is the
// character plus an offset chosen by its high nibble ('/' moved down one row); two multiply-adds
// pack four 6-bit values into 24 bits and one byte shuffle orders them. Public data only (the
// signatures a verifier is sent): it stops at the first block with a character outside the
// alphabet and returns how many characters it consumed; the scalar loop does the rest and
// reports the error. `out` must have room for 32 bytes at every step (the caller bounds it).
__attribute__((target("avx2"))) std::size_t b64dec_std_avx2(const unsigned char* in, std::size_t n, std::uint8_t* out,
                                                            std::size_t out_room) {
  const __m256i lut_lo = _mm256_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B,
                                          0x1B, 0x1B, 0x1A, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                                          0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
  const __m256i lut_hi = _mm256_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10,
                                          0x10, 0x10, 0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10,
                                          0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  const __m256i lut_roll = _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 19, 4, -65,
                                            -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i nib = _mm256_set1_epi8(0x0F);
  const __m256i slash = _mm256_set1_epi8('/');
  const __m256i pack16 = _mm256_set1_epi32(0x01400140);  // a*64 + b per byte pair
  const __m256i pack32 = _mm256_set1_epi32(0x00011000);  // ab*4096 + cd per 16-bit pair
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4, 10,
                                         9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  std::size_t i = 0, o = 0;
  for (; i + 32 <= n && o + 32 <= out_room; i += 32, o += 24) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi32(v, 4), nib);
    const __m256i lo = _mm256_and_si256(v, nib);
    const __m256i bad = _mm256_and_si256(_mm256_shuffle_epi8(lut_lo, lo), _mm256_shuffle_epi8(lut_hi, hi));
    if (!_mm256_testz_si256(bad, bad)) break;
    const __m256i roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(_mm256_cmpeq_epi8(v, slash), hi));
    const __m256i six = _mm256_add_epi8(v, roll);
    const __m256i packed = _mm256_madd_epi16(_mm256_maddubs_epi16(six, pack16), pack32);
    const __m256i bytes24 = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(packed, order), lanes);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + o), bytes24);
  }
  return i;
}
#endif

Result<bytes> b64dec(std::string_view s, bool url) {
  const B64Table& table = url ? kB64DecUrl : kB64DecStd;
  auto val = [&table](char c) -> int { return table.v[static_cast<unsigned char>(c)]; };
  std::size_t n = s.size();
  std::size_t padn = 0;
  if (!url) {
    if (n % 4 != 0) return Error{Errc::invalid_encoding, "base64: length not a multiple of 4"};
    while (padn < 2 && n > 0 && s[n - 1] == '=') {
      --n;
      ++padn;
    }
  } else {
    if (n % 4 == 1) return Error{Errc::invalid_encoding, "base64url: impossible length"};
  }
  bytes out(n * 6 / 8);  // one byte per 8 bits decoded
  std::size_t o = 0;
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t i = 0;
  // Whole groups of four characters (three bytes); the rest, and any invalid character, below.
  {
    const B64GroupTable& g = url ? kB64GroupUrl : kB64GroupStd;
    const auto* in = reinterpret_cast<const unsigned char*>(s.data());
    std::uint8_t* op = out.data();
#if defined(PQSIG_B64_AVX2)
    if (!url && cpu::has_avx2()) {
      i = b64dec_std_avx2(in, n, op, out.size());
      o = i / 4 * 3;
    }
#endif
    for (; i + 4 <= n; i += 4) {
      const std::uint32_t v = g.at[0][in[i]] | g.at[1][in[i + 1]] | g.at[2][in[i + 2]] | g.at[3][in[i + 3]];
      if (v & 0x80000000u) break;
      op[o] = static_cast<std::uint8_t>(v >> 16);
      op[o + 1] = static_cast<std::uint8_t>(v >> 8);
      op[o + 2] = static_cast<std::uint8_t>(v);
      o += 3;
    }
  }
  for (; i < n; ++i) {
    int v = val(s[i]);
    if (v < 0) return Error{Errc::invalid_encoding, std::string(url ? "base64url" : "base64") + ": invalid character"};
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = static_cast<std::uint8_t>((acc >> bits) & 0xFF);
    }
  }
  // Non-canonical trailing bits must be zero (strict decoding).
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0)
    return Error{Errc::invalid_encoding, "base64: non-zero trailing bits"};
  (void)padn;
  return out;
}
}  // namespace

std::string to_hex(byte_span b, bool upper) {
  const char* a = upper ? kHexUpper : kHexLower;
  std::string s;
  s.resize(b.size() * 2);
  for (std::size_t i = 0; i < b.size(); ++i) {
    s[2 * i] = a[b[i] >> 4];
    s[2 * i + 1] = a[b[i] & 15];
  }
  return s;
}

Result<bytes> from_hex(std::string_view s) {
  if (s.size() % 2 != 0) return Error{Errc::invalid_encoding, "hex: odd number of digits"};
  bytes out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
    if (hi < 0 || lo < 0) return Error{Errc::invalid_encoding, "hex: invalid digit"};
    out[i] = static_cast<std::uint8_t>((hi << 4) | lo);
  }
  return out;
}

// ---------------------------------------------------------------- constant-time decoding
// Secret members (JWK "d"/"priv"/"k", PEM private keys, hex seeds) are decoded without a
// branch or a table index that depends on a character: each character is classified with
// range masks. Only the length (public) and one "well-formed" bit (it decides the error) leave.
namespace {
// All-ones when lo <= c <= hi, else 0 (c, lo, hi < 256).
inline std::uint32_t ct_range(std::uint32_t c, std::uint32_t lo, std::uint32_t hi) noexcept {
  c = ct::value_barrier(c);
  // The barrier on the result keeps the compiler from treating it as a boolean (clang turned
  // `mask & k` into a conditional move on the secret; caught by the clang CT build).
  return ct::value_barrier(0u - ((((c - lo) | (hi - c)) >> 31) ^ 1u));
}

// RFC 4648 §4 / §5 alphabet value of c (0..63); `valid` all-ones when c is in the alphabet.
inline std::uint32_t ct_b64_value(std::uint32_t c, bool url, std::uint32_t& valid) noexcept {
  const std::uint32_t up = ct_range(c, 'A', 'Z'), lo = ct_range(c, 'a', 'z'), dg = ct_range(c, '0', '9');
  const std::uint32_t c62 = url ? ct_range(c, '-', '-') : ct_range(c, '+', '+');
  const std::uint32_t c63 = url ? ct_range(c, '_', '_') : ct_range(c, '/', '/');
  valid = up | lo | dg | c62 | c63;
  return ((up & (c - 'A')) | (lo & (c - 'a' + 26)) | (dg & (c - '0' + 52)) | (c62 & 62u) | (c63 & 63u)) & 63u;
}

Result<SecretBytes> ct_b64dec(std::string_view s, bool url) {
  std::size_t n = s.size();
  if (!url) {
    if (n % 4 != 0) return Error{Errc::invalid_encoding, "base64: length not a multiple of 4"};
    // The number of pad characters is the output length, which is public.
    for (int k = 0; k < 2 && n > 0; ++k) {
      char last = s[n - 1];
      CT_DECLASSIFY(&last, 1);  // padding decides the (public) output length
      if (last != '=') break;
      --n;
    }
  } else if (n % 4 == 1) {
    return Error{Errc::invalid_encoding, "base64url: impossible length"};
  }
  SecretBytes out(n * 3 / 4);
  std::uint32_t acc = 0, bad = 0;
  unsigned bits = 0;  // depends on the position only
  std::size_t o = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t valid = 0;
    const std::uint32_t v = ct_b64_value(static_cast<std::uint8_t>(s[i]), url, valid);
    bad |= ~valid;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.data()[o++] = static_cast<std::uint8_t>(acc >> bits);
    }
  }
  bad |= acc & ((1u << bits) - 1u);  // strict: non-canonical trailing bits must be zero
  std::uint32_t is_bad = ct::mask_nonzero_u32(bad);
  secure_zero(&acc, sizeof acc);
  CT_DECLASSIFY(&is_bad, sizeof is_bad);  // well-formed or not is the (public) outcome
  if (is_bad) return Error{Errc::invalid_encoding, std::string(url ? "base64url" : "base64") + ": malformed secret value"};
  return out;
}
}  // namespace

Result<SecretBytes> secret_from_hex(std::string_view s) {
  if (s.size() % 2 != 0) return Error{Errc::invalid_encoding, "hex: odd number of digits"};
  SecretBytes out(s.size() / 2);
  std::uint32_t bad = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::uint32_t c = static_cast<std::uint8_t>(s[i]);
    const std::uint32_t dg = ct_range(c, '0', '9'), lo = ct_range(c, 'a', 'f'), up = ct_range(c, 'A', 'F');
    bad |= ~(dg | lo | up);
    const std::uint32_t v = ((dg & (c - '0')) | (lo & (c - 'a' + 10)) | (up & (c - 'A' + 10))) & 15u;
    out.data()[i / 2] = static_cast<std::uint8_t>(out.data()[i / 2] | (v << (i % 2 == 0 ? 4 : 0)));
  }
  std::uint32_t is_bad = ct::mask_nonzero_u32(bad);
  CT_DECLASSIFY(&is_bad, sizeof is_bad);  // well-formed or not is the (public) outcome
  if (is_bad) return Error{Errc::invalid_encoding, "hex: malformed secret value"};
  return out;
}
// RFC 4648 §5 character of a 6-bit value, by arithmetic (no table index by the secret value).
namespace {
inline char ct_b64url_char(std::uint32_t v) noexcept {
  v = ct::value_barrier(v);
  std::uint32_t c = v + 'A';
  c += ct_range(v, 26, 63) & static_cast<std::uint32_t>('a' - 'A' - 26);
  c += ct_range(v, 52, 63) & static_cast<std::uint32_t>('0' - 'a' - 26);
  c += ct_range(v, 62, 62) & static_cast<std::uint32_t>('-' - ('0' + 10));
  c += ct_range(v, 63, 63) & static_cast<std::uint32_t>('_' - ('0' + 11));
  return static_cast<char>(c & 0xFF);
}
}  // namespace

std::string secret_base64url_encode(byte_span b) {
  std::string out;
  out.reserve((b.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= b.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t(b[i]) << 16) | (std::uint32_t(b[i + 1]) << 8) | b[i + 2];
    for (int sh = 18; sh >= 0; sh -= 6) out.push_back(ct_b64url_char((v >> sh) & 63));
  }
  const std::size_t rem = b.size() - i;  // public
  if (rem) {
    std::uint32_t v = std::uint32_t(b[i]) << 16;
    if (rem == 2) v |= std::uint32_t(b[i + 1]) << 8;
    out.push_back(ct_b64url_char((v >> 18) & 63));
    out.push_back(ct_b64url_char((v >> 12) & 63));
    if (rem == 2) out.push_back(ct_b64url_char((v >> 6) & 63));
  }
  return out;
}

Result<SecretBytes> secret_base64_decode(std::string_view s) { return ct_b64dec(s, false); }
Result<SecretBytes> secret_base64url_decode(std::string_view s) { return ct_b64dec(s, true); }

// ---------------------------------------------------------------- logging
namespace {
std::mutex& log_mutex() {
  static std::mutex m;
  return m;
}
LogSink& log_sink() {
  static LogSink s;
  return s;
}
}  // namespace

std::string_view log_level_name(LogLevel l) noexcept {
  switch (l) {
    case LogLevel::debug: return "debug";
    case LogLevel::info: return "info";
    case LogLevel::warning: return "warning";
    case LogLevel::error: return "error";
  }
  return "unknown";
}

void set_log_sink(LogSink sink) {
  std::lock_guard<std::mutex> lock(log_mutex());
  log_sink() = std::move(sink);
}

void log_message(LogLevel level, std::string_view message) {
  LogSink s;
  {
    std::lock_guard<std::mutex> lock(log_mutex());
    s = log_sink();
  }
  if (s) s(level, message);  // no sink: no output (the library never writes to stderr)
}

std::string base64_encode(byte_span b) { return b64enc(b, kB64, true); }
std::string base64url_encode(byte_span b) { return b64enc(b, kB64Url, false); }
Result<bytes> base64_decode(std::string_view s) { return b64dec(s, false); }
Result<bytes> base64url_decode(std::string_view s) { return b64dec(s, true); }

std::string ascii_lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return o;
}

}  // namespace pqsig
