// HSS subtree export (docs/lms.md, "HSS subtrees"): a delegated signer key that holds level-1
// subtrees [a, b) of an HSS key and nothing from which another subtree could be derived.
//
// RFC 8554 §6 builds an HSS signature from the signed public keys of the levels above the last;
// for a level-1 tree that is the top tree's LMS signature of its public key at leaf q. Those are
// made once here (top one-time keys a .. b-1, each signing exactly one message, the public key of
// subtree q) and shipped with the subtree's own (I, SEED), derived exactly as HssSigner derives
// them, so a delegate's signature equals the full key's at the same index byte for byte.
#include <cstring>

#include "lms/lms_internal.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/lms.hpp"

namespace pqsig::lms {

using namespace detail;

namespace {
constexpr char kDelegateMagic[8] = {'P', 'Q', 'H', 'S', 'S', 'D', 'K', '1'};
constexpr char kDelegateIdMagic[8] = {'P', 'Q', 'H', 'S', 'S', 'D', 'I', 'D'};

// Sum of the heights below the top; 0 when the key is too tall for 64-bit indices.
unsigned delegate_shift(const std::vector<Level>& levels) noexcept {
  unsigned below = 0;
  for (std::size_t i = 1; i < levels.size(); ++i) below += levels[i].lms->h;
  return below;
}
bool delegate_fits(const std::vector<Level>& levels) noexcept {
  return levels.size() >= 2 && delegate_shift(levels) + levels[0].lms->h < 64;
}
std::size_t delegate_subtree_bytes(const std::vector<Level>& levels) noexcept {
  return kIdBytes + levels[1].lms->m + lms_public_key_bytes(levels[1]) + lms_signature_bytes(levels[0]);
}
}  // namespace

// The one place that fills a DelegatedKey (its constructor is private).
class DelegatedKeyBuilder {
 public:
  static DelegatedKey empty() { return DelegatedKey(); }
  static void set(DelegatedKey& k, std::vector<Level> levels, bytes pub, std::uint32_t a, std::uint32_t b) {
    k.levels_ = std::move(levels);
    k.pub_ = std::move(pub);
    k.first_ = a;
    k.end_ = b;
    k.subs_.clear();
    k.subs_.reserve(b - a);
  }
  static void add(DelegatedKey& k, DelegatedKey::Subtree s) { k.subs_.push_back(std::move(s)); }
};

std::uint64_t DelegatedKey::first_index() const noexcept {
  return levels_.size() < 2 ? 0 : std::uint64_t{first_} << delegate_shift(levels_);
}
std::uint64_t DelegatedKey::end_index() const noexcept {
  return levels_.size() < 2 ? 0 : std::uint64_t{end_} << delegate_shift(levels_);
}

const DelegatedKey::Subtree* DelegatedKey::subtree(std::uint64_t q) const noexcept {
  if (q < first_ || q >= end_ || q - first_ >= subs_.size()) return nullptr;
  return &subs_[static_cast<std::size_t>(q - first_)];
}

bytes DelegatedKey::state_identity() const {
  bytes out(8 + pub_.size() + 8, 0);
  std::memcpy(out.data(), kDelegateIdMagic, 8);
  if (!pub_.empty()) std::memcpy(out.data() + 8, pub_.data(), pub_.size());
  put_u32(out.data() + 8 + pub_.size(), first_);
  put_u32(out.data() + 12 + pub_.size(), end_);
  return out;
}

SecretBytes DelegatedKey::serialize() const {
  if (levels_.size() < 2) return SecretBytes();
  const std::size_t head = 8 + 4 + 8 * levels_.size() + pub_.size() + 8;
  SecretBytes out(head + subs_.size() * delegate_subtree_bytes(levels_) + 32);
  std::uint8_t* p = out.data();
  std::memcpy(p, kDelegateMagic, 8);
  put_u32(p + 8, static_cast<std::uint32_t>(levels_.size()));
  p = put_level_types(p + 12, levels_);
  std::memcpy(p, pub_.data(), pub_.size());
  p += pub_.size();
  put_u32(p, first_);
  put_u32(p + 4, end_);
  p += 8;
  for (const auto& s : subs_) {
    std::memcpy(p, s.id.data(), kIdBytes);
    p += kIdBytes;
    std::memcpy(p, s.seed.data(), s.seed.size());
    p += s.seed.size();
    std::memcpy(p, s.public_key.data(), s.public_key.size());
    p += s.public_key.size();
    std::memcpy(p, s.top_signature.data(), s.top_signature.size());
    p += s.top_signature.size();
  }
  const auto d = hash::sha256(byte_span(out.data(), static_cast<std::size_t>(p - out.data())));
  std::memcpy(p, d.data(), 32);
  return out;
}

Result<DelegatedKey> DelegatedKey::parse(byte_span e) {
  auto bad = [](Errc c, const std::string& why) { return Error{c, "hss delegated key: " + why}; };
  if (e.size() > kMaxEncodedBytes) return bad(Errc::invalid_length, "larger than the format's limit");
  if (e.size() < 12 || std::memcmp(e.data(), kDelegateMagic, 8) != 0)
    return bad(Errc::invalid_encoding, "not a delegated HSS key (PQHSSDK1)");
  const std::uint32_t L = get_u32(e.data() + 8);
  if (L < 2 || L > kMaxLevels) return bad(Errc::invalid_encoding, "L must be 2..8");
  if (e.size() < 12 + 8 * std::size_t{L}) return bad(Errc::invalid_length, "truncated level list");
  std::vector<Level> levels;
  if (!get_level_types(e.data() + 12, L, levels)) return bad(Errc::invalid_encoding, "unknown LMS or LM-OTS type");
  if (auto st = check_levels(levels); !st) return bad(Errc::invalid_encoding, st.error().message);
  if (!delegate_fits(levels)) return bad(Errc::unsupported, "the key has more than 2^63 signatures");
  std::size_t off = 12 + 8 * std::size_t{L};
  const std::size_t pub_len = hss_public_key_bytes(levels);
  if (e.size() < off + pub_len + 8 + 32) return bad(Errc::invalid_length, "truncated public key or range");
  const byte_span pub = e.subspan(off, pub_len);
  if (get_u32(pub.data()) != L || get_u32(pub.data() + 4) != levels[0].lms->type ||
      get_u32(pub.data() + 8) != levels[0].ots->type)
    return bad(Errc::invalid_encoding, "the HSS public key does not match the levels");
  off += pub_len;
  const std::uint32_t a = get_u32(e.data() + off), b = get_u32(e.data() + off + 4);
  off += 8;
  if (a >= b) return bad(Errc::invalid_encoding, "empty or inverted subtree range");
  if (b - a > kMaxSubtrees) return bad(Errc::invalid_encoding, "more subtrees than the format allows");
  if (std::uint64_t{b} > (std::uint64_t{1} << levels[0].lms->h))
    return bad(Errc::invalid_encoding, "subtree range past the top tree");
  const std::size_t per = delegate_subtree_bytes(levels);
  if (e.size() != off + std::size_t{b - a} * per + 32) return bad(Errc::invalid_length, "length does not match the range");
  const auto d = hash::sha256(e.first(e.size() - 32));
  if (!ct_equal(d, e.last(32))) return bad(Errc::invalid_encoding, "checksum wrong (corrupt or altered)");
  DelegatedKey k;
  DelegatedKeyBuilder::set(k, levels, bytes(pub.begin(), pub.end()), a, b);
  const std::size_t m = levels[1].lms->m;
  const std::size_t cpl = lms_public_key_bytes(levels[1]), tsl = lms_signature_bytes(levels[0]);
  const byte_span top_pub = pub.subspan(4);
  for (std::uint32_t q = a; q < b; ++q, off += per) {
    DelegatedKey::Subtree s;
    std::memcpy(s.id.data(), e.data() + off, kIdBytes);
    s.seed = SecretBytes(e.subspan(off + kIdBytes, m));
    const byte_span cp = e.subspan(off + kIdBytes + m, cpl), ts = e.subspan(off + kIdBytes + m + cpl, tsl);
    if (get_u32(cp.data()) != levels[1].lms->type || get_u32(cp.data() + 4) != levels[1].ots->type ||
        std::memcmp(cp.data() + 8, s.id.data(), kIdBytes) != 0)
      return bad(Errc::invalid_encoding, "subtree " + std::to_string(q) + ": public key does not match its I or levels");
    if (get_u32(ts.data()) != q)
      return bad(Errc::invalid_encoding, "subtree " + std::to_string(q) + ": top signature at another leaf");
    if (auto v = lms_verify(top_pub, cp, ts); !v)
      return bad(Errc::verify_failed, "subtree " + std::to_string(q) + ": top signature does not verify (" +
                                          v.error().message + ")");
    s.public_key.assign(cp.begin(), cp.end());
    s.top_signature.assign(ts.begin(), ts.end());
    DelegatedKeyBuilder::add(k, std::move(s));
  }
  return k;
}

Result<DelegatedKey> export_subtrees(const HssPrivateKey& key, StateStore& parent, std::uint32_t a, std::uint32_t b,
                                     unsigned threads, const std::string& tree_cache) {
  const auto& levels = key.levels();
  if (levels.size() < 2)
    return Error{Errc::invalid_argument, "hss export: a one-level LMS key has no subtrees (L must be >= 2)"};
  if (!delegate_fits(levels)) return Error{Errc::unsupported, "hss export: the key has more than 2^63 signatures"};
  if (a >= b) return Error{Errc::invalid_argument, "hss export: empty subtree range"};
  if (std::uint64_t{b} > (std::uint64_t{1} << levels[0].lms->h))
    return Error{Errc::invalid_argument, "hss export: the top tree has only " +
                                             std::to_string(std::uint64_t{1} << levels[0].lms->h) + " subtrees"};
  if (b - a > DelegatedKey::kMaxSubtrees)
    return Error{Errc::invalid_argument,
                 "hss export: at most " + std::to_string(DelegatedKey::kMaxSubtrees) + " subtrees per delegated key"};
  const std::size_t encoded = 8 + 4 + 8 * levels.size() + hss_public_key_bytes(levels) + 8 +
                              std::size_t{b - a} * delegate_subtree_bytes(levels) + 32;
  if (encoded > DelegatedKey::kMaxEncodedBytes)
    return Error{Errc::invalid_argument, "hss export: " + std::to_string(b - a) +
                                             " subtrees of this key exceed the delegated key's size limit; export fewer"};
  // The top tree first (public work, nothing consumed yet): its public key names the key.
  Tree top;
  top.lv = levels[0];
  top.I = key.id();
  top.seed = SecretBytes(key.seed());
  if (!tree_cache.empty()) {
    if (auto body = read_small_file(tree_cache); body.empty() || !top.load_top(body)) {
      top.build(threads);
      (void)write_small_file(tree_cache, top.save_top());
    }
  } else {
    top.build(threads);
  }
  bytes pub(4, 0);
  put_u32(pub.data(), static_cast<std::uint32_t>(levels.size()));
  pub.insert(pub.end(), top.pub.begin(), top.pub.end());
  if (parent.key_id_hex() != key_id(pub))
    return Error{Errc::state_rejected, "hss export: the state " + parent.path() + " belongs to another key"};
  // The parent gives the indices up first, durably: from here on neither side can sign them
  // until the delegate exists, and the parent never again.
  const unsigned shift = delegate_shift(levels);
  auto r = parent.reserve_range(std::uint64_t{a} << shift, std::uint64_t{b} << shift);
  if (!r) return r.error();
  StateStore::run_step_hook("export:reserved");
  DelegatedKey out = DelegatedKeyBuilder::empty();
  DelegatedKeyBuilder::set(out, levels, pub, a, b);
  for (std::uint32_t q = a; q < b; ++q) {
    DelegatedKey::Subtree s;
    Tree child;
    child.lv = levels[1];
    child.seed = SecretBytes(levels[1].lms->m);
    derive_child(top, q, child.I.data(), child.seed.data());
    child.build(threads);
    s.id = child.I;
    s.seed = std::move(child.seed);
    s.public_key = child.pub;
    // RFC 8554 §6.1: the top tree's LMS signature of the level-1 public key, at leaf q.
    s.top_signature = top.sign(q, s.public_key, threads);
    if (auto v = lms_verify(top.pub, s.public_key, s.top_signature); !v)
      return Error{Errc::internal, "hss export: our own top signature of subtree " + std::to_string(q) +
                                       " does not verify (" + v.error().message + "); the range stays burnt"};
    DelegatedKeyBuilder::add(out, std::move(s));
    StateStore::run_step_hook("export:signed");
  }
  return out;
}

}  // namespace pqsig::lms
