// Placeholder: this family's suite backend is not wired yet (its suites report "unsupported").
#include "suites/backend.hpp"

namespace pqsig::detail {
const Backend* mlkem_backend() noexcept { return nullptr; }
}  // namespace pqsig::detail
