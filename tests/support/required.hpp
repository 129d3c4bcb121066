// The one rule for a test whose prerequisite lies outside the project (a Debian package, a library
// built with an option, a cache a script fills): without it the test skips, naming the reason and
// how to get it — unless the environment variable for that prerequisite is set (CI sets all of
// them, .ci/run), where a missing prerequisite is our fault and the test FAILS instead.
//   PQSIG_REQUIRE_OPENSSL35=1    OpenSSL 3.5 through its wrapper (tests/support/openssl35.hpp)
//   PQSIG_REQUIRE_POSTGRES=1     the fleet tests' PostgreSQL: server binaries and psql (Debian
//                                postgresql), a 'postgres' user when run as root, and pqsig_client
//                                built with libpq (libpq-dev)
//   PQSIG_REQUIRE_LIBOQS_STFL=1  liboqs compiled in, with LMS/HSS and XMSS/XMSS^MT, their key and
//                                signature generation, and every set scripts/liboqs.sh enables
// Set to anything but "" or "0". The configure step checks the build-time half too
// (tests/lms/CMakeLists.txt: libpq; tests/providers/CMakeLists.txt: liboqs).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace pqsig::test {

inline constexpr const char* kRequireOpenssl35 = "PQSIG_REQUIRE_OPENSSL35";
inline constexpr const char* kRequirePostgres = "PQSIG_REQUIRE_POSTGRES";
inline constexpr const char* kRequireLiboqsStfl = "PQSIG_REQUIRE_LIBOQS_STFL";

/// True when the environment variable `var` makes its prerequisite required (set, not "" or "0").
inline bool prerequisite_required(const char* var) {
  const char* e = std::getenv(var);
  return e != nullptr && *e != '\0' && std::string_view(e) != "0";
}

}  // namespace pqsig::test

/// Skip naming REASON (anything streamable) — a failure when the variable VAR requires it.
/// Returns from the calling function either way (a void function: a TEST body or a helper).
#define PQSIG_SKIP_UNLESS_REQUIRED(var, reason)                                 \
  do {                                                                          \
    if (::pqsig::test::prerequisite_required(var)) {                            \
      FAIL() << (var) << " is set, so this may not skip: " << reason;           \
    }                                                                           \
    GTEST_SKIP() << reason << " (set " << (var) << "=1 to make this a failure)"; \
  } while (0)

/// The fleet tests' PostgreSQL (PQSIG_REQUIRE_POSTGRES).
#define PQSIG_POSTGRES_SKIP_OR_FAIL(reason) PQSIG_SKIP_UNLESS_REQUIRED(::pqsig::test::kRequirePostgres, reason)
/// liboqs with its stateful signatures (PQSIG_REQUIRE_LIBOQS_STFL).
#define PQSIG_LIBOQS_STFL_SKIP_OR_FAIL(reason) PQSIG_SKIP_UNLESS_REQUIRED(::pqsig::test::kRequireLiboqsStfl, reason)
