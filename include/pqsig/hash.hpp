// pqsig — hash functions of the PQ core: Keccak-f[1600] (FIPS 202) and SHA-2 (FIPS 180-4).
// Our own implementations; no OpenSSL. Incremental absorb / squeeze.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "pqsig/common.hpp"

namespace pqsig::hash {

// ---------------------------------------------------------------- Keccak / SHA-3

/// FIPS 202 §3: the Keccak-f[1600] permutation on 25 lanes. Dispatches at run time to the
/// best available backend (scalar reference today).
void keccak_f1600(std::uint64_t st[25]) noexcept;
/// Four independent permutations at once (AVX-512VL or AVX2 when the CPU has it; the scalar
/// fallback runs them one after another). Callers that can batch (ExpandA, SampleNTT)
/// should use Shake128x4 / Shake256x4 below.
void keccak_f1600_x4(std::uint64_t st[4][25]) noexcept;
/// The portable reference permutation (always available; SIMD backends are tested against it).
void keccak_f1600_scalar(std::uint64_t st[25]) noexcept;

/// A sponge with rate `rate` bytes and domain-separation byte `dsbyte` (0x06 SHA-3, 0x1F SHAKE).
/// absorb() may be called any number of times, then squeeze() any number of times.
class Keccak {
 public:
  Keccak(std::size_t rate, std::uint8_t dsbyte) noexcept : rate_(rate), ds_(dsbyte) {}
  ~Keccak() { secure_zero(st_, sizeof st_); }
  Keccak(const Keccak&) = default;
  Keccak& operator=(const Keccak&) = default;

  void absorb(byte_span in) noexcept;
  void absorb(const void* p, std::size_t n) noexcept {
    absorb(byte_span(static_cast<const std::uint8_t*>(p), n));
  }
  /// Pads on the first call, then squeezes continuously across calls.
  void squeeze(mut_byte_span out) noexcept;
  void squeeze(void* p, std::size_t n) noexcept { squeeze(mut_byte_span(static_cast<std::uint8_t*>(p), n)); }
  /// Squeeze whole blocks (rate bytes each) — fast path for rejection samplers.
  void squeeze_blocks(std::uint8_t* out, std::size_t nblocks) noexcept;
  void reset() noexcept;
  std::size_t rate() const noexcept { return rate_; }

 private:
  void finalize() noexcept;
  std::uint64_t st_[25]{};
  std::size_t rate_;
  std::size_t pos_ = 0;       // absorb position, or squeeze position after finalize
  std::uint8_t ds_;
  bool squeezing_ = false;
};

struct Shake128 : Keccak { Shake128() noexcept : Keccak(168, 0x1F) {} };
struct Shake256 : Keccak { Shake256() noexcept : Keccak(136, 0x1F) {} };
struct Sha3_224 : Keccak { Sha3_224() noexcept : Keccak(144, 0x06) {} };
struct Sha3_256 : Keccak { Sha3_256() noexcept : Keccak(136, 0x06) {} };
struct Sha3_384 : Keccak { Sha3_384() noexcept : Keccak(104, 0x06) {} };
struct Sha3_512 : Keccak { Sha3_512() noexcept : Keccak(72, 0x06) {} };

constexpr std::size_t kShake128Rate = 168;
constexpr std::size_t kShake256Rate = 136;

/// Four SHAKE instances driven in lock-step (same input lengths), on the 4-way Keccak backend
/// chosen at run time (AVX-512VL, AVX2 or scalar). The four states stay interleaved lane by
/// lane between calls. Construct with wipe = false when every input is public (e.g. ExpandA's ρ)
/// to skip wiping the 800-byte state on destruction.
class Shake128x4 {
 public:
  Shake128x4() noexcept = default;
  explicit Shake128x4(bool wipe) noexcept : wipe_(wipe) {}
  /// Absorb four equal-length inputs and finalize.
  void absorb_once(const std::uint8_t* in[4], std::size_t len) noexcept;
  /// Squeeze nblocks blocks of 168 bytes into each of out[0..3].
  void squeeze_blocks(std::uint8_t* out[4], std::size_t nblocks) noexcept;
  ~Shake128x4() {
    if (wipe_) secure_zero(st_, sizeof st_);
  }

