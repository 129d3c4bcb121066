// pqsig — LMS / HSS stateful hash-based signatures (RFC 8554; NIST SP 800-208; RFC 9858 for the
// SHA-256/192 and SHAKE256 parameter sets), and the state that keeps a one-time index from ever
// being used twice.
//
// Encodings are RFC 8554's: an LMS public key is u32str(lms_type) || u32str(lmots_type) || I || T[1]
// (§5.3), an HSS public key u32str(L) || pub[0] (§6.1), an HSS signature u32str(Nspk) ||
// signed_pub_key[0..Nspk-1] || sig[Nspk] (§6.2).
//
// Private keys are ours (RFC 8554 leaves their format to the implementation): the level
// parameters, the top tree's I and its SEED; every one-time key and every lower-level tree is
// derived from them by the pseudorandom key generation of RFC 8554 Appendix A, so a key is
// (params, I, SEED) and nothing else.
//
// The index is the whole danger: signing two messages at one index gives away the key. Use
// HssSigner::sign_at() only through a StatefulSigner (below), which reserves indices in a state
// file that is synced to disk before any signature at them leaves the process.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"

namespace pqsig::lms {

enum class HashFamily : std::uint8_t { sha256, shake256 };

/// An LM-OTS parameter set (RFC 8554 §4.1 Table 1; SP 800-208; RFC 9858).
struct LmotsParams {
  std::uint32_t type;        ///< the registered typecode
  std::string_view name;     ///< "LMOTS_SHA256_N32_W4"
  HashFamily hash;
  std::size_t n;             ///< hash output bytes (32 or 24)
  unsigned w;                ///< Winternitz parameter (1, 2, 4, 8)
  unsigned p;                ///< number of n-byte chains
  unsigned ls;               ///< checksum left shift
  std::size_t sig_bytes;     ///< 4 + n * (p + 1)
};

/// An LMS parameter set (RFC 8554 §5.1 Table 2; SP 800-208; RFC 9858).
struct LmsParams {
  std::uint32_t type;
  std::string_view name;     ///< "LMS_SHA256_M32_H10"
  HashFamily hash;
  std::size_t m;             ///< node bytes (32 or 24)
  unsigned h;                ///< tree height (5, 10, 15, 20, 25)
};

/// Every LM-OTS / LMS set we implement (16 and 20 entries). Lookups by typecode or name
/// (case-insensitive); nullptr when unknown.
std::span<const LmotsParams> all_lmots() noexcept;
std::span<const LmsParams> all_lms() noexcept;
const LmotsParams* find_lmots(std::uint32_t type) noexcept;
const LmotsParams* find_lmots(std::string_view name) noexcept;
const LmsParams* find_lms(std::uint32_t type) noexcept;
const LmsParams* find_lms(std::string_view name) noexcept;

/// One HSS level: an LMS tree and the LM-OTS keys of its leaves. SP 800-208 requires both to
/// use the same hash and output length; we require every level to use the same as well.
struct Level {
  const LmsParams* lms = nullptr;
  const LmotsParams* ots = nullptr;
};
constexpr std::size_t kMaxLevels = 8;  ///< RFC 8554 §6: L is 1..8
constexpr std::size_t kIdBytes = 16;   ///< I

/// Size of an LMS public key (24 + m), an LMS signature (RFC 8554 §5.4: 4 + ots sig + 4 + h·m),
/// an HSS public key (4 + LMS) and an HSS signature (§6.2).
std::size_t lms_public_key_bytes(const Level& lv) noexcept;
std::size_t lms_signature_bytes(const Level& lv) noexcept;
std::size_t hss_public_key_bytes(std::span<const Level> levels) noexcept;
std::size_t hss_signature_bytes(std::span<const Level> levels) noexcept;
/// Parses "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4" levels joined by ',' (also short forms
/// "sha256-m32-h10-w4" — see docs/lms.md). Checks the combination.
Result<std::vector<Level>> parse_levels(std::string_view spec);
/// Checks a level list: 1..8 levels, each LMS/LM-OTS pair of one hash and length, all levels alike.
Status check_levels(std::span<const Level> levels);
/// The short name of a level list, e.g. "lms-sha256-m32-h10-w4" or "hss-sha256-m32-h10-w8-h10-w8".
std::string levels_name(std::span<const Level> levels);

// ---------------------------------------------------------------- verification (public data)

/// RFC 8554 §5.4.2 (Algorithm 6): verify an LMS signature against an LMS public key.
Status lms_verify(byte_span public_key, byte_span message, byte_span signature);
/// RFC 8554 §6.3: verify an HSS signature against an HSS public key.
Status hss_verify(byte_span public_key, byte_span message, byte_span signature);

// ---------------------------------------------------------------- key generation and signing

/// RFC 8554 Appendix A: the LMS public key of the tree (I, SEED); the one-time
/// keys are x_q[i] = H(I || u32str(q) || u16str(i) || u8str(0xff) || SEED). seed is m bytes.
/// (ACVP LMS keyGen.)
Result<bytes> lms_public_key_from_seed(const Level& lv, byte_span I, byte_span seed);

/// An HSS private key: level parameters, the top tree's I and SEED (n bytes). Move-only;
/// the SEED lives in wiped memory.
class HssPrivateKey {
 public:
  /// A fresh key from the OS random source.
  static Result<HssPrivateKey> generate(std::span<const Level> levels);
  /// A key from a given I (16 bytes) and SEED (n bytes): deterministic (tests, ACVP, escrow).
  static Result<HssPrivateKey> from_seed(std::span<const Level> levels, byte_span I, byte_span seed);
  /// Our private-key encoding: "PQHSS1" || u32str(L) || L × (u32str(lms) || u32str(ots)) || I || SEED.
  SecretBytes serialize() const;
  static Result<HssPrivateKey> parse(byte_span encoded);

