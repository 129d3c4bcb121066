// `pqsig price` workload files: strict parse; what parses prints (workload_to_json) to JSON that
// parses back and prints the same.
#include "harness.hpp"
#include "pqsig/price.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(workload) {
  auto w = price::workload_from_json(fuzz::as_text(data, size));
  if (!w) return 0;
  const std::string j = price::workload_to_json(w.value());
  auto again = price::workload_from_json(j);
  fuzz::check(again.ok(), "a printed workload does not parse: " + (again ? std::string() : again.error().message));
  fuzz::check(price::workload_to_json(again.value()) == j, "workload JSON is not stable");
  return 0;
}
