// pqsig — XMSS and XMSS^MT stateful hash-based signatures (RFC 8391; NIST SP 800-208 for the
// SHA-256/192, SHAKE256/256 and SHAKE256/192 parameter sets and the pseudorandom key generation).
//
// Encodings are RFC 8391's (Appendix B and C): a public key is u32str(oid) || root || SEED, an
// XMSS signature idx_sig (4 bytes) || r || sig_ots || auth, an XMSS^MT signature
// idx_sig (ceil(h/8) bytes) || r || d reduced XMSS signatures. XMSS and XMSS^MT have separate OID
// registries (both start at 1), so a public key alone does not say which one it is: the verify
// functions come in an XMSS and an XMSS^MT flavour.
//
// Private keys are ours (RFC 8391 leaves their format to the implementation):
// (parameters, SK_SEED, SK_PRF, PUB_SEED, root). The WOTS+ secret keys are derived as in
// SP 800-208 §7.2.1: sk[i] = PRF_keygen(SK_SEED, PUB_SEED || ADRS) (what xmss-reference does).
//
// The index is the whole danger: two messages signed at one index give away the key. Use
// Signer::sign_at() only through a StatefulSigner (below), which reserves indices in the same
// state store as LMS/HSS (pqsig/lms.hpp: reservation synced to disk before a signature leaves).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "pqsig/common.hpp"
#include "pqsig/lms.hpp"

namespace pqsig::xmss {

/// The hash function underneath F, H, H_msg, PRF and PRF_keygen (RFC 8391 §5.1; SP 800-208 §5).
enum class HashFunc : std::uint8_t {
  sha2_256,  ///< SHA-256, output truncated to n (n = 32 or 24)
  sha2_512,  ///< SHA-512 (n = 64)
  shake128,  ///< SHAKE128 with n output bytes (n = 32)
  shake256,  ///< SHAKE256 with n output bytes (n = 24, 32, 64)
};

/// An XMSS or XMSS^MT parameter set (RFC 8391 §5.2 / §5.3 and the IANA registry; SP 800-208 §5).
struct Params {
  bool mt;                  ///< XMSS^MT (true) or XMSS
  std::uint32_t oid;        ///< the registered OID (in the XMSS or the XMSS^MT registry)
  std::string_view name;    ///< "XMSS-SHA2_10_256", "XMSSMT-SHA2_20/2_256"
  HashFunc func;
  std::size_t n;            ///< hash output bytes (24, 32, 64)
  std::size_t padding;      ///< bytes of toByte(x, padding) domain separation (4, 32, 64)
  unsigned h;               ///< total tree height
  unsigned d;               ///< layers (1 for XMSS)

  unsigned tree_height() const noexcept { return h / d; }
  /// WOTS+ len = len_1 + len_2 with w = 16: 2n + 3 (RFC 8391 §3.1.1).
  unsigned wots_len() const noexcept { return static_cast<unsigned>(2 * n + 3); }
  /// Bytes of idx_sig: 4 for XMSS, ceil(h / 8) for XMSS^MT.
  std::size_t index_bytes() const noexcept { return mt ? (h + 7) / 8 : 4; }
  /// Signatures a key can make: 2^h.
  std::uint64_t max_signatures() const noexcept { return std::uint64_t{1} << h; }
  /// u32str(oid) || root || SEED.
  std::size_t public_key_bytes() const noexcept { return 4 + 2 * n; }
  /// idx_sig || r || d × (len·n + (h/d)·n).
  std::size_t signature_bytes() const noexcept {
    return index_bytes() + n + d * (wots_len() * n + tree_height() * n);
  }
};

/// Every set we implement: 21 XMSS and 56 XMSS^MT ones.
std::span<const Params> all_xmss() noexcept;
std::span<const Params> all_xmssmt() noexcept;
/// Lookups by OID in one registry, or by name in either (case-insensitive; '-' and '/' are the
/// same between the heights of an XMSS^MT name, so liboqs' "XMSSMT-SHA2_20-2_256" works).
/// nullptr when unknown.
const Params* find_xmss(std::uint32_t oid) noexcept;
const Params* find_xmssmt(std::uint32_t oid) noexcept;
const Params* find_params(std::string_view name) noexcept;

// ---------------------------------------------------------------- verification (public data)

/// RFC 8391 Algorithm 14 (XMSS_verify) with the public key's OID looked up among XMSS sets.
Status xmss_verify(byte_span public_key, byte_span message, byte_span signature);
/// RFC 8391 Algorithm 17 (XMSSMT_verify) with the OID looked up among XMSS^MT sets.
Status xmssmt_verify(byte_span public_key, byte_span message, byte_span signature);
/// Either, for a known set (the public key's OID must be p's).
Status verify(const Params& p, byte_span public_key, byte_span message, byte_span signature);
/// Checks an encoded public key (length and OID) for p, or finds its set: "xmss" or "xmssmt".
Result<const Params*> parse_public_key(bool mt, byte_span public_key);

// ---------------------------------------------------------------- key generation and signing

/// An XMSS / XMSS^MT private key: SK_SEED and SK_PRF (wiped memory), PUB_SEED and the root.
/// Move-only. It holds no index: the index lives in the state store.
class PrivateKey {
 public:
  /// RFC 8391 Algorithm 10 / 15: a fresh key from the OS random source (computes the root:
  /// 2^(h/d) WOTS+ key generations on `threads` threads, 0 = all cores).
  static Result<PrivateKey> generate(const Params& p, unsigned threads = 0);
  /// A key from given seeds (n bytes each): deterministic (tests, escrow). An empty `root`
  /// computes it; a given one is taken as is (it is public data, e.g. from a public key).
  static Result<PrivateKey> from_seeds(const Params& p, byte_span sk_seed, byte_span sk_prf, byte_span pub_seed,
                                       byte_span root = {}, unsigned threads = 0);
  /// Our encoding: "PQXMSS1" || u8(mt) || u32str(oid) || SK_SEED || SK_PRF || PUB_SEED || root.
  SecretBytes serialize() const;
  static Result<PrivateKey> parse(byte_span encoded);

