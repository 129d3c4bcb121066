// Internal to src/providers: the optional providers' backends. Only src/providers knows which
// providers exist: its one table of (provider, family) → Backend is in provider.cpp.
#pragma once

#include "pqsig/provider.hpp"
#include "suites/backend.hpp"

namespace pqsig::detail {

// nullptr when not compiled in / not available here.
const Backend* liboqs_backend() noexcept;   // src/providers/liboqs.cpp
const Backend* openssl_backend() noexcept;  // src/providers/openssl.cpp
provider::ProviderInfo liboqs_info();
provider::ProviderInfo openssl_info();

}  // namespace pqsig::detail
