// lms::LeaseSource on PostgreSQL (libpq): the fleet's shared index counter. See
// include/pqsig/hbs_fleet.hpp for the tables and the compare-and-set transaction, docs/lms.md
// ("Fleet") for the protocol and what it guarantees. Every answer of the store is parsed by one
// strict function (hbs_fleet_answer.hpp: shape, lengths, numeric ranges) before it is believed (a
// hostile or corrupt row is Errc::state_rejected), every call is bounded in time and attempts,
// and an unreachable store is Errc::io ("lease store unavailable"), never a guess.
#include "pqsig/hbs_fleet.hpp"

#include "hbs_fleet_answer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <unistd.h>

#if PQSIG_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

namespace pqsig::client {

std::string default_fleet_signer(const std::string& state_path) {
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "unknown-host");
  std::string path = state_path;
  if (char* real = ::realpath(state_path.c_str(), nullptr)) {
    path = real;
    std::free(real);
  }
  std::string name = std::string(host) + ":" + path;
  if (name.size() > 200) name = name.substr(name.size() - 200);
  return name;
}

#if PQSIG_HAVE_LIBPQ
namespace {

using FleetClock = std::chrono::steady_clock;
constexpr std::uint64_t kFleetMaxBigint = detail::kStoreMaxBigint;

struct FleetConnFree {
  void operator()(PGconn* c) const noexcept {
    if (c) PQfinish(c);
  }
};
struct FleetResultFree {
  void operator()(PGresult* r) const noexcept {
    if (r) PQclear(r);
  }
};
using FleetConn = std::unique_ptr<PGconn, FleetConnFree>;
using FleetResult = std::unique_ptr<PGresult, FleetResultFree>;

// libpq's and the server's messages, as one bounded printable line (hbs_fleet_answer.hpp).
std::string fleet_one_line(const char* msg) { return detail::store_text_line(msg ? msg : ""); }

// A PGresult read through the parser's interface: values by PQgetlength (never strlen).
class FleetPgAnswer final : public detail::StoreAnswer {
 public:
  explicit FleetPgAnswer(const PGresult* r) : r_(r) {}
  std::size_t rows() const override {
    const int n = PQntuples(r_);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }
  std::size_t fields() const override {
    const int n = PQnfields(r_);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }
  std::optional<std::string_view> value(std::size_t row, std::size_t field) const override {
    if (row >= rows() || field >= fields()) return std::nullopt;
    const int ri = static_cast<int>(row), fi = static_cast<int>(field);
    if (PQgetisnull(r_, ri, fi)) return std::nullopt;
    const int len = PQgetlength(r_, ri, fi);
    return std::string_view(PQgetvalue(r_, ri, fi), len > 0 ? static_cast<std::size_t>(len) : 0);
  }

 private:
  const PGresult* r_;
};

Error fleet_unavailable(const std::string& what) { return Error{Errc::io, "lease store unavailable: " + what}; }
Error fleet_hostile(const std::string& what) {
  return Error{Errc::state_rejected, "lease store answer refused: " + what};
}

bool fleet_key_id_ok(const std::string& id) {
  if (id.size() != 64) return false;
  return std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

long fleet_ms_left(FleetClock::time_point deadline) {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - FleetClock::now()).count());
}

Result<FleetConn> fleet_connect(const std::string& conninfo, const PgLeaseLimits& lim, FleetClock::time_point deadline) {
  const long left = fleet_ms_left(deadline);
  if (left <= 0) return fleet_unavailable("no answer within the total time limit");
  // libpq treats connect_timeout below 2 s as 2 s.
  const long ct = std::max<long>(2, std::min<long>(lim.connect_timeout_s, (left + 999) / 1000));
  const std::string ct_s = std::to_string(ct);
  const std::string st = std::to_string(lim.statement_timeout_ms);
  const std::string opts = "-c statement_timeout=" + st + " -c lock_timeout=" + st +
                           " -c idle_in_transaction_session_timeout=" + std::to_string(lim.statement_timeout_ms * 2);
  const std::string tcp = std::to_string(lim.statement_timeout_ms + 1000);
  const char* keys[] = {"dbname", "connect_timeout", "options", "tcp_user_timeout", "keepalives", "application_name",
                        nullptr};
  const char* vals[] = {conninfo.c_str(), ct_s.c_str(), opts.c_str(), tcp.c_str(), "1", "pqsig-hbs-fleet", nullptr};
  FleetConn c(PQconnectdbParams(keys, vals, 1));
  if (!c) return fleet_unavailable("libpq could not allocate a connection");
  if (PQstatus(c.get()) != CONNECTION_OK) return fleet_unavailable(fleet_one_line(PQerrorMessage(c.get())));
  return c;
}

