// XMSS / XMSS^MT parameter sets: RFC 8391 §5.3 (XMSS) and §5.4 (XMSS^MT), the IANA
// "XMSS Algorithm Types" / "XMSS^MT Algorithm Types" registries, and NIST SP 800-208 §5 (the
// SHA-256/192, SHAKE256/256 and SHAKE256/192 sets, OIDs 0x0D..0x15 and 0x21..0x38). padding is
// the byte length of toByte(x, .) in the keyed hash functions: n for the RFC 8391 sets, 4 for
// the 192-bit sets (SP 800-208 §5.1, §5.3).
#include <cctype>

#include "pqsig/xmss.hpp"

namespace pqsig::xmss {
namespace {

constexpr Params kXmssSets[] = {
    {false, 0x01, "XMSS-SHA2_10_256", HashFunc::sha2_256, 32, 32, 10, 1},
    {false, 0x02, "XMSS-SHA2_16_256", HashFunc::sha2_256, 32, 32, 16, 1},
    {false, 0x03, "XMSS-SHA2_20_256", HashFunc::sha2_256, 32, 32, 20, 1},
    {false, 0x04, "XMSS-SHA2_10_512", HashFunc::sha2_512, 64, 64, 10, 1},
    {false, 0x05, "XMSS-SHA2_16_512", HashFunc::sha2_512, 64, 64, 16, 1},
    {false, 0x06, "XMSS-SHA2_20_512", HashFunc::sha2_512, 64, 64, 20, 1},
    {false, 0x07, "XMSS-SHAKE_10_256", HashFunc::shake128, 32, 32, 10, 1},
    {false, 0x08, "XMSS-SHAKE_16_256", HashFunc::shake128, 32, 32, 16, 1},
    {false, 0x09, "XMSS-SHAKE_20_256", HashFunc::shake128, 32, 32, 20, 1},
    {false, 0x0a, "XMSS-SHAKE_10_512", HashFunc::shake256, 64, 64, 10, 1},
    {false, 0x0b, "XMSS-SHAKE_16_512", HashFunc::shake256, 64, 64, 16, 1},
    {false, 0x0c, "XMSS-SHAKE_20_512", HashFunc::shake256, 64, 64, 20, 1},
    {false, 0x0d, "XMSS-SHA2_10_192", HashFunc::sha2_256, 24, 4, 10, 1},
    {false, 0x0e, "XMSS-SHA2_16_192", HashFunc::sha2_256, 24, 4, 16, 1},
    {false, 0x0f, "XMSS-SHA2_20_192", HashFunc::sha2_256, 24, 4, 20, 1},
    {false, 0x10, "XMSS-SHAKE256_10_256", HashFunc::shake256, 32, 32, 10, 1},
    {false, 0x11, "XMSS-SHAKE256_16_256", HashFunc::shake256, 32, 32, 16, 1},
    {false, 0x12, "XMSS-SHAKE256_20_256", HashFunc::shake256, 32, 32, 20, 1},
    {false, 0x13, "XMSS-SHAKE256_10_192", HashFunc::shake256, 24, 4, 10, 1},
    {false, 0x14, "XMSS-SHAKE256_16_192", HashFunc::shake256, 24, 4, 16, 1},
    {false, 0x15, "XMSS-SHAKE256_20_192", HashFunc::shake256, 24, 4, 20, 1},
};

constexpr Params kXmssMtSets[] = {
    {true, 0x01, "XMSSMT-SHA2_20/2_256", HashFunc::sha2_256, 32, 32, 20, 2},
    {true, 0x02, "XMSSMT-SHA2_20/4_256", HashFunc::sha2_256, 32, 32, 20, 4},
    {true, 0x03, "XMSSMT-SHA2_40/2_256", HashFunc::sha2_256, 32, 32, 40, 2},
    {true, 0x04, "XMSSMT-SHA2_40/4_256", HashFunc::sha2_256, 32, 32, 40, 4},
    {true, 0x05, "XMSSMT-SHA2_40/8_256", HashFunc::sha2_256, 32, 32, 40, 8},
    {true, 0x06, "XMSSMT-SHA2_60/3_256", HashFunc::sha2_256, 32, 32, 60, 3},
    {true, 0x07, "XMSSMT-SHA2_60/6_256", HashFunc::sha2_256, 32, 32, 60, 6},
    {true, 0x08, "XMSSMT-SHA2_60/12_256", HashFunc::sha2_256, 32, 32, 60, 12},
    {true, 0x09, "XMSSMT-SHA2_20/2_512", HashFunc::sha2_512, 64, 64, 20, 2},
    {true, 0x0a, "XMSSMT-SHA2_20/4_512", HashFunc::sha2_512, 64, 64, 20, 4},
    {true, 0x0b, "XMSSMT-SHA2_40/2_512", HashFunc::sha2_512, 64, 64, 40, 2},
    {true, 0x0c, "XMSSMT-SHA2_40/4_512", HashFunc::sha2_512, 64, 64, 40, 4},
    {true, 0x0d, "XMSSMT-SHA2_40/8_512", HashFunc::sha2_512, 64, 64, 40, 8},
    {true, 0x0e, "XMSSMT-SHA2_60/3_512", HashFunc::sha2_512, 64, 64, 60, 3},
    {true, 0x0f, "XMSSMT-SHA2_60/6_512", HashFunc::sha2_512, 64, 64, 60, 6},
    {true, 0x10, "XMSSMT-SHA2_60/12_512", HashFunc::sha2_512, 64, 64, 60, 12},
    {true, 0x11, "XMSSMT-SHAKE_20/2_256", HashFunc::shake128, 32, 32, 20, 2},
    {true, 0x12, "XMSSMT-SHAKE_20/4_256", HashFunc::shake128, 32, 32, 20, 4},
    {true, 0x13, "XMSSMT-SHAKE_40/2_256", HashFunc::shake128, 32, 32, 40, 2},
    {true, 0x14, "XMSSMT-SHAKE_40/4_256", HashFunc::shake128, 32, 32, 40, 4},
    {true, 0x15, "XMSSMT-SHAKE_40/8_256", HashFunc::shake128, 32, 32, 40, 8},
    {true, 0x16, "XMSSMT-SHAKE_60/3_256", HashFunc::shake128, 32, 32, 60, 3},
    {true, 0x17, "XMSSMT-SHAKE_60/6_256", HashFunc::shake128, 32, 32, 60, 6},
    {true, 0x18, "XMSSMT-SHAKE_60/12_256", HashFunc::shake128, 32, 32, 60, 12},
    {true, 0x19, "XMSSMT-SHAKE_20/2_512", HashFunc::shake256, 64, 64, 20, 2},
    {true, 0x1a, "XMSSMT-SHAKE_20/4_512", HashFunc::shake256, 64, 64, 20, 4},
    {true, 0x1b, "XMSSMT-SHAKE_40/2_512", HashFunc::shake256, 64, 64, 40, 2},
    {true, 0x1c, "XMSSMT-SHAKE_40/4_512", HashFunc::shake256, 64, 64, 40, 4},
    {true, 0x1d, "XMSSMT-SHAKE_40/8_512", HashFunc::shake256, 64, 64, 40, 8},
    {true, 0x1e, "XMSSMT-SHAKE_60/3_512", HashFunc::shake256, 64, 64, 60, 3},
    {true, 0x1f, "XMSSMT-SHAKE_60/6_512", HashFunc::shake256, 64, 64, 60, 6},
    {true, 0x20, "XMSSMT-SHAKE_60/12_512", HashFunc::shake256, 64, 64, 60, 12},
    {true, 0x21, "XMSSMT-SHA2_20/2_192", HashFunc::sha2_256, 24, 4, 20, 2},
    {true, 0x22, "XMSSMT-SHA2_20/4_192", HashFunc::sha2_256, 24, 4, 20, 4},
    {true, 0x23, "XMSSMT-SHA2_40/2_192", HashFunc::sha2_256, 24, 4, 40, 2},
    {true, 0x24, "XMSSMT-SHA2_40/4_192", HashFunc::sha2_256, 24, 4, 40, 4},
    {true, 0x25, "XMSSMT-SHA2_40/8_192", HashFunc::sha2_256, 24, 4, 40, 8},
    {true, 0x26, "XMSSMT-SHA2_60/3_192", HashFunc::sha2_256, 24, 4, 60, 3},
    {true, 0x27, "XMSSMT-SHA2_60/6_192", HashFunc::sha2_256, 24, 4, 60, 6},
    {true, 0x28, "XMSSMT-SHA2_60/12_192", HashFunc::sha2_256, 24, 4, 60, 12},
    {true, 0x29, "XMSSMT-SHAKE256_20/2_256", HashFunc::shake256, 32, 32, 20, 2},
    {true, 0x2a, "XMSSMT-SHAKE256_20/4_256", HashFunc::shake256, 32, 32, 20, 4},
    {true, 0x2b, "XMSSMT-SHAKE256_40/2_256", HashFunc::shake256, 32, 32, 40, 2},
    {true, 0x2c, "XMSSMT-SHAKE256_40/4_256", HashFunc::shake256, 32, 32, 40, 4},
    {true, 0x2d, "XMSSMT-SHAKE256_40/8_256", HashFunc::shake256, 32, 32, 40, 8},
    {true, 0x2e, "XMSSMT-SHAKE256_60/3_256", HashFunc::shake256, 32, 32, 60, 3},
    {true, 0x2f, "XMSSMT-SHAKE256_60/6_256", HashFunc::shake256, 32, 32, 60, 6},
    {true, 0x30, "XMSSMT-SHAKE256_60/12_256", HashFunc::shake256, 32, 32, 60, 12},
    {true, 0x31, "XMSSMT-SHAKE256_20/2_192", HashFunc::shake256, 24, 4, 20, 2},
    {true, 0x32, "XMSSMT-SHAKE256_20/4_192", HashFunc::shake256, 24, 4, 20, 4},
    {true, 0x33, "XMSSMT-SHAKE256_40/2_192", HashFunc::shake256, 24, 4, 40, 2},
    {true, 0x34, "XMSSMT-SHAKE256_40/4_192", HashFunc::shake256, 24, 4, 40, 4},
    {true, 0x35, "XMSSMT-SHAKE256_40/8_192", HashFunc::shake256, 24, 4, 40, 8},
    {true, 0x36, "XMSSMT-SHAKE256_60/3_192", HashFunc::shake256, 24, 4, 60, 3},
    {true, 0x37, "XMSSMT-SHAKE256_60/6_192", HashFunc::shake256, 24, 4, 60, 6},
    {true, 0x38, "XMSSMT-SHAKE256_60/12_192", HashFunc::shake256, 24, 4, 60, 12},
};

static_assert(sizeof(kXmssSets) / sizeof(kXmssSets[0]) == 21);
static_assert(sizeof(kXmssMtSets) / sizeof(kXmssMtSets[0]) == 56);

// Case-insensitive name compare; '/' and '-' are one character (liboqs writes 20-2).
bool xmss_name_equal(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = static_cast<char>(std::toupper(static_cast<unsigned char>(a[i])));
    char y = static_cast<char>(std::toupper(static_cast<unsigned char>(b[i])));
    if (x == '/') x = '-';
    if (y == '/') y = '-';
    if (x != y) return false;
  }
  return true;
}

}  // namespace

std::span<const Params> all_xmss() noexcept { return kXmssSets; }
std::span<const Params> all_xmssmt() noexcept { return kXmssMtSets; }

const Params* find_xmss(std::uint32_t oid) noexcept {
  for (const auto& p : kXmssSets)
    if (p.oid == oid) return &p;
  return nullptr;
}

const Params* find_xmssmt(std::uint32_t oid) noexcept {
  for (const auto& p : kXmssMtSets)
    if (p.oid == oid) return &p;
  return nullptr;
}

const Params* find_params(std::string_view name) noexcept {
  for (const auto& p : kXmssSets)
    if (xmss_name_equal(p.name, name)) return &p;
  for (const auto& p : kXmssMtSets)
    if (xmss_name_equal(p.name, name)) return &p;
  return nullptr;
}

}  // namespace pqsig::xmss
