// Placeholder batch handler for this family (owns no algs yet).
#include "batch.hpp"

namespace pqsig::cli::batch {
namespace {
bool handles(std::string_view) { return false; }
json handle(const json&) { throw BadRequest("not implemented"); }
}  // namespace
const Family& classical_family() {
  static const Family f{"classical", &handles, &handle};
  return f;
}
}  // namespace pqsig::cli::batch
