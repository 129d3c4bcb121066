// LM-OTS and LMS parameter sets: RFC 8554 §4.1 Table 1 / §5.1 Table 2 (SHA-256, n = m = 32),
// SP 800-208 and RFC 9858 (SHA-256/192, SHAKE256/256, SHAKE256/192). p and ls are computed
// from n and w by RFC 8554 Appendix B and checked against Table 1 below.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <string>

#include "pqsig/lms.hpp"

namespace pqsig::lms {
namespace {

// RFC 8554 Appendix B: u = ceil(8n/w), v = ceil((floor(lg((2^w - 1) * u)) + 1) / w),
// ls = 16 - v*w, p = u + v.
constexpr unsigned floor_lg(unsigned x) {
  unsigned r = 0;
  while (x > 1) {
    x >>= 1;
    ++r;
  }
  return r;
}
constexpr unsigned ots_u(std::size_t n, unsigned w) { return static_cast<unsigned>((8 * n + w - 1) / w); }
constexpr unsigned ots_v(std::size_t n, unsigned w) {
  return (floor_lg(((1u << w) - 1) * ots_u(n, w)) + 1 + w - 1) / w;
}
constexpr LmotsParams ots(std::uint32_t type, std::string_view name, HashFamily f, std::size_t n, unsigned w) {
  const unsigned p = ots_u(n, w) + ots_v(n, w);
  return LmotsParams{type, name, f, n, w, p, 16 - ots_v(n, w) * w, 4 + n * (p + 1)};
}

constexpr std::array<LmotsParams, 16> kOts = {{
    ots(0x01, "LMOTS_SHA256_N32_W1", HashFamily::sha256, 32, 1),
    ots(0x02, "LMOTS_SHA256_N32_W2", HashFamily::sha256, 32, 2),
    ots(0x03, "LMOTS_SHA256_N32_W4", HashFamily::sha256, 32, 4),
    ots(0x04, "LMOTS_SHA256_N32_W8", HashFamily::sha256, 32, 8),
    ots(0x05, "LMOTS_SHA256_N24_W1", HashFamily::sha256, 24, 1),
    ots(0x06, "LMOTS_SHA256_N24_W2", HashFamily::sha256, 24, 2),
    ots(0x07, "LMOTS_SHA256_N24_W4", HashFamily::sha256, 24, 4),
    ots(0x08, "LMOTS_SHA256_N24_W8", HashFamily::sha256, 24, 8),
    ots(0x09, "LMOTS_SHAKE_N32_W1", HashFamily::shake256, 32, 1),
    ots(0x0A, "LMOTS_SHAKE_N32_W2", HashFamily::shake256, 32, 2),
    ots(0x0B, "LMOTS_SHAKE_N32_W4", HashFamily::shake256, 32, 4),
    ots(0x0C, "LMOTS_SHAKE_N32_W8", HashFamily::shake256, 32, 8),
    ots(0x0D, "LMOTS_SHAKE_N24_W1", HashFamily::shake256, 24, 1),
    ots(0x0E, "LMOTS_SHAKE_N24_W2", HashFamily::shake256, 24, 2),
    ots(0x0F, "LMOTS_SHAKE_N24_W4", HashFamily::shake256, 24, 4),
    ots(0x10, "LMOTS_SHAKE_N24_W8", HashFamily::shake256, 24, 8),
}};
// RFC 8554 §4.1 Table 1 (n = 32) and SP 800-208 Table 3 (n = 24): p and ls.
static_assert(kOts[0].p == 265 && kOts[0].ls == 7 && kOts[1].p == 133 && kOts[1].ls == 6);
static_assert(kOts[2].p == 67 && kOts[2].ls == 4 && kOts[3].p == 34 && kOts[3].ls == 0);
static_assert(kOts[4].p == 200 && kOts[4].ls == 8 && kOts[5].p == 101 && kOts[5].ls == 6);
static_assert(kOts[6].p == 51 && kOts[6].ls == 4 && kOts[7].p == 26 && kOts[7].ls == 0);
static_assert(kOts[3].sig_bytes == 1124);

constexpr std::array<LmsParams, 20> kLms = {{
    {0x05, "LMS_SHA256_M32_H5", HashFamily::sha256, 32, 5},
    {0x06, "LMS_SHA256_M32_H10", HashFamily::sha256, 32, 10},
    {0x07, "LMS_SHA256_M32_H15", HashFamily::sha256, 32, 15},
    {0x08, "LMS_SHA256_M32_H20", HashFamily::sha256, 32, 20},
    {0x09, "LMS_SHA256_M32_H25", HashFamily::sha256, 32, 25},
    {0x0A, "LMS_SHA256_M24_H5", HashFamily::sha256, 24, 5},
    {0x0B, "LMS_SHA256_M24_H10", HashFamily::sha256, 24, 10},
    {0x0C, "LMS_SHA256_M24_H15", HashFamily::sha256, 24, 15},
    {0x0D, "LMS_SHA256_M24_H20", HashFamily::sha256, 24, 20},
    {0x0E, "LMS_SHA256_M24_H25", HashFamily::sha256, 24, 25},
    {0x0F, "LMS_SHAKE_M32_H5", HashFamily::shake256, 32, 5},
    {0x10, "LMS_SHAKE_M32_H10", HashFamily::shake256, 32, 10},
    {0x11, "LMS_SHAKE_M32_H15", HashFamily::shake256, 32, 15},
    {0x12, "LMS_SHAKE_M32_H20", HashFamily::shake256, 32, 20},
    {0x13, "LMS_SHAKE_M32_H25", HashFamily::shake256, 32, 25},
    {0x14, "LMS_SHAKE_M24_H5", HashFamily::shake256, 24, 5},
    {0x15, "LMS_SHAKE_M24_H10", HashFamily::shake256, 24, 10},
    {0x16, "LMS_SHAKE_M24_H15", HashFamily::shake256, 24, 15},
    {0x17, "LMS_SHAKE_M24_H20", HashFamily::shake256, 24, 20},
    {0x18, "LMS_SHAKE_M24_H25", HashFamily::shake256, 24, 25},
}};

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// "sha256-m32-h10-w4" / "shake-m24-h5-w8" → one level.
Result<Level> parse_short(std::string_view s) {
  const std::string t = lower(s);
  HashFamily f;
  std::string_view rest;
  if (t.rfind("sha256-", 0) == 0) {
    f = HashFamily::sha256;
    rest = std::string_view(t).substr(7);
  } else if (t.rfind("shake-", 0) == 0 || t.rfind("shake256-", 0) == 0) {
    f = HashFamily::shake256;
    rest = std::string_view(t).substr(t[5] == '-' ? 6 : 9);
  } else {
    return Error{Errc::unknown_suite, "lms: unknown level '" + std::string(s) + "'"};
  }
  unsigned m = 0, h = 0, w = 0;
  char tail = 0;
  if (std::sscanf(std::string(rest).c_str(), "m%u-h%u-w%u%c", &m, &h, &w, &tail) != 3)
    return Error{Errc::unknown_suite, "lms: level '" + std::string(s) + "' is not <hash>-m<M>-h<H>-w<W>"};
  Level lv;
  for (const auto& p : kLms)
    if (p.hash == f && p.m == m && p.h == h) lv.lms = &p;
  for (const auto& p : kOts)
    if (p.hash == f && p.n == m && p.w == w) lv.ots = &p;
  if (!lv.lms || !lv.ots) return Error{Errc::unknown_suite, "lms: no parameter set '" + std::string(s) + "'"};
  return lv;
}

}  // namespace

std::span<const LmotsParams> all_lmots() noexcept { return kOts; }
std::span<const LmsParams> all_lms() noexcept { return kLms; }

const LmotsParams* find_lmots(std::uint32_t type) noexcept {
  for (const auto& p : kOts)
    if (p.type == type) return &p;
  return nullptr;
}
const LmotsParams* find_lmots(std::string_view name) noexcept {
  for (const auto& p : kOts)
    if (iequal(p.name, name)) return &p;
  return nullptr;
}
const LmsParams* find_lms(std::uint32_t type) noexcept {
  for (const auto& p : kLms)
    if (p.type == type) return &p;
  return nullptr;
}
const LmsParams* find_lms(std::string_view name) noexcept {
  for (const auto& p : kLms)
    if (iequal(p.name, name)) return &p;
  return nullptr;
}

std::size_t lms_public_key_bytes(const Level& lv) noexcept { return 8 + kIdBytes + lv.lms->m; }
std::size_t lms_signature_bytes(const Level& lv) noexcept {
  return 4 + lv.ots->sig_bytes + 4 + static_cast<std::size_t>(lv.lms->h) * lv.lms->m;
}
std::size_t hss_public_key_bytes(std::span<const Level> levels) noexcept {
  return 4 + lms_public_key_bytes(levels.front());
}
std::size_t hss_signature_bytes(std::span<const Level> levels) noexcept {
  std::size_t n = 4;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    n += lms_signature_bytes(levels[i]);
    if (i + 1 < levels.size()) n += lms_public_key_bytes(levels[i + 1]);
  }
  return n;
}

