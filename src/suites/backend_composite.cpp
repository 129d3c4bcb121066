// The composite family's suite backend (draft-ietf-lamps-pq-composite-sigs): see composite.cpp.
#include "suites/backend.hpp"
#include "suites/composite_internal.hpp"

namespace pqsig::detail {
namespace {
unsigned composite_interfaces(const SuiteInfo&) noexcept { return provider::kPure | provider::kContext; }
}  // namespace
const Backend* composite_backend() noexcept {
  static const Backend b{&pqsig::composite::generate, &pqsig::composite::signer, nullptr,
                         &pqsig::composite::verifier, nullptr, nullptr, &composite_interfaces};
  return &b;
}
}  // namespace pqsig::detail
