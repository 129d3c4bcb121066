// CLI conventions shared by every command (openssl, ssh-keygen, age and minisign are the models):
//   * "-" names stdin (inputs) or stdout (outputs) wherever a file is taken;
//   * an existing output file is replaced only with --force;
//   * secrets (private keys) are written mode 0600 and never to a terminal unless asked
//     explicitly with `-o -`;
//   * a private key file readable or writable by group/others is refused with the fix
//     (`chmod 600 FILE`), unless --allow-insecure-key-perms or PQSIG_ALLOW_INSECURE_KEY_PERMS=1;
//   * exit codes 0 valid / 1 invalid / 2 usage or input error (commands.hpp).
// Errors end the command with cli::Exit{2, reason}.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "commands.hpp"

namespace pqsig::cli::io {

/// Largest input read from a file or stdin (64 MiB): bounds memory for every command.
constexpr std::size_t kMaxInput = std::size_t{64} << 20;

/// True for "-" (stdin / stdout).
inline bool is_stdio(const std::string& path) { return path == "-"; }

/// The whole file, or stdin for "-"; Exit{2} naming the file on error or above `limit` bytes.
std::string read_file(const std::string& path, std::size_t limit = kMaxInput);

/// What is written, and how.
struct Output {
  bool secret = false;  ///< private key material: mode 0600, never to a terminal by default
  bool force = false;   ///< replace an existing file
};

/// Write to `path`: "" = stdout (the default of an optional -o), "-" = stdout asked for
/// explicitly, anything else = a file written atomically (temp file + fsync + rename), mode 0600
/// for secrets, refused if it exists unless `force`. A secret to stdout is refused when stdout
/// is a terminal unless the user asked for it with "-".
void write_output(const std::string& path, std::string_view content, Output how);

/// Exit{2} if `path` names an existing file and not `force` (checked before long work starts).
void refuse_existing(const std::string& path, bool force);

/// Refuse a secret about to be written to the default stdout when stdout is a terminal
/// (Exit{2} with the fix). `path` is the -o value ("" = default, "-" = asked for).
void guard_secret_stdout(const std::string& path);

/// Refuse a private key file whose mode grants group/other access (Exit{2} with `chmod 600`),
/// unless overridden. No check for "-" or for non-regular files (pipes, /dev/fd/N).
void check_private_key_file(const std::string& path);

/// Override for check_private_key_file (the global --allow-insecure-key-perms flag).
void set_allow_insecure_key_perms(bool on);
bool allow_insecure_key_perms();

bool stdout_is_terminal();

}  // namespace pqsig::cli::io
