// ledger::KeyCache: bounded LRU of prepared verifying keys keyed by (provider, suite, SHA-256(pk)).
#include <algorithm>
#include <cstring>
#include <list>
#include <unordered_map>

#include "pqsig/hash.hpp"
#include "pqsig/ledger.hpp"

namespace pqsig::ledger {

struct KeyCache::Impl {
  struct Entry {
    std::string key;
    std::shared_ptr<const PreparedKey> value;
  };
  std::size_t capacity;
  mutable std::mutex mu;
  std::list<Entry> lru;  // front = most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> index;
  std::uint64_t hits = 0, misses = 0, evictions = 0;
};

KeyCache::KeyCache(std::size_t capacity) : impl_(std::make_unique<Impl>()) {
  impl_->capacity = std::max<std::size_t>(capacity, 1);
}
KeyCache::~KeyCache() = default;

KeyCache::Digest KeyCache::digest(byte_span pk) noexcept { return hash::sha256(pk); }

Result<std::shared_ptr<const PreparedKey>> KeyCache::get(const Provider& p, const SuiteInfo& suite, byte_span pk) {
  return get(p, suite, pk, digest(pk));
}

Result<std::shared_ptr<const PreparedKey>> KeyCache::get(const Provider& p, const SuiteInfo& suite, byte_span pk,
                                                         const Digest& digest) {
  std::string key;
  key.reserve(p.name().size() + suite.id.size() + 2 + digest.size());
  key.append(p.name()).push_back('\0');
  key.append(suite.id).push_back('\0');
  key.append(reinterpret_cast<const char*>(digest.data()), digest.size());
  auto same_bytes = [&](const PreparedKey& k) {
    const byte_span have = k.public_key();
    return have.size() == pk.size() && (pk.empty() || std::memcmp(have.data(), pk.data(), pk.size()) == 0);
  };
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    auto it = impl_->index.find(key);
    if (it != impl_->index.end() && same_bytes(*it->second->value)) {
      impl_->lru.splice(impl_->lru.begin(), impl_->lru, it->second);
      ++impl_->hits;
      return it->second->value;
    }
    ++impl_->misses;
  }
  // Decode outside the lock (other threads keep verifying); failures are not cached.
  auto prepared = p.prepare(suite, pk);
  if (!prepared) return prepared.error();
  std::shared_ptr<const PreparedKey> value = std::move(prepared.value());
  if (!value) return Error{Errc::internal, std::string(p.name()) + " returned no key"};
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->index.find(key);
  if (it != impl_->index.end()) {
    it->second->value = value;  // another thread decoded the same key meanwhile (or a collision)
    impl_->lru.splice(impl_->lru.begin(), impl_->lru, it->second);
    return value;
  }
  impl_->lru.push_front(Impl::Entry{key, value});
  impl_->index.emplace(std::move(key), impl_->lru.begin());
  while (impl_->lru.size() > impl_->capacity) {
    impl_->index.erase(impl_->lru.back().key);
    impl_->lru.pop_back();
    ++impl_->evictions;
  }
  return value;
}

KeyCache::Counters KeyCache::counters() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return Counters{impl_->hits, impl_->misses, impl_->evictions, impl_->lru.size(), impl_->capacity};
}

void KeyCache::clear() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->lru.clear();
  impl_->index.clear();
}

}  // namespace pqsig::ledger