 private:
  alignas(32) std::uint64_t st_[25][4];  // lane i of instance j at st_[i][j]; set by absorb_once
  bool wipe_ = true;
};
class Shake256x4 {
 public:
  Shake256x4() noexcept = default;
  explicit Shake256x4(bool wipe) noexcept : wipe_(wipe) {}
  void absorb_once(const std::uint8_t* in[4], std::size_t len) noexcept;
  void squeeze_blocks(std::uint8_t* out[4], std::size_t nblocks) noexcept;
  ~Shake256x4() {
    if (wipe_) secure_zero(st_, sizeof st_);
  }

 private:
  alignas(32) std::uint64_t st_[25][4];
  bool wipe_ = true;
};

/// Eight independent SHAKE instances (FIPS 202 §6.2) squeezed together, each lane with its own
/// rate (SHAKE128 or SHAKE256) over one short input: one 8-way permutation per block
/// (AVX-512F), else two 4-way ones (one when lanes 4–7 are idle). Lets a caller batch
/// SampleNTT, ExpandA/ExpandS/ExpandMask and PRF calls eight at a time, mixing SHAKE128 and
/// SHAKE256 lanes. Construct with wipe = false only when every input is public.
class ShakeX8 {
 public:
  static constexpr int kLanes = 8;
  /// True when eight lanes cost one permutation (the 8-way backend runs on this CPU); without
  /// it a half of four lanes costs a 4-way call, so callers may prefer other schedules.
  static bool eight_way() noexcept;
  explicit ShakeX8(bool wipe = true) noexcept;
  ~ShakeX8();
  ShakeX8(const ShakeX8&) = delete;
  ShakeX8& operator=(const ShakeX8&) = delete;
  /// Lane `lane` (re)starts as a fresh sponge with the given rate (kShake128Rate or
  /// kShake256Rate) that has absorbed `in` (len < rate) with padding: the next squeeze returns
  /// its first block. Lanes never set stay idle.
  void absorb_once(int lane, std::size_t rate, const std::uint8_t* in, std::size_t len) noexcept;
  /// Lane `lane` (re)starts as an empty sponge for a long input fed by squeeze_blocks_absorbing.
  void start_long(int lane, std::size_t rate) noexcept;
  /// nblocks times: permute, then append the next block (the lane's rate in bytes) of every
  /// active lane j with out[j] != nullptr to out[j] (advanced past what was written).
  void squeeze_blocks(std::uint8_t* out[kLanes], std::size_t nblocks) noexcept;
  /// The same, with lane `lane` absorbing one block of `in` (its rate in bytes, already padded
  /// by the caller for the last one) before each permutation: a long input hashed on one lane
  /// while the others squeeze.
  void squeeze_blocks_absorbing(std::uint8_t* out[kLanes], std::size_t nblocks, int lane,
                                const std::uint8_t* in) noexcept;
  /// The lane is idle from now on (the fallback without the 8-way backend may then skip a half).
  void retire(int lane) noexcept { rate_lanes_[lane] = 0; }
  /// Copies lane `lane`'s 25 words out / back in (to step it out of permutations it must skip).
  void save_lane(int lane, std::uint64_t out[25]) const noexcept;
  void load_lane(int lane, const std::uint64_t in[25]) noexcept;

