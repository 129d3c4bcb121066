// The one in-process nonce store (RFC 9421 §7.2.2 replay detection): bounded in entries, per
// owner and in time, so strangers' own valid signatures cannot fill it for everyone else.
#include <algorithm>

#include "pqsig/hash.hpp"
#include "pqsig/httpsig.hpp"

namespace pqsig::httpsig {
std::string NonceStore::entry_key(std::string_view a, std::string_view b) {
  std::string in = std::to_string(a.size()) + ":" + std::string(a) + ":" + std::string(b);
  return to_hex(hash::sha256(byte_span(reinterpret_cast<const std::uint8_t*>(in.data()), in.size())));
}

void InMemoryNonceStore::drop(std::map<std::string, Entry>::iterator it) {
  auto range = by_expiry_.equal_range(it->second.expiry);
  for (auto r = range.first; r != range.second; ++r)
    if (r->second == it->first) {
      by_expiry_.erase(r);
      break;
    }
  if (auto o = owners_.find(it->second.owner); o != owners_.end()) {
    by_count_.erase({o->second.size(), o->first});
    o->second.erase({it->second.expiry, it->first});
    if (o->second.empty()) owners_.erase(o);
    else by_count_.insert({o->second.size(), o->first});
  }
  seen_.erase(it);
}

NonceOutcome InMemoryNonceStore::record_for(std::string_view owner_name, std::string_view keyid, std::string_view nonce,
                                            std::int64_t forget_after, std::int64_t now) {
  const std::string key = entry_key(keyid, nonce);
  const std::string owner = entry_key("owner", owner_name);
  std::lock_guard<std::mutex> lock(mu_);
  // Expired entries go first (bounded work per call), then this owner's own expired ones.
  for (int i = 0; i < 64 && !by_expiry_.empty() && by_expiry_.begin()->first <= now; ++i) drop(seen_.find(by_expiry_.begin()->second));
  if (auto o = owners_.find(owner); o != owners_.end())
    while (o != owners_.end() && !o->second.empty() && o->second.begin()->first <= now) {
      drop(seen_.find(o->second.begin()->second));
      o = owners_.find(owner);
    }
  auto it = seen_.find(key);
  if (it != seen_.end() && it->second.expiry > now) return NonceOutcome::replayed;
  if (it != seen_.end()) drop(it);  // expired, not yet swept
  auto mine = owners_.find(owner);
  const std::size_t held = mine == owners_.end() ? 0 : mine->second.size();
  if (held >= opt_.max_per_owner) {
    ++refused_quota_;
    return NonceOutcome::refused;
  }
  if (seen_.size() >= opt_.max_entries) {
    // Full: the heaviest owner gives up its soonest-expiring nonce, if it holds more than this
    // owner (so a well-behaved owner is never refused because strangers hoard).
    auto heavy = by_count_.empty() ? owners_.end() : owners_.find(by_count_.rbegin()->second);
    if (heavy == owners_.end() || heavy->second.size() <= held + 1) {
      ++refused_full_;
      return NonceOutcome::refused;
    }
    drop(seen_.find(heavy->second.begin()->second));
    ++evicted_;
  }
  // Kept until the signer's expiry, but never longer than max_retention.
  std::int64_t exp = std::min(forget_after > now ? forget_after : now + 1, now + std::max<std::int64_t>(1, opt_.max_retention));
  seen_.emplace(key, Entry{exp, owner});
  by_expiry_.emplace(exp, key);
  auto& set = owners_[owner];
  by_count_.erase({set.size(), owner});
  set.insert({exp, key});
  by_count_.insert({set.size(), owner});
  return NonceOutcome::fresh;
}

std::size_t InMemoryNonceStore::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return seen_.size();
}
std::size_t InMemoryNonceStore::owner_count(std::string_view owner_name) const {
  const std::string owner = entry_key("owner", owner_name);
  std::lock_guard<std::mutex> lock(mu_);
  auto o = owners_.find(owner);
  return o == owners_.end() ? 0 : o->second.size();
}
std::uint64_t InMemoryNonceStore::refused_quota() const {
  std::lock_guard<std::mutex> lock(mu_);
  return refused_quota_;
}
std::uint64_t InMemoryNonceStore::refused_full() const {
  std::lock_guard<std::mutex> lock(mu_);
  return refused_full_;
}
std::uint64_t InMemoryNonceStore::evicted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return evicted_;
}

}  // namespace pqsig::httpsig
