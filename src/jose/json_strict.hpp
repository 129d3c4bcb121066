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

inline Result<json> parse_strict(std::string_view text, std::string_view what) {
  struct Dup {};
  std::vector<std::set<std::string>> stack;
  try {
    json j = json::parse(
        text.begin(), text.end(),
        [&stack](int, json::parse_event_t ev, json& parsed) {
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
  } catch (const Dup&) {
    return Error{Errc::invalid_encoding, std::string(what) + ": duplicate member name"};
  } catch (const std::exception&) {
    return Error{Errc::invalid_encoding, std::string(what) + ": not valid JSON"};
  }
}

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

}  // namespace pqsig::jose::detail
