// Internal: the one small CBOR (RFC 8949) writer and strict reader of the COSE code — COSE_Key
// (jose/hbs.cpp, RFC 8778) and COSE_Sign1 (jose/cose.cpp, RFC 9052). Not a general CBOR library:
//  - writing: deterministic encoding (§4.2.1: the shortest argument, definite lengths);
//  - reading: definite lengths only (no 31), no reserved additional information (28..30), every
//    argument in its shortest form (§4.2.1 preferred serialization), simple values below 32 in
//    the initial byte (§3.3), text strings well-formed UTF-8 (§3.1), lengths checked against the
//    input before anything is taken, skipping bounded by a nesting depth and an entry count.
// Errors are typed: invalid_length (truncated, over a bound), invalid_encoding (anything else),
// each message prefixed with the reader's context ("COSE_Key", "COSE_Sign1").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pqsig/common.hpp"

namespace pqsig::jose::cbor {

inline void put_head(bytes& out, unsigned major, std::uint64_t v) {
  const auto mt = static_cast<u8>(major << 5);
  if (v < 24) {
    out.push_back(static_cast<u8>(mt | v));
    return;
  }
  const int n = v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffffffu ? 4 : 8;
  out.push_back(static_cast<u8>(mt | (n == 1 ? 24 : n == 2 ? 25 : n == 4 ? 26 : 27)));
  for (int s = 8 * (n - 1); s >= 0; s -= 8) out.push_back(static_cast<u8>(v >> s));
}
inline void put_int(bytes& out, std::int64_t v) {
  if (v >= 0) put_head(out, 0, static_cast<std::uint64_t>(v));
  else put_head(out, 1, static_cast<std::uint64_t>(-(v + 1)));
}
inline void put_bstr(bytes& out, byte_span b) {
  put_head(out, 2, b.size());
  out.insert(out.end(), b.begin(), b.end());
}
inline void put_tstr(bytes& out, std::string_view s) {
  put_head(out, 3, s.size());
  out.insert(out.end(), s.begin(), s.end());
}

/// RFC 3629 §4 well-formed UTF-8.
inline bool utf8_ok(byte_span s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const u8 c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (s.size() - i - 1 < n) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      if ((s[i + k] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += n + 1;
  }
  return true;
}

struct Head {
  unsigned major = 0;
  unsigned ai = 0;  ///< additional information (5 low bits of the initial byte)
  std::uint64_t arg = 0;
};

class Reader {
 public:
  /// `context` prefixes every error message; skip() refuses nesting deeper than `max_depth` and
  /// arrays / maps of more than `max_items` entries.
  Reader(byte_span in, std::string_view context, unsigned max_depth = 8, std::size_t max_items = 64)
      : in_(in), ctx_(context), max_depth_(max_depth), max_items_(max_items) {}
  bool empty() const { return pos_ == in_.size(); }
  std::size_t pos() const { return pos_; }

  Error bad(std::string_view m) const { return Error{Errc::invalid_encoding, std::string(ctx_) + ": " + std::string(m)}; }
  Error too_long(std::string_view m) const { return Error{Errc::invalid_length, std::string(ctx_) + ": " + std::string(m)}; }

  Result<Head> head() {
    if (pos_ >= in_.size()) return too_long("truncated");
    const u8 ib = in_[pos_++];
    Head h;
    h.major = ib >> 5;
    h.ai = ib & 0x1f;
    if (h.ai < 24) {
      h.arg = h.ai;
      return h;
    }
    if (h.ai > 27) return bad("indefinite length or reserved additional information (RFC 8949 §3)");
    const std::size_t n = std::size_t{1} << (h.ai - 24);
    if (in_.size() - pos_ < n) return too_long("truncated");
    for (std::size_t i = 0; i < n; ++i) h.arg = (h.arg << 8) | in_[pos_++];
    if (h.major == 7) {
      if (h.ai == 24 && h.arg < 32) return bad("simple value in two bytes (RFC 8949 §3.3)");
      return h;  // floats: any width
    }
    const std::uint64_t min = n == 1 ? 24 : (std::uint64_t{1} << (8 * n / 2));
    if (h.arg < min) return bad("not the shortest encoding (RFC 8949 §4.2.1)");
    return h;
  }

  Result<byte_span> take(std::uint64_t n) {
    if (n > in_.size() - pos_) return too_long("truncated string");
    byte_span b = in_.subspan(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return b;
  }

  Result<byte_span> bstr(std::string_view what) {
    auto h = head();
    if (!h) return h.error();
    if (h->major != 2) return bad(std::string(what) + " is not a byte string");
    return take(h->arg);
  }

  /// The body of a text string whose head was read: UTF-8 checked.
  Result<std::string> tstr_body(std::uint64_t n, std::string_view what) {
    auto b = take(n);
    if (!b) return b.error();
    if (!utf8_ok(*b)) return bad(std::string(what) + " is not UTF-8");
    return std::string(b->begin(), b->end());
  }

  /// A head already read as an integer (major 0 / 1) in int64 range.
  Result<std::int64_t> as_int(const Head& h, std::string_view what) const {
    if (h.major > 1) return bad(std::string(what) + " is not an integer");
    if (h.arg > static_cast<std::uint64_t>(INT64_MAX)) return bad(std::string(what) + ": integer out of range");
    return h.major == 0 ? static_cast<std::int64_t>(h.arg) : -1 - static_cast<std::int64_t>(h.arg);
  }
  Result<std::int64_t> integer(std::string_view what) {
    auto h = head();
    if (!h) return h.error();
    return as_int(*h, what);
  }

  /// Skips one data item of any type at nesting `depth` (the caller's item counts as 1).
  Status skip(unsigned depth) {
    if (depth > max_depth_) return too_long("nested deeper than " + std::to_string(max_depth_));
    auto h = head();
    if (!h) return h.error();
    switch (h->major) {
      case 0:
      case 1:
      case 7:
        return {};
      case 2: {
        auto b = take(h->arg);
        if (!b) return b.error();
        return {};
      }
      case 3: {
        auto s = tstr_body(h->arg, "a text string");
        if (!s) return s.error();
        return {};
      }
      case 4:
      case 5: {
        if (h->arg > max_items_) return too_long("an array or map of more than " + std::to_string(max_items_) + " entries");
        const std::uint64_t n = h->major == 5 ? 2 * h->arg : h->arg;
        for (std::uint64_t k = 0; k < n; ++k)
          if (auto st = skip(depth + 1); !st) return st;
        return {};
      }
      default:  // 6: a tag and its item
        return skip(depth + 1);
    }
  }

 private:
  byte_span in_;
  std::string_view ctx_;
  unsigned max_depth_;
  std::size_t max_items_;
  std::size_t pos_ = 0;
};

}  // namespace pqsig::jose::cbor
