// Reference documentation generated from the registered command tree, so it cannot drift from
// the CLI: the COMMANDS section of the man page, and bash / zsh completions.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace pqsig::cli {
/// `pqsig completion bash|zsh` (public) and the hidden `pqsig __man-commands` used by the build.
void register_docgen(CLI::App& root);
std::string man_commands(const CLI::App& root);  ///< roff: one .SS per command, .TP per option
std::string bash_completion(const CLI::App& root);
std::string zsh_completion(const CLI::App& root);
}  // namespace pqsig::cli