  const std::vector<Level>& levels() const noexcept { return levels_; }
  /// Number of signatures the key can make: the product of 2^h over the levels.
  std::uint64_t max_signatures() const noexcept;
  const std::array<std::uint8_t, kIdBytes>& id() const noexcept { return id_; }
  byte_span seed() const noexcept { return seed_.span(); }

  HssPrivateKey(HssPrivateKey&&) noexcept = default;
  HssPrivateKey& operator=(HssPrivateKey&&) noexcept = default;
  HssPrivateKey(const HssPrivateKey&) = delete;
  HssPrivateKey& operator=(const HssPrivateKey&) = delete;
  ~HssPrivateKey() = default;

 private:
  HssPrivateKey() = default;
  std::vector<Level> levels_;
  std::array<std::uint8_t, kIdBytes> id_{};
  SecretBytes seed_;
};

/// A delegated signer key (docs/lms.md, "HSS subtrees"): what signing inside a range of whole
/// level-1 subtrees [first_subtree, end_subtree) of an HSS key (L >= 2) needs, and nothing more.
/// For each subtree q it holds the level-1 tree's own I and SEED (derived from the top tree
/// exactly as the full key derives them, so its signatures are the full key's byte for byte), that
/// tree's LMS public key and the top tree's LMS signature of it (one top-level one-time key per
/// subtree, made at export time); plus the level parameters, the HSS public key and the range.
/// It never holds the top SEED, from which every other subtree could be derived.
/// Made by export_subtrees() (below). Move-only; the SEEDs live in wiped memory.
class DelegatedKey {
 public:
  struct Subtree {
    std::array<std::uint8_t, kIdBytes> id{};  ///< the level-1 tree's I
    SecretBytes seed;                          ///< the level-1 tree's SEED (m bytes)
    bytes public_key;                          ///< its LMS public key (RFC 8554 §5.3)
    bytes top_signature;                       ///< the top tree's LMS signature of public_key, leaf q
  };
  /// Limits of the encoding: at most this many subtrees, and this many bytes.
  static constexpr std::uint32_t kMaxSubtrees = 4096;
  static constexpr std::size_t kMaxEncodedBytes = std::size_t{32} << 20;

  /// Our encoding, version 1 (big-endian): "PQHSSDK1" || u32str(L) || L x (u32str(lms) ||
  /// u32str(ots)) || HSS public key || u32str(first_subtree) || u32str(end_subtree) || per subtree
  /// (I || SEED || LMS public key || top LMS signature) || SHA-256 of everything before.
  /// parse() checks all of it (types, lengths, range, checksum, each top signature against the HSS
  /// public key, each subtree's public key naming its I); a malformed input is a typed error.
  SecretBytes serialize() const;
  static Result<DelegatedKey> parse(byte_span encoded);