 private:
  void zero_unstarted() noexcept;
  alignas(64) std::uint64_t st_[25][kLanes];  // lane i of instance j at st_[i][j]; lanes never
                                               // started are zeroed by the first squeeze
  std::uint8_t rate_lanes_[kLanes] = {};       // 0: idle
  std::uint8_t started_ = 0;                   // lanes ever started (bit j)
  bool wipe_;
};

// One-shot helpers.
void shake128(mut_byte_span out, byte_span in) noexcept;
void shake256(mut_byte_span out, byte_span in) noexcept;
std::array<std::uint8_t, 28> sha3_224(byte_span in) noexcept;
std::array<std::uint8_t, 32> sha3_256(byte_span in) noexcept;
std::array<std::uint8_t, 48> sha3_384(byte_span in) noexcept;
std::array<std::uint8_t, 64> sha3_512(byte_span in) noexcept;

// ---------------------------------------------------------------- SHA-2 (FIPS 180-4)

/// SHA-224 / SHA-256 (FIPS 180-4 §6.2/§6.3). The compression function is selected at run
/// time (SHA-NI when the CPU has it, scalar otherwise). The raw state is exposed so that
/// SLH-DSA can keep a precomputed state after the PK.seed block (FIPS 205 §11.2).
class Sha256 {
 public:
  explicit Sha256(bool is224 = false) noexcept { reset(is224); }
  void reset(bool is224 = false) noexcept;
  void update(byte_span in) noexcept;
  void update(const void* p, std::size_t n) noexcept {
    update(byte_span(static_cast<const std::uint8_t*>(p), n));
  }
  /// Writes 32 bytes (28 significant for SHA-224).
  void final(std::uint8_t out[32]) noexcept;
  ~Sha256() { secure_zero(this, sizeof *this); }
  Sha256(const Sha256&) = default;
  Sha256& operator=(const Sha256&) = default;

  std::uint32_t h[8];
  std::uint8_t buf[64];
  std::uint64_t total = 0;  // bytes absorbed
  std::size_t buflen = 0;
};

/// SHA-384 / SHA-512 / SHA-512/224 / SHA-512/256 (FIPS 180-4 §6.4–§6.7).
class Sha512 {
 public:
  enum class Variant { sha512, sha384, sha512_224, sha512_256 };
  explicit Sha512(Variant v = Variant::sha512) noexcept { reset(v); }
  void reset(Variant v = Variant::sha512) noexcept;
  void update(byte_span in) noexcept;
  void update(const void* p, std::size_t n) noexcept {
    update(byte_span(static_cast<const std::uint8_t*>(p), n));
  }
  /// Writes 64 bytes (truncate for the shorter variants).
  void final(std::uint8_t out[64]) noexcept;
  ~Sha512() { secure_zero(this, sizeof *this); }
  Sha512(const Sha512&) = default;
  Sha512& operator=(const Sha512&) = default;

  std::uint64_t h[8];
  std::uint8_t buf[128];
  std::uint64_t total = 0;
  std::size_t buflen = 0;
};

/// Compression functions (blocks of 64 / 128 bytes). Dispatched at run time.
void sha256_compress(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept;
void sha256_compress_scalar(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept;
void sha512_compress(std::uint64_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept;
/// True when the SHA-256 dispatch uses the SHA-NI backend.
bool sha256_uses_shani() noexcept;

std::array<std::uint8_t, 32> sha256(byte_span in) noexcept;
std::array<std::uint8_t, 28> sha224(byte_span in) noexcept;
std::array<std::uint8_t, 64> sha512(byte_span in) noexcept;
std::array<std::uint8_t, 48> sha384(byte_span in) noexcept;

// ---------------------------------------------------------------- pre-hash registry

/// The pre-hash functions of HashML-DSA (FIPS 204 §5.4) and HashSLH-DSA (FIPS 205 §10.2),
/// named as ACVP names them.
enum class PreHash {
  sha2_224, sha2_256, sha2_384, sha2_512, sha2_512_224, sha2_512_256,
  sha3_224, sha3_256, sha3_384, sha3_512, shake_128, shake_256,
};
struct PreHashInfo {
  PreHash id;
  std::string_view acvp_name;   ///< e.g. "SHA2-256", "SHAKE-128"
  std::size_t out_len;          ///< digest bytes (SHAKE128: 32, SHAKE256: 64 per FIPS 204/205)
  std::array<std::uint8_t, 11> oid_der;  ///< DER of the OID (06 09 60 86 48 01 65 03 04 02 xx)
};
/// Lookup by ACVP name (case-insensitive; "SHA-256"/"SHA256" also accepted). nullptr if unknown.
const PreHashInfo* find_prehash(std::string_view name) noexcept;
const PreHashInfo& prehash_info(PreHash id) noexcept;
/// Compute PH(M) into out (out.size() must be info.out_len).
void prehash_compute(PreHash id, byte_span msg, mut_byte_span out) noexcept;

}  // namespace pqsig::hash
