#include "keyfile.hpp"

#include "io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>

namespace pqsig::cli {

bytes read_input(const std::string& path) {
  bytes out;
  if (path == "-") {
    std::cin >> std::noskipws;
    char buf[65536];
    while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0)
      out.insert(out.end(), buf, buf + std::cin.gcount());
    return out;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Exit{kExitUsage, "cannot read '" + path + "': " + std::strerror(errno)};
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  if (f.bad()) throw Exit{kExitUsage, "error reading '" + path + "'"};
  return out;
}

std::string read_text(const std::string& path) {
  bytes b = read_input(path);
  std::string s(b.begin(), b.end());
  secure_zero(b.data(), b.size());
  return s;
}

jose::LoadedKey load_key_file(const std::string& path, std::string_view suite_hint) {
  std::string text = read_text(path);
  auto k = jose::load_key_text(text, suite_hint);
  secure_zero(text.data(), text.size());
  if (!k) throw Exit{kExitUsage, "key file '" + path + "': " + k.error().what()};
  if (k->signing || k->kem_private) io::check_private_key_file(path);  // ssh-style: refuse open modes
  return std::move(*k);
}

void write_file_atomic(const std::string& path, std::string_view content, bool secret, bool force) {
  struct stat st {};
  if (!force && ::lstat(path.c_str(), &st) == 0)
    throw Exit{kExitUsage, "'" + path + "' exists (use --force to replace it)"};
  std::string dir = ".";
  if (auto slash = path.rfind('/'); slash != std::string::npos) dir = slash == 0 ? "/" : path.substr(0, slash);
  std::string tmp;
  int fd = -1;
  std::random_device rd;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".tmp.%08x", static_cast<unsigned>(rd()));
    tmp = path + suffix;
    // O_EXCL: never follow or reuse an existing file; 0600 from creation on for secrets.
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, secret ? 0600 : 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) throw Exit{kExitUsage, "cannot create '" + tmp + "': " + std::strerror(errno)};
  if (secret) ::fchmod(fd, 0600);  // independent of the umask
  const char* p = content.data();
  std::size_t left = content.size();
  bool ok = true;
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (ok && ::fsync(fd) != 0) ok = false;
  if (::close(fd) != 0) ok = false;
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) ok = false;
  if (!ok) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw Exit{kExitUsage, "cannot write '" + path + "': " + std::strerror(err)};
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void write_output(const std::string& path, std::string_view content, bool secret, bool force) {
  if (path.empty() || path == "-") {
    if (secret) io::guard_secret_stdout(path);  // no private key to a terminal unless -o -
    std::cout.write(content.data(), static_cast<std::streamsize>(content.size()));
    std::cout.flush();
    return;
  }
  write_file_atomic(path, content, secret, force);
}

int exit_code_for_verify_error(const Error& e) {
  switch (e.code) {
    case Errc::verify_failed:
    case Errc::invalid_length:
    case Errc::invalid_encoding:
      return kExitInvalid;
    default:
      return kExitUsage;
  }
}

}  // namespace pqsig::cli