Status check_levels(std::span<const Level> levels) {
  if (levels.empty() || levels.size() > kMaxLevels)
    return Error{Errc::invalid_argument, "lms: HSS needs 1..8 levels"};
  for (const auto& lv : levels) {
    if (!lv.lms || !lv.ots) return Error{Errc::invalid_argument, "lms: level without parameters"};
    // SP 800-208: the LMS and LM-OTS sets of a tree use the same hash function and length.
    if (lv.lms->hash != lv.ots->hash || lv.lms->m != lv.ots->n)
      return Error{Errc::invalid_argument, std::string("lms: ") + std::string(lv.lms->name) + " cannot use " +
                                               std::string(lv.ots->name)};
    if (lv.lms->hash != levels.front().lms->hash || lv.lms->m != levels.front().lms->m)
      return Error{Errc::invalid_argument, "lms: every HSS level must use the same hash and length"};
  }
  std::uint64_t total_h = 0;
  for (const auto& lv : levels) total_h += lv.lms->h;
  if (total_h > 63) return Error{Errc::invalid_argument, "lms: more than 2^63 signatures is not supported"};
  return {};
}

Result<std::vector<Level>> parse_levels(std::string_view spec) {
  std::vector<Level> out;
  std::string s(spec);
  // Short form: "lms-<hash>-m32-h10-w4" or "hss-<hash>-m32-h10-w8-h10-w8".
  const std::string t = lower(s);
  if (t.rfind("lms-", 0) == 0 || t.rfind("hss-", 0) == 0) {
    std::string rest = t.substr(4);
    const auto d1 = rest.find('-');
    const auto d2 = d1 == std::string::npos ? d1 : rest.find('-', d1 + 1);
    if (d2 == std::string::npos) return Error{Errc::unknown_suite, "lms: bad name '" + s + "'"};
    const std::string head = rest.substr(0, d2);  // "<hash>-m32"
    std::string tail = rest.substr(d2 + 1);       // "h10-w4-h5-w8"
    while (!tail.empty()) {
      const auto a = tail.find('-');
      const auto b = a == std::string::npos ? a : tail.find('-', a + 1);
      const std::string pair = tail.substr(0, b);
      auto lv = parse_short(head + "-" + pair);
      if (!lv) return lv.error();
      out.push_back(*lv);
      tail = b == std::string::npos ? "" : tail.substr(b + 1);
    }
  } else {
    std::size_t pos = 0;
    while (pos <= s.size()) {
      const auto comma = s.find(',', pos);
      const std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      const auto slash = item.find('/');
      if (slash == std::string::npos) return Error{Errc::unknown_suite, "lms: level '" + item + "' is not LMS_…/LMOTS_…"};
      Level lv{find_lms(item.substr(0, slash)), find_lmots(item.substr(slash + 1))};
      if (!lv.lms || !lv.ots) return Error{Errc::unknown_suite, "lms: unknown parameter set in '" + item + "'"};
      out.push_back(lv);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  if (auto st = check_levels(out); !st) return st.error();
  return out;
}

std::string levels_name(std::span<const Level> levels) {
  if (levels.empty()) return "";
  const auto& f = levels.front();
  std::string r = levels.size() == 1 ? "lms-" : "hss-";
  r += f.lms->hash == HashFamily::sha256 ? "sha256" : "shake";
  r += "-m" + std::to_string(f.lms->m);
  for (const auto& lv : levels) r += "-h" + std::to_string(lv.lms->h) + "-w" + std::to_string(lv.ots->w);
  return r;
}

}  // namespace pqsig::lms
