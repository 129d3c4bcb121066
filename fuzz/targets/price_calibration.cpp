// `pqsig price --calibration FILE`: strict parse; what parses prints (calibration_to_json) to JSON
// that parses back and prints the same.
#include "harness.hpp"
#include "pqsig/price_engines.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(price_calibration) {
  auto c = price::calibration_from_json(fuzz::as_text(data, size));
  if (!c) return 0;
  const std::string j = price::calibration_to_json(c.value());
  auto again = price::calibration_from_json(j);
  fuzz::check(again.ok(), "a printed calibration does not parse: " + (again ? std::string() : again.error().message));
  fuzz::check(price::calibration_to_json(again.value()) == j, "calibration JSON is not stable");
  return 0;
}
