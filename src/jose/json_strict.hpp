// Internal: strict JSON parsing for key files and JOSE headers (nlohmann-json underneath,
// never exposed in public headers). Duplicate member names are refused (RFC 7515 §5.2 and
// RFC 7517 §4 leave them to the parser; accepting "last wins" invites key confusion).
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"

namespace pqsig::jose::detail {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

/// Limits of every JSON document the library parses (JWK, JWKS, JWS header, key record,
/// directory): nlohmann's dump()/compare recurse, so nesting is bounded well below stack depth.
inline constexpr std::size_t kMaxJsonBytes = 16u << 20;
inline constexpr int kMaxJsonDepth = 32;

inline Result<json> parse_strict(std::string_view text, std::string_view what) {
  struct Dup {};
  struct TooDeep {};
  if (text.size() > kMaxJsonBytes)
    return Error{Errc::invalid_length, std::string(what) + ": JSON text larger than " + std::to_string(kMaxJsonBytes) + " bytes"};
  std::vector<std::set<std::string>> stack;
  try {
    json j = json::parse(
        text.begin(), text.end(),
        [&stack](int depth, json::parse_event_t ev, json& parsed) {
          if (depth > kMaxJsonDepth) throw TooDeep{};
          switch (ev) {
            case json::parse_event_t::object_start: stack.emplace_back(); break;
            case json::parse_event_t::object_end: if (!stack.empty()) stack.pop_back(); break;
            case json::parse_event_t::key:
              if (!stack.empty() && !stack.back().insert(parsed.get<std::string>()).second) throw Dup{};
              break;
            default: break;
          }
          return true;
        },
        true);
    return j;
  } catch (const TooDeep&) {
    return Error{Errc::invalid_encoding, std::string(what) + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth)};
  } catch (const Dup&) {
    return Error{Errc::invalid_encoding, std::string(what) + ": duplicate member name"};
  } catch (const std::bad_alloc&) {
    return Error{Errc::invalid_length, std::string(what) + ": out of memory"};
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

/// A std::string that is wiped when it goes out of scope (dumped JSON holding secrets).
struct WipedString {
  std::string s;
  WipedString() = default;
  explicit WipedString(std::string v) : s(std::move(v)) {}
  WipedString(const WipedString&) = delete;
  WipedString& operator=(const WipedString&) = delete;
  ~WipedString() { secure_zero(s.data(), s.size()); }
};

/// A required string member.
inline Result<std::string> get_string(const json& j, const char* name, std::string_view what) {
  auto it = j.find(name);
  if (it == j.end()) return Error{Errc::invalid_encoding, std::string(what) + ": missing \"" + name + "\""};
  if (!it->is_string()) return Error{Errc::invalid_encoding, std::string(what) + ": \"" + name + "\" is not a string"};
  return it->get<std::string>();
}

/// An optional string member (empty optional-like: has=false).
inline Result<std::string> get_opt_string(const json& j, const char* name, std::string_view what, bool& has) {
  auto it = j.find(name);
  has = it != j.end();
  if (!has) return std::string();
  if (!it->is_string()) return Error{Errc::invalid_encoding, std::string(what) + ": \"" + name + "\" is not a string"};
  return it->get<std::string>();
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
  auto b = secret_base64url_decode(it->get_ref<const std::string&>());
  if (!b) return Error{Errc::invalid_encoding, std::string(what) + ": \"" + name + "\" is not base64url"};
  return b;
}

}  // namespace pqsig::jose::detail
