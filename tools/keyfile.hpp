// CLI helpers shared by the key commands (cmd_keys.cpp, cmd_key.cpp): reading inputs and key
// files, writing private files atomically with mode 0600. Errors end the command via cli::Exit.
#pragma once

#include <string>
#include <string_view>

#include "commands.hpp"
#include "pqsig/common.hpp"
#include "pqsig/jose.hpp"

namespace pqsig::cli {

/// Whole file (or stdin for "-") as bytes; Exit{2} on error.
bytes read_input(const std::string& path);
std::string read_text(const std::string& path);
/// A JWK or PEM key file; Exit{2} with the reason on error.
jose::LoadedKey load_key_file(const std::string& path, std::string_view suite_hint = {});
/// Write a file atomically (temp file in the same directory, fsync, rename). `secret` → mode 0600.
/// Refuses to replace an existing file unless `force`.
void write_file_atomic(const std::string& path, std::string_view content, bool secret, bool force);
/// Write to a file (atomic) or, for empty path / "-", to stdout.
void write_output(const std::string& path, std::string_view content, bool secret, bool force);
/// Exit code for an error from a verification: 1 when the signature is bad/malformed, 2 otherwise.
int exit_code_for_verify_error(const Error& e);

}  // namespace pqsig::cli
