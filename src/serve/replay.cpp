// pqsig_serve: nonce replay stores — in-process (bounded) and Redis (SET NX EX via hiredis).
#include <hiredis/hiredis.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "pqsig/hash.hpp"
#include "pqsig/serve.hpp"

namespace pqsig::serve {

// ------------------------------------------------------------------ Redis

struct RedisReplayStore::Conn {
  redisContext* c = nullptr;
  ~Conn() {
    if (c) redisFree(c);
  }
};

Result<RedisReplayStore::Options> RedisReplayStore::parse_url(std::string_view url) {
  Options o;
  constexpr std::string_view pre = "redis://";
  if (url.substr(0, pre.size()) != pre) return Error{Errc::invalid_argument, "Redis URL must start with redis://"};
  std::string_view rest = url.substr(pre.size());
  if (rest.find('@') != std::string_view::npos)
    return Error{Errc::invalid_argument, "Redis URL with credentials: not supported (use a local socket ACL)"};
  auto slash = rest.find('/');
  std::string_view hp = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    auto dbs = rest.substr(slash + 1);
    if (!dbs.empty()) {
      auto r = std::from_chars(dbs.data(), dbs.data() + dbs.size(), o.db);
      if (r.ec != std::errc() || r.ptr != dbs.data() + dbs.size() || o.db < 0 || o.db > 15)
        return Error{Errc::invalid_argument, "Redis URL: bad database number"};
    }
  }
  auto colon = hp.rfind(':');
  if (colon != std::string_view::npos) {
    auto ps = hp.substr(colon + 1);
    auto r = std::from_chars(ps.data(), ps.data() + ps.size(), o.port);
    if (r.ec != std::errc() || r.ptr != ps.data() + ps.size() || o.port <= 0 || o.port > 65535)
      return Error{Errc::invalid_argument, "Redis URL: bad port"};
    hp = hp.substr(0, colon);
  }
  if (hp.empty()) return Error{Errc::invalid_argument, "Redis URL: no host"};
  o.host = std::string(hp);
  return o;
}

RedisReplayStore::RedisReplayStore(Options o) : opt_(std::move(o)) {}
RedisReplayStore::~RedisReplayStore() = default;

NonceOutcome RedisReplayStore::record_for(std::string_view owner, std::string_view keyid, std::string_view nonce,
                                          std::int64_t forget_after, std::int64_t now) {
  std::unique_ptr<Conn> conn;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      conn = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  timeval tv{opt_.timeout_ms / 1000, static_cast<suseconds_t>((opt_.timeout_ms % 1000) * 1000)};
  if (!conn) {
    conn = std::make_unique<Conn>();
    conn->c = redisConnectWithTimeout(opt_.host.c_str(), opt_.port, tv);
    if (!conn->c || conn->c->err) return NonceOutcome::error;
    if (redisSetTimeout(conn->c, tv) != REDIS_OK) return NonceOutcome::error;
    if (opt_.db != 0) {
      auto* r = static_cast<redisReply*>(redisCommand(conn->c, "SELECT %d", opt_.db));
      bool ok = r && r->type == REDIS_REPLY_STATUS;
      if (r) freeReplyObject(r);
      if (!ok) return NonceOutcome::error;
    }
  }
  const long long retention = std::max<long long>(1, opt_.max_retention);
  // Per-owner quota: a counter per owner and retention window (INCR, TTL set on creation).
  std::string qkey = opt_.prefix + "q:" + ReplayStore::entry_key("owner", owner);
  auto* q = static_cast<redisReply*>(redisCommand(conn->c, "INCR %b", qkey.data(), qkey.size()));
  if (!q) return NonceOutcome::error;
  if (q->type != REDIS_REPLY_INTEGER) {
    freeReplyObject(q);
    return NonceOutcome::error;
  }
  long long count = q->integer;
  freeReplyObject(q);
  if (count == 1) {
    auto* e = static_cast<redisReply*>(redisCommand(conn->c, "EXPIRE %b %lld", qkey.data(), qkey.size(), retention));
    if (!e) return NonceOutcome::error;
    freeReplyObject(e);
  }
  if (count > static_cast<long long>(opt_.max_per_owner)) {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.size() < 64) idle_.push_back(std::move(conn));
    return NonceOutcome::refused;
  }
  std::string key = opt_.prefix + ReplayStore::entry_key(keyid, nonce);
  long long ex = std::min<long long>(forget_after > now ? forget_after - now : 1, retention);  // EX seconds
  auto* r = static_cast<redisReply*>(redisCommand(conn->c, "SET %b 1 NX EX %lld", key.data(), key.size(), ex));
  if (!r) return NonceOutcome::error;  // connection broken: dropped, reconnect next time
  NonceOutcome out = NonceOutcome::error;
  if (r->type == REDIS_REPLY_STATUS && std::strcmp(r->str, "OK") == 0) out = NonceOutcome::fresh;
  else if (r->type == REDIS_REPLY_NIL) out = NonceOutcome::replayed;
  freeReplyObject(r);
  if (out != NonceOutcome::error) {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.size() < 64) idle_.push_back(std::move(conn));
  }
  return out;
}

}  // namespace pqsig::serve