// One statement's outcome: ok, retry (a serialization conflict), or an error to return.
struct FleetExec {
  FleetResult res;
  bool ok = false;
  bool conflict = false;
  bool broken = false;  // the connection cannot be used again
  Error err;
};

// Runs one statement (or, without parameters, a script) without ever blocking past `deadline`:
// the query is sent, then the socket is polled; a server that accepted the connection and then
// hangs (stopped, partitioned) costs at most the time left, after which the connection is
// unusable (`broken`) and is dropped by the caller (which rolls the transaction back server-side).
FleetExec fleet_exec(PGconn* c, FleetClock::time_point deadline, const char* sql,
                     const std::vector<std::string>& params = {}) {
  std::vector<const char*> vals;
  vals.reserve(params.size());
  for (const auto& p : params) vals.push_back(p.c_str());
  FleetExec out;
  const int sent = params.empty() ? PQsendQuery(c, sql)
                                  : PQsendQueryParams(c, sql, static_cast<int>(vals.size()), nullptr, vals.data(),
                                                      nullptr, nullptr, 0);
  if (!sent) {
    out.broken = true;
    out.err = fleet_unavailable(fleet_one_line(PQerrorMessage(c)));
    return out;
  }
  FleetResult failed;
  for (;;) {
    while (PQisBusy(c)) {
      const long left = fleet_ms_left(deadline);
      if (left <= 0) {
        out.broken = true;
        out.err = fleet_unavailable("no answer within the time limit");
        return out;
      }
      pollfd pfd{PQsocket(c), POLLIN, 0};
      const int pr = ::poll(&pfd, 1, static_cast<int>(std::min(left, 1000L)));
      if (pr < 0 && errno != EINTR) {
        out.broken = true;
        out.err = fleet_unavailable(std::string("poll: ") + std::strerror(errno));
        return out;
      }
      if (pr > 0 && !PQconsumeInput(c)) {
        out.broken = true;
        out.err = fleet_unavailable(fleet_one_line(PQerrorMessage(c)));
        return out;
      }
    }
    FleetResult r(PQgetResult(c));
    if (!r) break;
    const ExecStatusType st = PQresultStatus(r.get());
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
      if (!failed) failed = std::move(r);
    } else {
      out.res = std::move(r);  // the last statement's result
    }
  }
  if (!failed && out.res) {
    out.ok = true;
    return out;
  }
  const PGresult* fr = failed.get();
  const char* state = fr ? PQresultErrorField(fr, PG_DIAG_SQLSTATE) : nullptr;
  const std::string code(detail::store_sqlstate(state ? state : ""));
  const std::string msg = fleet_one_line(fr ? PQresultErrorMessage(fr) : PQerrorMessage(c));
  if (PQstatus(c) != CONNECTION_OK) out.broken = true;
  if (code == "40001" || code == "40P01" || code == "55P03") {
    out.conflict = true;  // serialization failure, deadlock, lock not available: retry
  } else if (code == "42P01") {
    out.err = Error{Errc::state_rejected, "lease store: the pqsig tables are missing (run `pqsig hbs fleet-init`): " + msg};
  } else {
    // Lost connections (class 08, empty state), statement timeouts (57014), shutdowns (57P01) ...
    out.err = fleet_unavailable(msg.empty() ? "the statement failed (SQLSTATE " + code + ")" : msg);
  }
  return out;
}

