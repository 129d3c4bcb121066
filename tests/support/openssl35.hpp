// The one rule for tests that need OpenSSL 3.5 (label openssl35): ctest starts them through
// tests/providers/openssl35-run.sh, which sets PQSIG_OPENSSL35_RUN (Debian 13's loader with
// libcrypto/libssl 3.5, from `bash scripts/openssl35.sh`). Without it a test skips naming the command
// that makes it — or fails when PQSIG_REQUIRE_OPENSSL35=1 (CI), where a missing 3.5 is our fault
// (the rule for every such variable: tests/support/required.hpp).
#pragma once

#include <cstdlib>
#include <string>

#include "support/required.hpp"

namespace pqsig::test {

inline bool openssl35_required() { return prerequisite_required(kRequireOpenssl35); }

/// The wrapper that runs a program under OpenSSL 3.5 (…/bin/run), or "" when not started through it.
inline std::string openssl35_runner() {
  const char* r = std::getenv("PQSIG_OPENSSL35_RUN");
  return r ? r : "";
}

/// OpenSSL 3.5's own CLI beside the wrapper (…/bin/openssl), or "" without the wrapper.
inline std::string openssl35_cli() {
  const std::string r = openssl35_runner();
  return r.empty() ? r : r.substr(0, r.rfind('/')) + "/openssl";
}

}  // namespace pqsig::test

/// Skip naming REASON and how to get OpenSSL 3.5 — a failure under PQSIG_REQUIRE_OPENSSL35=1.
#define PQSIG_OPENSSL35_SKIP_OR_FAIL(reason)                                                    \
  PQSIG_SKIP_UNLESS_REQUIRED(::pqsig::test::kRequireOpenssl35,                                  \
                             reason << " — get OpenSSL 3.5 with `bash scripts/openssl35.sh`, then " \
                                    << "`ctest -L openssl35`")

/// For tests that run programs through the wrapper: skip (or fail) when it is not there.
#define PQSIG_REQUIRE_OPENSSL35_RUNNER()                                                                          \
  do {                                                                                                            \
    if (pqsig::test::openssl35_runner().empty())                                                                  \
      PQSIG_OPENSSL35_SKIP_OR_FAIL("not started through the OpenSSL 3.5 wrapper (PQSIG_OPENSSL35_RUN unset)");   \
  } while (0)
