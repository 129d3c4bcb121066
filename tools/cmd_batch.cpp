// `pqsig batch`: JSON Lines on stdin, one reply per line on stdout. The protocol is the library's
// (src/ledger/batch.hpp, batch_*.cpp); this is its command line.
#include <iostream>

#include "commands.hpp"
#include "ledger/batch.hpp"

namespace pqsig::cli {
void register_batch(CLI::App& app) {
  auto* cmd = app.add_subcommand("batch", "JSON Lines protocol on stdin/stdout (keygen/sign/verify/encaps/decaps)");
  auto opt = std::make_shared<batch::SessionOptions>();
  cmd->add_option("--max-line", opt->max_line_bytes, "longest request line in bytes (longer: an error reply, then the next line)")
      ->check(CLI::PositiveNumber);
  cmd->callback([opt] {
    std::ios::sync_with_stdio(false);
    (void)batch::run_session(std::cin, std::cout, *opt);
  });
}
}  // namespace pqsig::cli
