// Internal: strict JSON parsing for key files and JOSE headers (nlohmann-json underneath,
// never exposed in public headers). Duplicate member names are refused (RFC 7515 §5.2 and
// RFC 7517 §4 leave them to the parser; accepting "last wins" invites key confusion).
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"

namespace pqsig::jose::detail {

/// An allocator that overwrites memory before freeing it. The parsed JSON of key files holds
/// secret members ("d", "priv", "k", RSA CRT values): with this allocator for its strings, every
/// copy of them (the values, and nlohmann's lexer token buffer) is wiped when freed or regrown.
template <class T>
struct WipingAllocator {
  using value_type = T;
  WipingAllocator() noexcept = default;
  template <class U>
  WipingAllocator(const WipingAllocator<U>&) noexcept {}  // NOLINT
  T* allocate(std::size_t n) { return std::allocator<T>{}.allocate(n); }
  void deallocate(T* p, std::size_t n) noexcept {
    secure_zero(p, n * sizeof(T));
    std::allocator<T>{}.deallocate(p, n);
  }
  template <class U>
  bool operator==(const WipingAllocator<U>&) const noexcept { return true; }
};
using wiped_string = std::basic_string<char, std::char_traits<char>, WipingAllocator<char>>;

/// The library's parsed JSON: strings (and object keys) live in wiping memory.
using json = nlohmann::basic_json<std::map, std::vector, wiped_string>;
using ojson = nlohmann::ordered_json;

/// Limits of every JSON document the library parses (JWK, JWKS, JWS header, key record,
/// directory): nlohmann's dump()/compare recurse, so nesting is bounded well below stack depth.
inline constexpr std::size_t kMaxJsonBytes = 16u << 20;
inline constexpr int kMaxJsonDepth = 32;

/// The offset of the first byte of `text` that is not well-formed UTF-8 (RFC 3629 §4: no overlong
/// forms, no surrogates, nothing above U+10FFFF), or npos. RFC 8259 §8.1: JSON text is UTF-8.
inline std::size_t first_invalid_utf8(std::string_view text) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (n - i < len || p[i + 1] < lo || p[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

/// Parse one JSON text under the library's limits (size, depth, duplicate names, UTF-8) into J:
/// `json` (wiping strings, the default) or e.g. nlohmann::json for data that holds no secret.
/// `max_depth` may only tighten kMaxJsonDepth.
template <class J = json>
inline Result<J> parse_strict(std::string_view text, std::string_view what, int max_depth = kMaxJsonDepth) {
  struct Dup {};
  struct TooDeep {};
  if (max_depth > kMaxJsonDepth) max_depth = kMaxJsonDepth;
  if (text.size() > kMaxJsonBytes)
    return Error{Errc::invalid_length, std::string(what) + ": JSON text larger than " + std::to_string(kMaxJsonBytes) + " bytes"};
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos)
    return Error{Errc::invalid_encoding, std::string(what) + ": invalid UTF-8 at byte " + std::to_string(bad)};
  std::vector<std::set<std::string>> stack;
  // nlohmann's lexer keeps the raw characters of the current token in a std::vector that it
  // neither wipes nor lets us replace; it is only ever overwritten from its start by the next
  // string token. So the text is parsed as ["<pad>", text, "<pad>"] with pads as long as the text:
  // the first pad grows that buffer once (no reallocation leaves a partial secret behind), the
  // last one overwrites whatever the text left in it. The wrapped copy is in wiping memory.
  wiped_string wrapped;
  wrapped.reserve(3 * text.size() + 8);
  wrapped.append("[\"").append(text.size(), 'x').append("\",");
  wrapped.append(text.data(), text.size());
  wrapped.append(",\"").append(text.size(), 'x').append("\"]");
  try {
    J outer = J::parse(
        wrapped.begin(), wrapped.end(),
        [&stack, max_depth](int depth, typename J::parse_event_t ev, J& parsed) {
          // A container's depth counts the wrapping array as 0, so the text's own top level is 1.
          if ((ev == J::parse_event_t::object_start || ev == J::parse_event_t::array_start) && depth > max_depth)
            throw TooDeep{};
          switch (ev) {
            case J::parse_event_t::object_start: stack.emplace_back(); break;
            case J::parse_event_t::object_end: if (!stack.empty()) stack.pop_back(); break;
            case J::parse_event_t::key:
              if (!stack.empty()) {
                const auto& k = parsed.template get_ref<const typename J::string_t&>();
                if (!stack.back().insert(std::string(k.begin(), k.end())).second) throw Dup{};
              }
              break;
            default: break;
          }
          return true;
        },
        true);
    // Exactly one value between the pads (anything else was not one JSON text).
    if (!outer.is_array() || outer.size() != 3) return Error{Errc::invalid_encoding, std::string(what) + ": not valid JSON"};
    J j = std::move(outer[1]);
    return j;
  } catch (const TooDeep&) {
    return Error{Errc::invalid_encoding, std::string(what) + ": JSON nested deeper than " + std::to_string(max_depth)};
  } catch (const Dup&) {
    return Error{Errc::invalid_encoding, std::string(what) + ": duplicate member name"};
  } catch (const std::bad_alloc&) {
    return Error{Errc::invalid_length, std::string(what) + ": out of memory"};
  } catch (const nlohmann::json::parse_error& e) {
    // The offset in `text` of the byte that ended the parse (e.byte counts the bytes read, and the
    // wrapping adds text.size() + 4 in front); nlohmann's message is not passed on: it quotes input.
    const std::size_t front = text.size() + 4;
    std::size_t at = e.byte > front ? e.byte - front - 1 : 0;
    if (at > text.size()) at = text.size();
    return Error{Errc::invalid_encoding, std::string(what) + ": not valid JSON (at byte " + std::to_string(at) + ")"};
  } catch (const std::exception&) {
    return Error{Errc::invalid_encoding, std::string(what) + ": not valid JSON"};
  }
}

/// Overwrite every string (and object key) inside a JSON value before it is freed: the JSON
/// copies of secret members ("d", "priv", "k", RSA CRT values) must not linger on the heap.
/// Iterative (an explicit stack), so it is safe on any depth.
template <class J>
void wipe_strings(J& root) noexcept {
  std::vector<J*> todo{&root};
  while (!todo.empty()) {
    J* v = todo.back();
    todo.pop_back();
    if (v->is_string()) {
      auto& s = v->template get_ref<typename J::string_t&>();
      secure_zero(s.data(), s.size());
    } else if (v->is_structured()) {
      for (auto& e : *v) todo.push_back(&e);
    }
  }
}

/// Wipes a JSON value (wipe_strings) when the scope ends, on every path.
template <class J>
struct JsonWipe {
  J& j;
  explicit JsonWipe(J& x) : j(x) {}
  JsonWipe(const JsonWipe&) = delete;
  JsonWipe& operator=(const JsonWipe&) = delete;
  ~JsonWipe() { wipe_strings(j); }
};


/// A required string member.
inline Result<std::string> get_string(const json& j, const char* name, std::string_view what) {
  auto it = j.find(name);
  if (it == j.end()) return Error{Errc::invalid_encoding, std::string(what) + ": missing \"" + name + "\""};
  if (!it->is_string()) return Error{Errc::invalid_encoding, std::string(what) + ": \"" + name + "\" is not a string"};
  const auto& v = it->template get_ref<const json::string_t&>();
  return std::string(v.begin(), v.end());
}

/// An optional string member (empty optional-like: has=false).
inline Result<std::string> get_opt_string(const json& j, const char* name, std::string_view what, bool& has) {
  auto it = j.find(name);
  has = it != j.end();
  if (!has) return std::string();
  if (!it->is_string()) return Error{Errc::invalid_encoding, std::string(what) + ": \"" + name + "\" is not a string"};
  const auto& v = it->template get_ref<const json::string_t&>();
  return std::string(v.begin(), v.end());
}

/// A required base64url member, decoded strictly.
inline Result<bytes> get_b64u(const json& j, const char* name, std::string_view what) {
  auto s = get_string(j, name, what);
  if (!s) return s.error();
  auto b = base64url_decode(*s);
  if (!b) return Error{Errc::invalid_encoding, std::string(what) + ": \"" + name + "\" is not base64url"};
  return b;
}

/// A required base64url member holding a secret: decoded in constant time into SecretBytes.
inline Result<SecretBytes> get_secret_b64u(const json& j, const char* name, std::string_view what) {
  auto it = j.find(name);
  if (it == j.end()) return Error{Errc::invalid_encoding, std::string(what) + ": missing \"" + name + "\""};
  if (!it->is_string()) return Error{Errc::invalid_encoding, std::string(what) + ": \"" + name + "\" is not a string"};
  const auto& v = it->get_ref<const json::string_t&>();
  auto b = secret_base64url_decode(std::string_view(v.data(), v.size()));
  if (!b) return Error{Errc::invalid_encoding, std::string(what) + ": \"" + name + "\" is not base64url"};
  return b;
}

}  // namespace pqsig::jose::detail
