// Suite selection for the key/signature harnesses: "<suite id>\0<flags><data>" (readable seeds),
// else <index byte><flags><data>.
#pragma once

#include <cstring>
#include <tuple>
#include <vector>

#include "pqsig/suite.hpp"

namespace pqsig::fuzz {

inline std::tuple<const SuiteInfo*, std::uint8_t, byte_span> split_suite(const std::uint8_t* data, std::size_t size,
                                                                         const std::vector<const SuiteInfo*>& suites) {
  const void* nul = std::memchr(data, 0, size < 40 ? size : 40);
  if (nul) {
    std::size_t n = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - data);
    std::string_view id(reinterpret_cast<const char*>(data), n);
    for (const auto* s : suites)
      if (s->id == id && n + 1 < size) return {s, data[n + 1], byte_span(data + n + 2, size - n - 2)};
  }
  return {suites[data[0] % suites.size()], data[1], byte_span(data + 2, size - 2)};
}

}  // namespace pqsig::fuzz