  const Params& params() const noexcept { return *p_; }
  /// u32str(oid) || root || SEED (RFC 8391 Appendix B.3 / C.3).
  bytes public_key() const;
  byte_span sk_seed() const noexcept { return {secret_.data(), p_->n}; }
  byte_span sk_prf() const noexcept { return {secret_.data() + p_->n, p_->n}; }
  byte_span pub_seed() const noexcept { return pub_seed_; }
  byte_span root() const noexcept { return root_; }

  PrivateKey(PrivateKey&&) noexcept = default;
  PrivateKey& operator=(PrivateKey&&) noexcept = default;
  PrivateKey(const PrivateKey&) = delete;
  PrivateKey& operator=(const PrivateKey&) = delete;
  ~PrivateKey() = default;

 private:
  PrivateKey() = default;
  const Params* p_ = nullptr;
  SecretBytes secret_;  // SK_SEED || SK_PRF
  bytes pub_seed_;
  bytes root_;
};

namespace detail {
struct XmssSignerCache;
}

/// Signs at an index chosen by the caller. Keeps the tree of each layer it is signing in
/// (built on first use, rebuilt when the index leaves it), so consecutive indices cost one
/// WOTS+ signature each plus, at a tree boundary, the key generation of the next tree.
///
/// DANGER: sign_at() does not remember what it signed. StatefulSigner is the safe front end.
class Signer {
 public:
  /// tree_cache: a file for the top layer's tree (public data, checksummed, every interior node
  /// rechecked against the key's root on load; rebuilt and rewritten when missing or not this
  /// key's), so that a new process does not compute 2^(h/d) WOTS+ keys again. Empty: no cache.
  static Result<Signer> create(PrivateKey key, unsigned threads = 0, const std::string& tree_cache = "");
  const bytes& public_key() const noexcept;
  const Params& params() const noexcept;
  std::uint64_t max_signatures() const noexcept;
  /// RFC 8391 Algorithm 12 (XMSS_sign) / Algorithm 16 (XMSSMT_sign) at index `index`.
  Result<bytes> sign_at(std::uint64_t index, byte_span message);

  Signer(Signer&&) noexcept;
  Signer& operator=(Signer&&) noexcept;
  Signer(const Signer&) = delete;
  Signer& operator=(const Signer&) = delete;
  ~Signer();

 private:
  Signer();
  std::unique_ptr<detail::XmssSignerCache> c_;
};

// ---------------------------------------------------------------- the state

/// The safe signer: a Signer plus the LMS/HSS state store (lms::StateStore: state file keyed by
/// SHA-256 of the public key, audit log, flock, fsync before use). Each sign() takes the next
/// index of the current reservation; when it is used up it reserves `block` more (persisted
/// first). Every signature is verified before it is returned; then (index, SHA-256(msg)) is
/// appended to the audit log.
class StatefulSigner {
 public:
  /// Creates the state file for a new key (refuses to overwrite one).
  static Status create_state(const PrivateKey& key, const std::string& state_path);
  static Result<StatefulSigner> open(PrivateKey key, const std::string& state_path, std::uint64_t block = 64,
                                     unsigned threads = 0);
  struct Signed {
    std::uint64_t index;
    bytes signature;
  };
  Result<Signed> sign(byte_span message);
  const bytes& public_key() const noexcept { return signer_.public_key(); }
  const Params& params() const noexcept { return signer_.params(); }
  lms::Reservation current() const noexcept { return cur_; }
  lms::StateStore& store() noexcept { return store_; }
  /// Fleet mode, as lms::StatefulSigner::use_leases: reservations are leases from `source`.
  void use_leases(std::shared_ptr<lms::LeaseSource> source, std::string signer, std::uint64_t align = 1) {
    lease_source_ = std::move(source);
    lease_signer_ = std::move(signer);
    lease_align_ = align;
  }

 private:
  StatefulSigner(Signer s, lms::StateStore st, std::uint64_t block)
      : signer_(std::move(s)), store_(std::move(st)), block_(block) {}
  Signer signer_;
  lms::StateStore store_;
  std::uint64_t block_;
  lms::Reservation cur_{};
  std::shared_ptr<lms::LeaseSource> lease_source_;
  std::string lease_signer_;
  std::uint64_t lease_align_ = 1;
};

}  // namespace pqsig::xmss
