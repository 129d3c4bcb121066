// FIPS 205 §4.2–§4.3: the 32-byte address ADRS and its member functions (Table 1), plus the
// 22-byte compressed form ADRS^c of the SHA2 family (§11.2).
#pragma once
#include <cstdint>
#include <cstring>

namespace pqsig::slhdsa::detail {

/// FIPS 205 §4.2 address types.
enum AdrsType : std::uint32_t {
  WOTS_HASH = 0, WOTS_PK = 1, TREE = 2, FORS_TREE = 3, FORS_ROOTS = 4, WOTS_PRF = 5, FORS_PRF = 6,
};

/// layer (4) | tree address (12) | type (4) | keypair (4) | chain / tree height (4) | hash / tree index (4).
struct Adrs {
  alignas(8) std::uint8_t b[32]{};

  static void put32(std::uint8_t* p, std::uint32_t v) noexcept {
    p[0] = std::uint8_t(v >> 24); p[1] = std::uint8_t(v >> 16); p[2] = std::uint8_t(v >> 8); p[3] = std::uint8_t(v);
  }
  static std::uint32_t get32(const std::uint8_t* p) noexcept {
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
  }

  void setLayerAddress(std::uint32_t l) noexcept { put32(b, l); }
  /// The tree address is 12 bytes; FIPS 205 trees fit in 64 bits, so the top 4 stay zero.
  void setTreeAddress(std::uint64_t t) noexcept {
    put32(b + 4, 0);
    put32(b + 8, std::uint32_t(t >> 32));
    put32(b + 12, std::uint32_t(t));
  }
  /// Sets the type and zeroes the final 12 bytes.
  void setTypeAndClear(std::uint32_t y) noexcept {
    put32(b + 16, y);
    std::memset(b + 20, 0, 12);
  }
  void setKeyPairAddress(std::uint32_t i) noexcept { put32(b + 20, i); }
  std::uint32_t getKeyPairAddress() const noexcept { return get32(b + 20); }
  void setChainAddress(std::uint32_t i) noexcept { put32(b + 24, i); }
  void setTreeHeight(std::uint32_t z) noexcept { put32(b + 24, z); }
  void setHashAddress(std::uint32_t i) noexcept { put32(b + 28, i); }
  void setTreeIndex(std::uint32_t i) noexcept { put32(b + 28, i); }
  std::uint32_t getTreeIndex() const noexcept { return get32(b + 28); }

  /// FIPS 205 §11.2: ADRS^c = ADRS[3] || ADRS[8:16] || ADRS[19] || ADRS[20:32] (22 bytes).
  void compress(std::uint8_t out[22]) const noexcept {
    out[0] = b[3];
    std::memcpy(out + 1, b + 8, 8);
    out[9] = b[19];
    std::memcpy(out + 10, b + 20, 12);
  }
};

}  // namespace pqsig::slhdsa::detail