void fleet_backoff(unsigned attempt, FleetClock::time_point deadline) {
  // 10, 20, 40 ... ms (at most 320), with a per-process jitter, never past the deadline.
  long ms = 10L << std::min(attempt, 5u);
  ms += static_cast<long>((static_cast<unsigned>(::getpid()) * 7919u + attempt * 31u) % 10u);
  ms = std::min(ms, std::max(0L, fleet_ms_left(deadline)));
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

constexpr const char* kFleetSchema =
    "CREATE TABLE IF NOT EXISTS pqsig_hbs_keys ("
    " key_id text PRIMARY KEY,"
    " next_index bigint NOT NULL CHECK (next_index >= 0),"
    " index_limit bigint NOT NULL CHECK (index_limit > 0),"
    " generation bigint NOT NULL CHECK (generation >= 0));"
    "CREATE TABLE IF NOT EXISTS pqsig_hbs_leases ("
    " key_id text NOT NULL REFERENCES pqsig_hbs_keys(key_id),"
    " generation bigint NOT NULL,"
    " signer text NOT NULL,"
    " first_index bigint NOT NULL,"
    " end_index bigint NOT NULL,"
    " local_generation bigint NOT NULL,"
    " granted_at timestamptz NOT NULL DEFAULT now(),"
    " PRIMARY KEY (key_id, generation));";

}  // namespace

bool pg_leases_available() noexcept { return true; }

Result<std::shared_ptr<PgLeaseSource>> PgLeaseSource::open(const std::string& conninfo, PgLeaseLimits limits) {
  if (conninfo.empty() || conninfo.size() > 4096)
    return Error{Errc::invalid_argument, "lease store: the connection string must be 1..4096 bytes"};
  if (limits.max_attempts == 0 || limits.total_timeout_ms == 0 || limits.statement_timeout_ms == 0)
    return Error{Errc::invalid_argument, "lease store: time limits and attempts must be positive"};
  char* err = nullptr;
  PQconninfoOption* opts = PQconninfoParse(conninfo.c_str(), &err);
  if (!opts) {
    const std::string m = fleet_one_line(err ? err : "unparsable");
    if (err) PQfreemem(err);
    return Error{Errc::invalid_argument, "lease store: bad connection string: " + m};
  }
  PQconninfoFree(opts);
  return std::make_shared<PgLeaseSource>(conninfo, limits);
}

Status PgLeaseSource::init_schema() {
  const auto deadline = FleetClock::now() + std::chrono::milliseconds(limits_.total_timeout_ms);
  auto c = fleet_connect(conninfo_, limits_, deadline);
  if (!c) return c.error();
  // Simple-query protocol (no parameters): several statements in one call.
  auto r = fleet_exec(c->get(), deadline, kFleetSchema);
  if (!r.ok) return r.conflict ? fleet_unavailable("conflict while creating the tables") : r.err;
  return {};
}

Status PgLeaseSource::register_key(const std::string& key_id, std::uint64_t limit) {
  if (!fleet_key_id_ok(key_id)) return Error{Errc::invalid_argument, "lease store: key id must be 64 lowercase hex"};
  if (limit == 0 || limit > kFleetMaxBigint) return Error{Errc::invalid_argument, "lease store: limit out of range"};
  const auto deadline = FleetClock::now() + std::chrono::milliseconds(limits_.total_timeout_ms);
  auto c = fleet_connect(conninfo_, limits_, deadline);
  if (!c) return c.error();
  auto ins = fleet_exec(c->get(), deadline,
                        "INSERT INTO pqsig_hbs_keys (key_id, next_index, index_limit, generation) "
                        "VALUES ($1, 0, $2, 0) ON CONFLICT (key_id) DO NOTHING",
                        {key_id, std::to_string(limit)});
  if (!ins.ok) return ins.conflict ? fleet_unavailable("conflict while registering") : ins.err;
  auto row = key_status(key_id);
  if (!row) return row.error();
  if (row->limit != limit)
    return Error{Errc::state_rejected, "lease store: this key is registered with limit " + std::to_string(row->limit) +
                                           ", not " + std::to_string(limit)};
  return {};
}

Result<PgKeyRow> PgLeaseSource::key_status(const std::string& key_id) {
  if (!fleet_key_id_ok(key_id)) return Error{Errc::invalid_argument, "lease store: key id must be 64 lowercase hex"};
  const auto deadline = FleetClock::now() + std::chrono::milliseconds(limits_.total_timeout_ms);
  auto c = fleet_connect(conninfo_, limits_, deadline);
  if (!c) return c.error();
  auto q = fleet_exec(c->get(), deadline,
                      "SELECT next_index, index_limit, generation, "
                      "(SELECT count(*) FROM pqsig_hbs_leases l WHERE l.key_id = k.key_id) "
                      "FROM pqsig_hbs_keys k WHERE key_id = $1",
                      {key_id});
  if (!q.ok) return q.conflict ? fleet_unavailable("conflict while reading") : q.err;
  auto row = detail::parse_key_row(FleetPgAnswer(q.res.get()), true);
  if (!row) return row.error();
  if (!*row) return Error{Errc::state_rejected, "lease store: key " + key_id + " is not registered (pqsig hbs fleet-init)"};
  return **row;
}