  const std::vector<Level>& levels() const noexcept { return levels_; }
  /// The HSS public key (RFC 8554 §6.1) the delegate's signatures verify under.
  const bytes& public_key() const noexcept { return pub_; }
  std::uint32_t first_subtree() const noexcept { return first_; }
  std::uint32_t end_subtree() const noexcept { return end_; }
  /// The global HSS indices the delegate may sign: [first_subtree, end_subtree) x hss_subtree_size.
  std::uint64_t first_index() const noexcept;
  std::uint64_t end_index() const noexcept;
  /// The public bytes the delegate's state file is keyed by ("PQHSSDID" || HSS public key ||
  /// u32str(first) || u32str(end)): a state of the full key or of another range is refused.
  bytes state_identity() const;
  /// The material of level-1 subtree q, or nullptr when q is outside the range.
  const Subtree* subtree(std::uint64_t q) const noexcept;

  DelegatedKey(DelegatedKey&&) noexcept = default;
  DelegatedKey& operator=(DelegatedKey&&) noexcept = default;
  DelegatedKey(const DelegatedKey&) = delete;
  DelegatedKey& operator=(const DelegatedKey&) = delete;
  ~DelegatedKey() = default;

 private:
  friend class DelegatedKeyBuilder;
  DelegatedKey() = default;
  std::vector<Level> levels_;
  bytes pub_;
  std::uint32_t first_ = 0, end_ = 0;
  std::vector<Subtree> subs_;
};

namespace detail {
struct SignerCache;
}

/// Signs with an HSS key at an index chosen by the caller. Keeps the trees it needs in memory
/// (the top tree from construction on, the lower ones as the index moves), so consecutive
/// indices cost one LM-OTS signature each plus, at a tree boundary, the key generation of the
/// next lower tree. Building the top tree is 2^h0 LM-OTS key generations (uses several threads).
///
/// DANGER: sign_at() does not remember what it signed. Two different messages at one index
/// reveal one-time keys; StatefulSigner is the safe front end.
class HssSigner {
 public:
  /// tree_cache: a file for the top tree's upper nodes (public data, checksummed; rebuilt and
  /// rewritten when missing or not this key's), so that a restart of a tall tree costs one
  /// subtree of height ≤ 10 instead of 2^h0 one-time keys. Empty: no cache.
  static Result<HssSigner> create(HssPrivateKey key, unsigned threads = 0, const std::string& tree_cache = "");
  /// A signer holding only a delegated key's subtrees: sign_at() outside [first_index, end_index)
  /// is refused with Errc::policy (it has no material there).
  static Result<HssSigner> create(DelegatedKey key, unsigned threads = 0);
  /// RFC 8554 §6.1: u32str(L) || pub[0].
  const bytes& public_key() const noexcept;
  std::uint64_t max_signatures() const noexcept;
  /// RFC 8554 §6.2 (with the lower trees of §6.1 derived for `index`): the HSS
  /// signature of message at global index `index` (top level most significant).
  Result<bytes> sign_at(std::uint64_t index, byte_span message);

  HssSigner(HssSigner&&) noexcept;
  HssSigner& operator=(HssSigner&&) noexcept;
  HssSigner(const HssSigner&) = delete;
  HssSigner& operator=(const HssSigner&) = delete;
  ~HssSigner();

