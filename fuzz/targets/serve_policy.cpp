// `pqsig serve verify --policy` files (src/serve): strict parse under its limits; a policy that
// parses always requires "@authority" and a bounded validity window, whatever the file says.
#include <algorithm>

#include "harness.hpp"
#include "pqsig/serve.hpp"

PQSIG_FUZZ_TARGET(serve_policy) {
  auto p = pqsig::serve::parse_policy(pqsig::fuzz::as_text(data, size));
  if (!p) return 0;
  const auto& rc = p.value().required_components;
  pqsig::fuzz::check(std::find(rc.begin(), rc.end(), "\"@authority\"") != rc.end(),
                     "a parsed policy does not require \"@authority\"");
  pqsig::fuzz::check(p.value().max_validity > 0 && p.value().max_validity <= pqsig::webbotauth::kMaxExpiresIn,
                     "a parsed policy has an unbounded validity window");
  return 0;
}
