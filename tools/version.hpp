// `pqsig --version`: version, commit, compiler, CPU features in use, providers built in.
#pragma once

#include <string>
#include <vector>

namespace pqsig::cli {

/// Names of the signature/KEM providers compiled into this binary (extend here as providers are
/// added: e.g. "liboqs").
std::vector<std::string> built_in_providers();

/// The multi-line text printed by `pqsig --version` (first line: "pqsig <version>").
std::string version_text();

}  // namespace pqsig::cli
