// The lease store's answers, parsed strictly: see hbs_fleet_answer.hpp.
#include "hbs_fleet_answer.hpp"

#include <algorithm>

namespace pqsig::client::detail {

namespace {

Error store_answer_refused(std::string_view what) {
  return Error{Errc::state_rejected, "lease store answer refused: " + std::string(what)};
}

// The shape first: more than one row for a key, or other columns than asked, is not our query's
// answer. Nothing is read before this passes.
Status store_answer_shape(const StoreAnswer& a, std::size_t max_rows, std::size_t fields, std::string_view what) {
  if (a.rows() > max_rows)
    return store_answer_refused(std::string(what) + ": " + std::to_string(a.rows()) + " rows (at most " +
                                std::to_string(max_rows) + ")");
  if (a.fields() != fields)
    return store_answer_refused(std::string(what) + ": " + std::to_string(a.fields()) + " fields (not " +
                                std::to_string(fields) + ")");
  return {};
}

}  // namespace

std::optional<std::string_view> StoreAnswerTable::value(std::size_t row, std::size_t field) const {
  if (row >= rows_ || field >= fields_) return std::nullopt;
  const std::size_t i = row * fields_ + field;
  if (i >= values_.size() || !values_[i]) return std::nullopt;
  return std::string_view(*values_[i]);
}

Result<std::uint64_t> parse_store_number(std::optional<std::string_view> text, std::string_view field) {
  const std::string f(field);
  if (!text) return store_answer_refused(f + " is NULL");
  const std::string_view t = *text;
  if (t.empty()) return store_answer_refused(f + " is empty");
  if (t.size() > kStoreNumberMaxDigits)
    return store_answer_refused(f + " is " + std::to_string(t.size()) + " bytes (a bigint has at most " +
                                std::to_string(kStoreNumberMaxDigits) + " digits)");
  if (t[0] == '-') return store_answer_refused(f + " is negative");
  std::uint64_t v = 0;
  for (const char c : t) {
    if (c < '0' || c > '9') return store_answer_refused(f + " is not a decimal number");
    v = v * 10 + static_cast<std::uint64_t>(c - '0');  // 19 digits never wrap a u64
  }
  if (t.size() > 1 && t[0] == '0') return store_answer_refused(f + " has a leading zero (not PostgreSQL's form)");
  if (v > kStoreMaxBigint) return store_answer_refused(f + " is beyond a bigint");
  return v;
}

Result<std::optional<PgKeyRow>> parse_key_row(const StoreAnswer& a, bool with_lease_count) {
  if (auto s = store_answer_shape(a, 1, with_lease_count ? 4 : 3, "the key's row"); !s) return s.error();
  if (a.rows() == 0) return std::optional<PgKeyRow>{};
  PgKeyRow row;
  auto next = parse_store_number(a.value(0, 0), "next_index");
  if (!next) return next.error();
  auto limit = parse_store_number(a.value(0, 1), "index_limit");
  if (!limit) return limit.error();
  auto gen = parse_store_number(a.value(0, 2), "generation");
  if (!gen) return gen.error();
  row.next_index = *next;
  row.limit = *limit;
  row.generation = *gen;
  if (with_lease_count) {
    auto n = parse_store_number(a.value(0, 3), "the lease count");
    if (!n) return n.error();
    row.leases = *n;
  }
  if (row.limit == 0) return store_answer_refused("index_limit is 0");
  if (row.next_index > row.limit)
    return store_answer_refused("next_index " + std::to_string(row.next_index) + " is beyond the key's limit " +
                                std::to_string(row.limit));
  if (row.generation == kStoreMaxBigint) return store_answer_refused("generation cannot advance (at the bigint maximum)");
  return std::optional<PgKeyRow>{row};
}

Result<std::optional<std::uint64_t>> parse_max_generation(const StoreAnswer& a) {
  if (auto s = store_answer_shape(a, 1, 1, "the signer's last generation"); !s) return s.error();
  if (a.rows() != 1) return store_answer_refused("the signer's last generation: no row (an aggregate has one)");
  const auto v = a.value(0, 0);
  if (!v) return std::optional<std::uint64_t>{};
  auto g = parse_store_number(v, "a lease row's local_generation");
  if (!g) return g.error();
  return std::optional<std::uint64_t>{*g};
}

Result<bool> parse_cas_rows(std::string_view cmd_tuples) {
  if (cmd_tuples == "1") return true;
  if (cmd_tuples == "0") return false;
  return store_answer_refused("the compare-and-set updated '" + store_text_line(cmd_tuples.substr(0, 24)) +
                              "' rows (one key row: 0 or 1)");
}

std::string store_text_line(std::string_view text) {
  std::string s;
  s.reserve(std::min(text.size(), kStoreTextMax));
  for (const char c : text) {
    if (s.size() == kStoreTextMax) break;
    const auto u = static_cast<unsigned char>(c);
    s.push_back(u == '\n' || u == '\r' || u == '\t' ? ' ' : (u >= 0x20 && u < 0x7f ? c : '?'));
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string_view store_sqlstate(std::string_view code) {
  if (code.size() != 5) return {};
  for (const char c : code)
    if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) return {};
  return code;
}

}  // namespace pqsig::client::detail
