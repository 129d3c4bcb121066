// pqsig — Structured Field Values for HTTP (RFC 9651): strict parser and canonical serializer
// for Items, Lists, Dictionaries, Inner Lists and Parameters, with every bare-item type
// (Integer, Decimal, String, Token, Byte Sequence, Boolean, Date, Display String).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pqsig/common.hpp"

namespace pqsig::sf {

enum class Type { integer, decimal, string, token, byte_sequence, boolean, date, display_string };
std::string_view type_name(Type t) noexcept;

/// A bare item. Decimals are held exactly as thousandths (RFC 9651 §3.3.2 allows 3 fractional
/// digits); `s` holds String / Token / Display String (UTF-8) text, `b` the Byte Sequence.
struct BareItem {
  Type type = Type::boolean;
  std::int64_t i = 0;  ///< integer, date, decimal (thousandths), boolean (0/1)
  std::string s;
  bytes b;

  static BareItem integer(std::int64_t v) { BareItem x; x.type = Type::integer; x.i = v; return x; }
  static BareItem decimal_milli(std::int64_t thousandths) { BareItem x; x.type = Type::decimal; x.i = thousandths; return x; }
  static BareItem string(std::string v) { BareItem x; x.type = Type::string; x.s = std::move(v); return x; }
  static BareItem token(std::string v) { BareItem x; x.type = Type::token; x.s = std::move(v); return x; }
  static BareItem byte_sequence(bytes v) { BareItem x; x.type = Type::byte_sequence; x.b = std::move(v); return x; }
  static BareItem boolean(bool v) { BareItem x; x.type = Type::boolean; x.i = v ? 1 : 0; return x; }
  static BareItem date(std::int64_t v) { BareItem x; x.type = Type::date; x.i = v; return x; }
  static BareItem display_string(std::string utf8) { BareItem x; x.type = Type::display_string; x.s = std::move(utf8); return x; }

  bool is_true() const noexcept { return type == Type::boolean && i == 1; }
  bool operator==(const BareItem& o) const noexcept;
};

/// Ordered map semantics (RFC 9651 §3.1.2): keys unique; a repeated key overwrites the value
/// in place when parsing.
using Parameters = std::vector<std::pair<std::string, BareItem>>;

/// Lookup in Parameters (nullptr when absent).
const BareItem* find_param(const Parameters& p, std::string_view key) noexcept;
/// Insert or overwrite (keeps the first position).
void set_param(Parameters& p, std::string_view key, BareItem v);

struct Item {
  BareItem bare;
  Parameters params;
  bool operator==(const Item& o) const noexcept { return bare == o.bare && params == o.params; }
};

struct InnerList {
  std::vector<Item> items;
  Parameters params;
  bool operator==(const InnerList& o) const noexcept { return items == o.items && params == o.params; }
};

/// A List or Dictionary member: an Item or an Inner List.
struct Member {
  bool is_inner_list = false;
  Item item;
  InnerList inner;
  static Member of(Item it) { Member m; m.item = std::move(it); return m; }
  static Member of(InnerList il) { Member m; m.is_inner_list = true; m.inner = std::move(il); return m; }
  bool operator==(const Member& o) const noexcept {
    return is_inner_list == o.is_inner_list && (is_inner_list ? inner == o.inner : item == o.item);
  }
};

using List = std::vector<Member>;
using Dictionary = std::vector<std::pair<std::string, Member>>;

const Member* find_member(const Dictionary& d, std::string_view key) noexcept;
void set_member(Dictionary& d, std::string_view key, Member m);

/// Combine several field lines of one field (RFC 9110 §5.3, RFC 9651 §4.2): joined by ", ".
std::string combine_field_lines(std::span<const std::string> lines);

/// Parser limits. Parsing is linear in the input (duplicate keys are found through a hash
/// index), and every dimension is bounded: exceeding a limit is Errc::policy naming it. The
/// defaults are RFC 9651 §3's minimums a parser must support (1024 members, 256 inner-list
/// items, 256 parameters) and 128 KiB of field value. Nesting is bounded by the grammar itself
/// (an Inner List holds Items only; `((` is a parse error). `unlimited()` is for benchmarks.
struct Limits {
  std::size_t max_field_bytes = 128 * 1024;  ///< the field value (all lines combined)
  std::size_t max_members = 1024;            ///< List / Dictionary members
  std::size_t max_inner_items = 256;         ///< Items of one Inner List
  std::size_t max_params = 256;              ///< Parameters of one Item / Inner List
  static Limits unlimited() noexcept {
    constexpr std::size_t n = static_cast<std::size_t>(-1);
    return Limits{n, n, n, n};
  }
};

// ---- parsing (RFC 9651 §4.2). Malformed input is Errc::invalid_encoding with the reason; a
// limit exceeded is Errc::policy. Repeated Dictionary / Parameter keys: the last value wins and
// keeps the first key's position (§4.2.2, §4.2.3.2). ----
Result<Item> parse_item(std::string_view field_value, const Limits& limits = {});
Result<List> parse_list(std::string_view field_value, const Limits& limits = {});
Result<Dictionary> parse_dictionary(std::string_view field_value, const Limits& limits = {});
/// Parses a single Inner List such as `("@authority");created=1` (used by RFC 9421).
Result<InnerList> parse_inner_list(std::string_view text, const Limits& limits = {});

// ---- serialization (RFC 9651 §4.1). Failures (out of range, bad key/token/string, a key
// repeated in one Dictionary or Parameters ...) are Errc::invalid_argument with the reason. ----
Result<std::string> serialize_bare_item(const BareItem& b);
Result<std::string> serialize_params(const Parameters& p);
Result<std::string> serialize_item(const Item& it);
Result<std::string> serialize_inner_list(const InnerList& il);
Result<std::string> serialize_member(const Member& m);
Result<std::string> serialize_list(const List& l);
Result<std::string> serialize_dictionary(const Dictionary& d);
/// The same serializations appended to `out` (one string for a whole signature base); on
/// failure `out` holds a partial result to discard.
Status serialize_bare_item_to(std::string& out, const BareItem& b);
Status serialize_params_to(std::string& out, const Parameters& p);
Status serialize_item_to(std::string& out, const Item& it);
Status serialize_inner_list_to(std::string& out, const InnerList& il);
Status serialize_member_to(std::string& out, const Member& m);

bool is_valid_key(std::string_view k) noexcept;
bool is_valid_token(std::string_view t) noexcept;

// ---- the JSON form of the httpwg structured-field-tests suite ----
// item: [bare, params]; list: [member...]; dictionary: [[key, member]...]; params: [[key, bare]...];
// inner list: [[item...], params]; token/binary(base32)/date/displaystring as {"__type":..,"value":..}.
enum class FieldType { item, list, dictionary };
Result<FieldType> parse_field_type(std::string_view name);

/// A parsed field of any of the three top-level types.
struct Field {
  FieldType type = FieldType::item;
  Item item;
  List list;
  Dictionary dict;
};
Result<Field> parse_field(FieldType t, std::string_view field_value, const Limits& limits = {});
Result<std::string> serialize_field(const Field& f);
std::string to_test_json(const Field& f);
Result<Field> from_test_json(FieldType t, std::string_view json);

/// RFC 4648 §6 base32 (padded, upper case), used by the JSON test form. Decoding is strict:
/// upper or lower case, padding optional but only at the end and only in the lengths §6 allows,
/// and the unused bits of the last character must be zero (§3.5: canonical encoding).
std::string base32_encode(byte_span b);
Result<bytes> base32_decode(std::string_view s);

}  // namespace pqsig::sf
