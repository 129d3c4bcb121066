// Placeholder registration; keygen/pubkey/sign/verify land with the foundation issue.
#include "commands.hpp"

namespace pqsig::cli {
void register_keys(CLI::App& app) { (void)app; }
}  // namespace pqsig::cli