 private:
  HssSigner();
  std::unique_ptr<detail::SignerCache> c_;
};

// ---------------------------------------------------------------- the state

/// A reservation of [first, end): these indices are ours, already persisted as used.
struct Reservation {
  std::uint64_t first = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const noexcept { return end - first; }
};

/// A fleet: signers of one key on several machines lease disjoint index ranges from a shared,
/// linearizable store (docs/lms.md, "Fleet"). The PQ core knows the store only through this
/// interface; the PostgreSQL implementation lives in the network layer (pqsig/hbs_fleet.hpp,
/// library pqsig_client). StateStore::reserve_lease() persists every lease locally before any
/// index of it is used.
struct LeaseRequest {
  std::string key_id;                  ///< hex SHA-256 of the public key (lms::key_id)
  std::string signer;                  ///< this signer's stable name (one per local state file)
  std::uint64_t count = 0;             ///< indices wanted (fewer at the end of the key)
  std::uint64_t align = 1;             ///< grant whole blocks of `align` indices starting at a multiple of it
  std::uint64_t local_end = 0;         ///< the local state's reserved_end: a grant below it is refused
  std::uint64_t local_generation = 0;  ///< the local state's generation (the store refuses one older
                                       ///< than it last saw from this signer: a rolled-back state)
  std::uint64_t limit = 0;             ///< the key's number of signatures
};

/// A source of leases: one compare-and-set transaction on a linearizable store per call, bounded
/// in time and retries. Errors: Errc::io when the store cannot be reached or does not answer in
/// time (message starts "lease store unavailable"), Errc::state_rejected when its answer or its
/// record contradicts the local state (rollback, hostile or corrupt row), Errc::key_exhausted,
/// Errc::unsupported when the implementation is not built in. Never a guess.
class LeaseSource {
 public:
  virtual ~LeaseSource() = default;
  virtual Result<Reservation> lease(const LeaseRequest& request) = 0;
};

/// The size of one level-1 subtree of an HSS key: the product of 2^h over the levels below the
/// top (1 for a one-level LMS key). A lease aligned to it covers whole lower trees, each signed by
/// one top-level one-time key (docs/lms.md, "Fleet").
std::uint64_t hss_subtree_size(std::span<const Level> levels) noexcept;

/// What a state file says (public data).
struct StateInfo {
  std::string key_id;             ///< hex SHA-256 of the HSS public key
  std::uint64_t reserved_end = 0; ///< every index below this may have been used
  std::uint64_t limit = 0;        ///< max_signatures of the key
  std::uint64_t generation = 0;   ///< bumped on every write
  std::uint64_t remaining() const noexcept { return limit - reserved_end; }
};

/// What the audit log shows (StateStore::audit).
struct AuditReport {
  std::uint64_t signatures = 0;             ///< S lines
  std::uint64_t reservations = 0;           ///< R lines
  std::vector<std::uint64_t> reused;        ///< indices with more than one S line (key compromised!)
  std::vector<std::uint64_t> unreserved;    ///< S indices inside no R range
  std::uint64_t overlapping_reservations = 0;
  bool clean() const noexcept { return reused.empty() && unreserved.empty() && overlapping_reservations == 0; }
};

/// The state of one key on one machine: a state file (the reservation high-water mark) and an
/// append-only audit log beside it (`<state>.log`: reservations and (index, SHA-256(message))
/// of every signature). All writes: temp file, fsync, rename, fsync of the directory; every
/// change under an exclusive flock of `<state>.lock`, so several processes can share a key.
///
/// Refusals (typed): Errc::key_exhausted when no index is left; Errc::state_rejected when the
/// state cannot be trusted (unreadable, checksum wrong, another key's, or rolled back: older
/// than its audit log); Errc::io when the disk does not take a write or a sync. Nothing is
/// ever rolled back: a failed or interrupted step leaves the indices it may have used burnt.
class StateStore {
 public:
  /// Creates a new state file (refuses to overwrite one) for the public key; limit = signatures.
  /// `first` (a delegated key's first index): the new state counts indices below it as used.
  static Status create(const std::string& state_path, byte_span hss_public_key, std::uint64_t limit,
                       std::uint64_t first = 0);
  /// Opens and checks a state file for this public key (and its log: rollback check).
  static Result<StateStore> open(const std::string& state_path, byte_span hss_public_key);
  /// Reserves up to `count` indices (fewer at the end of the key), persisted (synced) before
  /// return. key_exhausted when none is left.
  Result<Reservation> reserve(std::uint64_t count);
  /// Fleet mode: leases up to `count` indices from `source` (under this state's lock) and persists
  /// the lease here exactly like reserve() (state file written, synced, renamed, directory synced,
  /// log line) before returning it. The lease is checked against the local state first: it must
  /// start at or after the local reserved_end, end within the key, be no larger than asked, and be
  /// aligned when `align` > 1 — otherwise Errc::state_rejected and nothing is written. Indices
  /// between the old reserved_end and the lease belong to other signers and are skipped.
  /// The first lease also marks the state as a fleet member (an `F` line in its log): from then
  /// on reserve() refuses (Errc::policy), since a local reservation could take indices leased to
  /// other signers.
  Result<Reservation> reserve_lease(LeaseSource& source, const std::string& signer, std::uint64_t count,
                                    std::uint64_t align = 1);
  /// Subtree export: reserves exactly [first, end) for a delegate, persisted like reserve() (state
  /// file and R line) before it returns; the indices between the old reserved end and `first` are
  /// given up too (the state is a high-water mark). Refused with Errc::policy when `first` is below
  /// the reserved end (those indices may have been used here) or the state is a fleet member.
  Result<Reservation> reserve_range(std::uint64_t first, std::uint64_t end);
  /// Marks the state as a fleet member before its first lease (`hbs fleet-init`, `fleet-join`).
  Status join_fleet();
  /// Appends (index, SHA-256(message)) to the audit log and syncs it.
  Status log_signature(std::uint64_t index, byte_span message);
  /// Reads the state file again (under the lock) and checks it against the log.
  Result<StateInfo> info();
  /// Reads the whole audit log: every signature's index once, inside a reservation, reservations
  /// disjoint.
  Result<AuditReport> audit();
  const std::string& path() const noexcept { return path_; }
  const std::string& key_id_hex() const noexcept { return key_id_; }

