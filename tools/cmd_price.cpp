// Placeholder registration; the pricing issue fills this in.
#include "commands.hpp"

namespace pqsig::cli {
void register_price(CLI::App& app) { (void)app; }
}  // namespace pqsig::cli
