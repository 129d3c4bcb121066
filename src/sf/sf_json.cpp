// The JSON form of the httpwg structured-field-tests suite, for `pqsig sf` and the tests.
#include <cfenv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "jose/json_strict.hpp"
#include "pqsig/sf.hpp"

namespace pqsig::sf {
namespace {
using json = nlohmann::json;

json bare_to_json(const BareItem& b) {
  switch (b.type) {
    case Type::integer: return b.i;
    case Type::decimal: return static_cast<double>(b.i) / 1000.0;
    case Type::string: return b.s;
    case Type::token: return json{{"__type", "token"}, {"value", b.s}};
    case Type::byte_sequence: return json{{"__type", "binary"}, {"value", base32_encode(b.b)}};
    case Type::boolean: return b.i != 0;
    case Type::date: return json{{"__type", "date"}, {"value", b.i}};
    case Type::display_string: return json{{"__type", "displaystring"}, {"value", b.s}};
  }
  return nullptr;
}

json params_to_json(const Parameters& p) {
  json a = json::array();
  for (const auto& [k, v] : p) a.push_back(json::array({k, bare_to_json(v)}));
  return a;
}

json item_to_json(const Item& it) { return json::array({bare_to_json(it.bare), params_to_json(it.params)}); }

json member_to_json(const Member& m) {
  if (!m.is_inner_list) return item_to_json(m.item);
  json items = json::array();
  for (const auto& it : m.inner.items) items.push_back(item_to_json(it));
  return json::array({items, params_to_json(m.inner.params)});
}

Error jerr(std::string m) { return Error{Errc::invalid_argument, "structured field JSON: " + std::move(m)}; }

Result<BareItem> bare_from_json(const json& j) {
  if (j.is_boolean()) return BareItem::boolean(j.get<bool>());
  if (j.is_number_integer()) return BareItem::integer(j.get<std::int64_t>());
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (!std::isfinite(d) || std::fabs(d) >= 1e12) return jerr("decimal out of range");
    // RFC 9651 §4.1.5: round to three decimal places, ties to even.
    std::fesetround(FE_TONEAREST);
    double r = std::nearbyint(d * 1000.0);
    return BareItem::decimal_milli(static_cast<std::int64_t>(r));
  }
  if (j.is_string()) return BareItem::string(j.get<std::string>());
  if (j.is_object() && j.contains("__type") && j.contains("value")) {
    if (!j["__type"].is_string()) return jerr("__type must be a string");
    auto t = j["__type"].get<std::string>();
    const auto& v = j["value"];
    if (t == "token" && v.is_string()) return BareItem::token(v.get<std::string>());
    if (t == "displaystring" && v.is_string()) return BareItem::display_string(v.get<std::string>());
    if (t == "date" && v.is_number_integer()) return BareItem::date(v.get<std::int64_t>());
    if (t == "binary" && v.is_string()) {
      auto b = base32_decode(v.get<std::string>());
      if (!b) return b.error();
      return BareItem::byte_sequence(std::move(b.value()));
    }
    return jerr("unknown __type '" + t + "'");
  }
  return jerr("not a bare item: " + j.dump());
}

Result<Parameters> params_from_json(const json& j) {
  if (!j.is_array()) return jerr("parameters must be an array");
  Parameters p;
  for (const auto& e : j) {
    if (!e.is_array() || e.size() != 2 || !e[0].is_string()) return jerr("parameter must be [key, value]");
    auto b = bare_from_json(e[1]);
    if (!b) return b.error();
    p.emplace_back(e[0].get<std::string>(), std::move(b.value()));
  }
  return p;
}

Result<Item> item_from_json(const json& j) {
  if (!j.is_array() || j.size() != 2) return jerr("item must be [bare, params]");
  auto b = bare_from_json(j[0]);
  if (!b) return b.error();
  auto p = params_from_json(j[1]);
  if (!p) return p.error();
  return Item{std::move(b.value()), std::move(p.value())};
}

Result<Member> member_from_json(const json& j) {
  if (!j.is_array() || j.size() != 2) return jerr("member must be a 2-element array");
  if (j[0].is_array()) {
    InnerList il;
    for (const auto& e : j[0]) {
      auto it = item_from_json(e);
      if (!it) return it.error();
      il.items.push_back(std::move(it.value()));
    }
    auto p = params_from_json(j[1]);
    if (!p) return p.error();
    il.params = std::move(p.value());
    return Member::of(std::move(il));
  }
  auto it = item_from_json(j);
  if (!it) return it.error();
  return Member::of(std::move(it.value()));
}

}  // namespace

std::string to_test_json(const Field& f) {
  json j;
  switch (f.type) {
    case FieldType::item: j = item_to_json(f.item); break;
    case FieldType::list:
      j = json::array();
      for (const auto& m : f.list) j.push_back(member_to_json(m));
      break;
    case FieldType::dictionary:
      j = json::array();
      for (const auto& [k, m] : f.dict) j.push_back(json::array({k, member_to_json(m)}));
      break;
  }
  return j.dump();
}

Result<Field> from_test_json(FieldType t, std::string_view text) {
  // The library's strict reader (size, depth, duplicate names, UTF-8): the text comes from the user.
  auto parsed = jose::detail::parse_strict<json>(text, "structured field JSON");
  if (!parsed) return parsed.error();
  const json j = std::move(parsed.value());
  Field f;
  f.type = t;
  switch (t) {
    case FieldType::item: {
      auto it = item_from_json(j);
      if (!it) return it.error();
      f.item = std::move(it.value());
      break;
    }
    case FieldType::list:
      if (!j.is_array()) return jerr("list must be an array");
      for (const auto& e : j) {
        auto m = member_from_json(e);
        if (!m) return m.error();
        f.list.push_back(std::move(m.value()));
      }
      break;
    case FieldType::dictionary:
      if (!j.is_array()) return jerr("dictionary must be an array");
      for (const auto& e : j) {
        if (!e.is_array() || e.size() != 2 || !e[0].is_string()) return jerr("dictionary entry must be [key, member]");
        auto m = member_from_json(e[1]);
        if (!m) return m.error();
        f.dict.emplace_back(e[0].get<std::string>(), std::move(m.value()));
      }
      break;
  }
  return f;
}

}  // namespace pqsig::sf
