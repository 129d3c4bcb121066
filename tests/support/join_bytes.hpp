// Test helper: the concatenation of byte strings (building encodings piece by piece).
#pragma once

#include <initializer_list>

#include "pqsig/common.hpp"

namespace pqsig::test {

inline bytes join_bytes(std::initializer_list<byte_span> parts) {
  bytes out;
  for (auto p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace pqsig::test
