// `pqsig suites`: the closed registry with its sizes.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::cli {
void register_suites(CLI::App& app) {
  auto* cmd = app.add_subcommand("suites", "List the suite registry (identifiers, versions, sizes)");
  static bool as_json = false;
  cmd->add_flag("--json", as_json, "JSON output");
  cmd->callback([] {
    if (as_json) {
      nlohmann::json arr = nlohmann::json::array();
      for (const auto& s : all_suites()) {
        arr.push_back({{"id", s.id}, {"version", s.version}, {"class", suite_class_name(s.cls)},
                       {"family", family_name(s.family)}, {"standard", s.standard}, {"jose_alg", s.jose_alg},
                       {"http_alg", s.http_alg}, {"http_registered", s.http_registered},
                       {"public_key", s.public_key_size}, {"private_key", s.private_key_size},
                       {"expanded_key", s.expanded_key_size}, {"output", s.output_size},
                       {"shared_secret", s.shared_secret_size}, {"variable_output", s.variable_output},
                       {"stateful", s.stateful}, {"max_signatures", s.max_signatures()}});
      }
      std::cout << arr.dump(2) << "\n";
      return;
    }
    std::printf("%-28s %-4s %-10s %-10s %8s %8s %8s %8s  %s\n", "suite", "ver", "class", "family", "pk", "priv",
                "expanded", "sig/ct", "standard");
    for (const auto& s : all_suites()) {
      auto num = [](std::size_t v) { return v ? std::to_string(v) : std::string("var"); };
      std::string out = num(s.output_size);
      if (s.variable_output) out = "<=" + out;
      std::printf("%-28s v%-3d %-10s %-10s %8s %8s %8s %8s  %s\n", std::string(s.id).c_str(), s.version,
                  std::string(suite_class_name(s.cls)).c_str(), std::string(family_name(s.family)).c_str(),
                  num(s.public_key_size).c_str(), num(s.private_key_size).c_str(), num(s.expanded_key_size).c_str(),
                  out.c_str(),
                  (std::string(s.standard) + (s.stateful ? "  [stateful: 2^" + std::to_string(s.params.hbs.height) +
                                                               " signatures; sign with pqsig hbs]"
                                                         : "")).c_str());
    }
  });
}
}  // namespace pqsig::cli