Result<lms::Reservation> PgLeaseSource::lease(const lms::LeaseRequest& req) {
  if (!fleet_key_id_ok(req.key_id)) return Error{Errc::invalid_argument, "lease store: key id must be 64 lowercase hex"};
  if (req.signer.empty() || req.signer.size() > 200)
    return Error{Errc::invalid_argument, "lease store: the signer name must be 1..200 bytes"};
  if (req.count == 0 || req.align == 0 || req.limit == 0 || req.limit > kFleetMaxBigint ||
      req.count > kFleetMaxBigint || req.align > kFleetMaxBigint || req.local_end > req.limit ||
      req.local_generation > kFleetMaxBigint)
    return Error{Errc::invalid_argument, "lease store: request out of range"};
  const std::uint64_t want = ((req.count + req.align - 1) / req.align) * req.align;
  const auto deadline = FleetClock::now() + std::chrono::milliseconds(limits_.total_timeout_ms);
  FleetConn conn;
  Error last = fleet_unavailable("no attempt made");
  for (unsigned attempt = 0; attempt < limits_.max_attempts; ++attempt) {
    if (attempt > 0) fleet_backoff(attempt, deadline);
    if (fleet_ms_left(deadline) <= 0) return fleet_unavailable("no lease within the total time limit (" + last.message + ")");
    if (!conn || PQstatus(conn.get()) != CONNECTION_OK) {
      auto c = fleet_connect(conninfo_, limits_, deadline);
      if (!c) {
        last = c.error();
        // A store that refused three connections is down; and a new attempt must fit in the time left.
        if (attempt >= 2 || fleet_ms_left(deadline) < 1000L * static_cast<long>(limits_.connect_timeout_s)) return last;
        continue;
      }
      conn = std::move(*c);
    }
    PGconn* c = conn.get();
    // After an answered statement the connection is healthy: roll back within a short bound.
    // After a broken one it is dropped instead (the server rolls back a vanished session).
    auto rollback = [c, &conn, &deadline] {
      if (PQstatus(c) != CONNECTION_OK || PQisBusy(c)) {
        conn.reset();
        return;
      }
      const auto bound = std::min(deadline, FleetClock::now() + std::chrono::milliseconds(1000));
      if (auto r = fleet_exec(c, bound, "ROLLBACK"); !r.ok) conn.reset();
    };
    auto begin = fleet_exec(c, deadline, "BEGIN ISOLATION LEVEL SERIALIZABLE");
    if (!begin.ok) {
      last = begin.err;
      conn.reset();
      continue;
    }
    auto row = fleet_exec(c, deadline, "SELECT next_index, index_limit, generation FROM pqsig_hbs_keys WHERE key_id = $1",
                          {req.key_id});
    if (!row.ok) {
      rollback();
      if (row.conflict) {
        last = fleet_unavailable("serialization conflicts with other signers");
        continue;
      }
      return row.err;
    }
    auto parsed = detail::parse_key_row(FleetPgAnswer(row.res.get()), false);
    if (!parsed) {
      rollback();
      return parsed.error();
    }
    if (!*parsed) {
      rollback();
      return Error{Errc::state_rejected, "lease store: key " + req.key_id + " is not registered (pqsig hbs fleet-init)"};
    }
    const std::uint64_t next = (*parsed)->next_index, limit = (*parsed)->limit, gen = (*parsed)->generation;
    if (limit != req.limit) {
      rollback();
      return fleet_hostile("the store's limit " + std::to_string(limit) + " is not the key's " + std::to_string(req.limit));
    }
    if (next < req.local_end) {
      rollback();
      return fleet_hostile("next_index " + std::to_string(next) + " is below this signer's local reserved end " +
                           std::to_string(req.local_end) + " (the store was restored or rolled back?)");
    }
    auto seen = fleet_exec(c, deadline, "SELECT max(local_generation) FROM pqsig_hbs_leases WHERE key_id = $1 AND signer = $2",
                           {req.key_id, req.signer});
    if (!seen.ok) {
      rollback();
      if (seen.conflict) {
        last = fleet_unavailable("serialization conflicts with other signers");
        continue;
      }
      return seen.err;
    }
    auto last_gen = detail::parse_max_generation(FleetPgAnswer(seen.res.get()));
    if (!last_gen) {
      rollback();
      return last_gen.error();
    }
    if (*last_gen) {
      const std::uint64_t g = **last_gen;
      if (req.local_generation < g) {
        rollback();
        return Error{Errc::state_rejected,
                     "hbs fleet: the local state (generation " + std::to_string(req.local_generation) +
                         ") is older than the store's record of signer '" + req.signer + "' (generation " +
                         std::to_string(g) + "): rolled back — refusing to sign"};
      }
    }
    // The next aligned start; everything between next_index and it is skipped for good.
    const std::uint64_t first = ((next + req.align - 1) / req.align) * req.align;
    if (first >= limit) {
      rollback();
      return Error{Errc::key_exhausted, "hbs fleet: the key has no index left in the store (" +
                                            std::to_string(limit) + " leased)"};
    }
    const std::uint64_t end = limit - first < want ? limit : first + want;
    // The compare-and-set: only if nobody moved the counter since we read it.
    auto upd = fleet_exec(c, deadline,
                          "UPDATE pqsig_hbs_keys SET next_index = $2, generation = generation + 1 "
                          "WHERE key_id = $1 AND next_index = $3 AND generation = $4",
                          {req.key_id, std::to_string(end), std::to_string(next), std::to_string(gen)});
    if (!upd.ok) {
      rollback();
      if (upd.conflict) {
        last = fleet_unavailable("serialization conflicts with other signers");
        continue;
      }
      return upd.err;
    }
    auto won = detail::parse_cas_rows(PQcmdTuples(upd.res.get()));
    if (!won || !*won) {
      rollback();
      if (!won) return won.error();
      last = fleet_unavailable("the counter moved under us (compare-and-set lost)");
      continue;
    }
    auto ins = fleet_exec(c, deadline,
                          "INSERT INTO pqsig_hbs_leases (key_id, generation, signer, first_index, end_index, "
                          "local_generation) VALUES ($1, $2, $3, $4, $5, $6)",
                          {req.key_id, std::to_string(gen + 1), req.signer, std::to_string(first), std::to_string(end),
                           std::to_string(req.local_generation)});
    if (!ins.ok) {
      rollback();
      if (ins.conflict) {
        last = fleet_unavailable("serialization conflicts with other signers");
        continue;
      }
      return ins.err;
    }
    auto commit = fleet_exec(c, deadline, "COMMIT");
    if (!commit.ok) {
      // Not committed (or unknown): the range is not ours. At worst it is burnt, never reused.
      if (commit.conflict) {
        last = fleet_unavailable("serialization conflict at commit");
        continue;
      }
      return commit.err;
    }
    return lms::Reservation{first, end};
  }
  return fleet_unavailable("no lease after " + std::to_string(limits_.max_attempts) + " attempts (" + last.message + ")");
}

#else  // built without libpq

bool pg_leases_available() noexcept { return false; }

Result<std::shared_ptr<PgLeaseSource>> PgLeaseSource::open(const std::string&, PgLeaseLimits) {
  return Error{Errc::unsupported,
               "lease store: this pqsig was built without libpq (install libpq-dev and rebuild for PostgreSQL leases)"};
}
Status PgLeaseSource::init_schema() { return Error{Errc::unsupported, "lease store: built without libpq"}; }
Status PgLeaseSource::register_key(const std::string&, std::uint64_t) {
  return Error{Errc::unsupported, "lease store: built without libpq"};
}
Result<PgKeyRow> PgLeaseSource::key_status(const std::string&) {
  return Error{Errc::unsupported, "lease store: built without libpq"};
}
Result<lms::Reservation> PgLeaseSource::lease(const lms::LeaseRequest&) {
  return Error{Errc::unsupported, "lease store: built without libpq"};
}

#endif

}  // namespace pqsig::client