  /// Test hook: called with a step name at each step of reservation and signing (see
  /// tests/lms/state_test.cpp, which kills the process there).
  using StepHook = void (*)(const char* step);
  static void set_step_hook(StepHook hook) noexcept;
  /// Runs the step hook (if one is set) at a step of a signer built on this store, so every
  /// stateful family (xmss::StatefulSigner too) is killed at the same points in the tests.
  static void run_step_hook(const char* step) noexcept;

 private:
  StateStore() = default;
  std::string path_;
  std::string key_id_;
};

/// The safe signer: an HssSigner plus a StateStore. Each sign() takes the next index of the
/// current reservation; when it is used up, it reserves `block` more (persisted first). A crash
/// loses the rest of the block, never repeats an index. Every signature is verified before it is
/// returned (a fault gives Errc::internal, never a wrong signature); then (index, SHA-256(msg))
/// is appended to the audit log.
class StatefulSigner {
 public:
  static Result<StatefulSigner> open(HssPrivateKey key, const std::string& state_path,
                                     std::uint64_t block = 64, unsigned threads = 0);
  struct Signed {
    std::uint64_t index;
    bytes signature;
  };
  /// A delegated key's signer: its own state file (StatefulSigner::create_delegate_state), keyed
  /// by the delegate's state_identity(), counting global indices inside its range only.
  static Result<StatefulSigner> open(DelegatedKey key, const std::string& state_path, std::uint64_t block = 64,
                                     unsigned threads = 0);
  /// Creates a delegated key's state file: limit end_index(), everything below first_index() used.
  static Status create_delegate_state(const DelegatedKey& key, const std::string& state_path);
  Result<Signed> sign(byte_span message);
  const bytes& public_key() const noexcept { return signer_.public_key(); }
  Reservation current() const noexcept { return cur_; }
  StateStore& store() noexcept { return store_; }
  /// Fleet mode: every later reservation is a lease from `source` (StateStore::reserve_lease),
  /// `signer` names this signer in the store, `align` (e.g. hss_subtree_size) aligns the leases.
  /// When the store is down, sign() goes on inside the lease it holds, then fails with the
  /// source's error (Errc::io) until the store answers again.
  void use_leases(std::shared_ptr<LeaseSource> source, std::string signer, std::uint64_t align = 1) {
    lease_source_ = std::move(source);
    lease_signer_ = std::move(signer);
    lease_align_ = align;
  }

 private:
  StatefulSigner(HssSigner s, StateStore st, std::uint64_t block)
      : signer_(std::move(s)), store_(std::move(st)), block_(block) {}
  HssSigner signer_;
  StateStore store_;
  std::uint64_t block_;
  Reservation cur_{};
  std::shared_ptr<LeaseSource> lease_source_;
  std::string lease_signer_;
  std::uint64_t lease_align_ = 1;
};

/// Exports level-1 subtrees [first_subtree, end_subtree) of an HSS key (L >= 2) as a DelegatedKey
/// (docs/lms.md, "HSS subtrees"). `parent` is the key's own state: the subtrees' indices are
/// reserved there (StateStore::reserve_range, synced, before any top-level one-time key signs),
/// so the parent can never sign them; then each subtree's public key is signed by the top tree at
/// leaf q (top one-time keys first_subtree .. end_subtree-1, one message each). A crash at any
/// point leaves the indices burnt in the parent, never usable by both. Errors: Errc::invalid_argument
/// (L < 2, an empty or too large range, past the top tree), Errc::policy (indices already reserved
/// in the parent, or a fleet state), Errc::state_rejected (a state of another key), Errc::io.
/// tree_cache: the parent's top-tree cache file (HssSigner::create), optional.
Result<DelegatedKey> export_subtrees(const HssPrivateKey& key, StateStore& parent, std::uint32_t first_subtree,
                                     std::uint32_t end_subtree, unsigned threads = 0,
                                     const std::string& tree_cache = "");

/// Hex SHA-256 of a public key (the key id in state files and logs).
std::string key_id(byte_span public_key);

}  // namespace pqsig::lms
