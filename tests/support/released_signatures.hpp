// The record a stateful signer's child process "releases": (index, message, signature), written to
// its output file only after sign() returned — the moment a signature leaves the process. The LMS,
// XMSS and fleet crash tests read every record back and check that no index was signed twice.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "pqsig/common.hpp"

namespace pqsig::test {

struct ReleasedSignature {
  std::uint64_t index = 0;
  std::string message;
  bytes sig;
};

/// Appends one record to fd (u64 index, u64 length + message, u64 length + signature, host order);
/// a failed write ends the child (_exit 90): a signature that was not recorded must not count.
inline void write_released(int fd, std::uint64_t index, const std::string& msg, const bytes& sig) {
  std::string rec;
  auto put64 = [&](std::uint64_t v) { rec.append(reinterpret_cast<const char*>(&v), 8); };
  put64(index);
  put64(msg.size());
  rec += msg;
  put64(sig.size());
  rec.append(reinterpret_cast<const char*>(sig.data()), sig.size());
  std::size_t off = 0;
  while (off < rec.size()) {
    const ssize_t w = ::write(fd, rec.data() + off, rec.size() - off);
    if (w <= 0) _exit(90);
    off += static_cast<std::size_t>(w);
  }
}

/// Every whole record of the file; a torn last one (the writer killed mid-write) was not released.
inline std::vector<ReleasedSignature> read_released(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string d((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<ReleasedSignature> out;
  std::size_t off = 0;
  auto get64 = [&](std::uint64_t& v) {
    if (d.size() - off < 8) return false;
    std::memcpy(&v, d.data() + off, 8);
    off += 8;
    return true;
  };
  for (;;) {
    ReleasedSignature r;
    std::uint64_t ml = 0, sl = 0;
    if (!get64(r.index) || !get64(ml) || d.size() - off < ml) break;
    r.message = d.substr(off, ml);
    off += ml;
    if (!get64(sl) || d.size() - off < sl) break;
    r.sig.assign(d.begin() + static_cast<std::ptrdiff_t>(off), d.begin() + static_cast<std::ptrdiff_t>(off + sl));
    off += sl;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace pqsig::test
