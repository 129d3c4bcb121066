// pqsig — a fleet of LMS/HSS and XMSS signers sharing one key: index leases from PostgreSQL.
//
// lms::LeaseSource (pqsig/lms.hpp) is the core's view of a shared store; this is its PostgreSQL
// implementation (libpq). Network code: it lives in the pqsig_client library, never in the core.
// libpq is optional at build time: without it, PgLeaseSource::open() fails with Errc::unsupported.
//
// The store (created by init_schema(), docs/lms.md "Fleet"):
//   pqsig_hbs_keys   (key_id text primary key, next_index bigint, index_limit bigint, generation bigint)
//   pqsig_hbs_leases (key_id, generation) primary key, signer, first_index, end_index, local_generation
// A lease is one SERIALIZABLE transaction: read the key's row, check it, then the compare-and-set
//   UPDATE pqsig_hbs_keys SET next_index = $end, generation = generation + 1
//    WHERE key_id = $1 AND next_index = $expected AND generation = $gen
// and the lease row; a conflict (no row updated, serialization failure) is retried a bounded number
// of times within a total time limit. Every call connects with connect_timeout, statement_timeout,
// lock_timeout, idle_in_transaction_session_timeout and tcp_user_timeout set.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "pqsig/common.hpp"
#include "pqsig/lms.hpp"

namespace pqsig::client {

/// Time and retry limits of every store call.
struct PgLeaseLimits {
  unsigned connect_timeout_s = 3;      ///< libpq connect_timeout (per connection attempt)
  unsigned statement_timeout_ms = 3000;///< server-side limit of each statement (and lock waits)
  unsigned total_timeout_ms = 10000;   ///< one call, all attempts included
  unsigned max_attempts = 8;           ///< CAS conflicts / serialization failures retried
};

/// What the store says about a key.
struct PgKeyRow {
  std::uint64_t next_index = 0;
  std::uint64_t limit = 0;
  std::uint64_t generation = 0;
  std::uint64_t leases = 0;  ///< lease rows recorded
};

/// True when pqsig_client was built with libpq.
bool pg_leases_available() noexcept;

/// The default name of a signer in the store: "<hostname>:<absolute state path>" — stable for
/// one local state file, distinct across machines and state files.
std::string default_fleet_signer(const std::string& state_path);

class PgLeaseSource final : public lms::LeaseSource {
 public:
  /// `conninfo`: a libpq connection string or postgresql:// URI. Does not connect yet.
  /// Errc::unsupported when built without libpq; Errc::invalid_argument for an unparsable string.
  static Result<std::shared_ptr<PgLeaseSource>> open(const std::string& conninfo, PgLeaseLimits limits = {});

  /// Creates the two tables when missing (idempotent).
  Status init_schema();
  /// Registers a key (next_index 0). Registering it again with the same limit is a no-op;
  /// with another limit, Errc::state_rejected.
  Status register_key(const std::string& key_id, std::uint64_t limit);
  /// The key's row; Errc::state_rejected when it is not registered or the row is implausible.
  Result<PgKeyRow> key_status(const std::string& key_id);
  /// lms::LeaseSource: one CAS transaction (see the file comment), checked on both sides.
  Result<lms::Reservation> lease(const lms::LeaseRequest& request) override;

  PgLeaseSource(std::string conninfo, PgLeaseLimits limits) : conninfo_(std::move(conninfo)), limits_(limits) {}

 private:
  std::string conninfo_;
  PgLeaseLimits limits_;
};

}  // namespace pqsig::client
