#include "io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "keyfile.hpp"

namespace pqsig::cli::io {

namespace {
bool g_allow_insecure = false;

std::string mode_octal(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}
}  // namespace

std::string read_file(const std::string& path, std::size_t limit) {
  std::FILE* f = is_stdio(path) ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) throw Exit{kExitUsage, "cannot read '" + path + "': " + std::strerror(errno)};
  std::string out;
  char buf[65536];
  bool too_big = false;
  for (;;) {
    std::size_t n = std::fread(buf, 1, sizeof buf, f);
    if (n == 0) break;
    if (out.size() + n > limit) {
      too_big = true;
      break;
    }
    out.append(buf, n);
  }
  bool failed = std::ferror(f) != 0;
  int err = errno;
  if (f != stdin) std::fclose(f);
  const std::string name = is_stdio(path) ? std::string("stdin") : "'" + path + "'";
  if (too_big) throw Exit{kExitUsage, name + " is larger than " + std::to_string(limit >> 20) + " MiB"};
  if (failed) throw Exit{kExitUsage, "error reading " + name + ": " + std::strerror(err)};
  return out;
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

void refuse_existing(const std::string& path, bool force) {
  struct stat st {};
  if (!force && !path.empty() && !is_stdio(path) && ::lstat(path.c_str(), &st) == 0)
    throw Exit{kExitUsage, "'" + path + "' exists (use --force to replace it)"};
}

void guard_secret_stdout(const std::string& path) {
  if (path.empty() && stdout_is_terminal())
    throw Exit{kExitUsage,
               "refusing to print a private key to the terminal: write it to a file with -o FILE "
               "(created mode 0600), or ask for the terminal explicitly with -o -"};
}

void write_output(const std::string& path, std::string_view content, Output how) {
  if (path.empty() || is_stdio(path)) {
    if (how.secret) guard_secret_stdout(path);
    std::cout.write(content.data(), static_cast<std::streamsize>(content.size()));
    std::cout.flush();
    if (!std::cout) throw Exit{kExitUsage, std::string("error writing to stdout: ") + std::strerror(errno)};
    return;
  }
  write_file_atomic(path, content, how.secret, how.force);
}

void set_allow_insecure_key_perms(bool on) { g_allow_insecure = on; }

bool allow_insecure_key_perms() {
  if (g_allow_insecure) return true;
  const char* e = std::getenv("PQSIG_ALLOW_INSECURE_KEY_PERMS");
  return e && *e && std::strcmp(e, "0") != 0;
}

void check_private_key_file(const std::string& path) {
  if (is_stdio(path)) return;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  if ((st.st_mode & 077) == 0) return;
  if (allow_insecure_key_perms()) {
    std::cerr << "pqsig: warning: private key file '" << path << "' is accessible by group/others (mode "
              << mode_octal(st.st_mode) << "); used because insecure key permissions are allowed\n";
    return;
  }
  throw Exit{kExitUsage, "private key file '" + path + "' is accessible by group/others (mode " + mode_octal(st.st_mode) +
                             "); fix it with: chmod 600 '" + path +
                             "' (or override with --allow-insecure-key-perms / PQSIG_ALLOW_INSECURE_KEY_PERMS=1)"};
}

}  // namespace pqsig::cli::io
