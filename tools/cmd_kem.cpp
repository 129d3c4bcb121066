// Placeholder registration; the owning issue fills this in.
#include "commands.hpp"

namespace pqsig::cli {
void register_kem(CLI::App& app) { (void)app; }
}  // namespace pqsig::cli
