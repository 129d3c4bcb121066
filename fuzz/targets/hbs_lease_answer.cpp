// The PostgreSQL lease store's answers (src/client/hbs_fleet_answer.hpp), parsed without a server:
// byte 0 picks the parser; for the result sets, byte 1 = rows, byte 2 = fields, then the values
// row-major, each ended by a NUL (as libpq hands them out), a lone 0xFF being SQL NULL (missing
// values are NULL too). Byte 0 = 3: the rest is one text for the compare-and-set row count, the
// server's message line and SQLSTATE.
// Properties: the parser reads only inside the answer's shape; an accepted row has the one shape
// asked for, canonical numbers (the text is exactly the number's decimal form) within a bigint,
// 0 < index_limit, next_index <= index_limit; a refusal is Errc::state_rejected; server text
// comes out as one bounded printable line.
#include "client/hbs_fleet_answer.hpp"
#include "harness.hpp"

using namespace pqsig;
namespace cd = pqsig::client::detail;

namespace {

class HbsLeaseFuzzAnswer final : public cd::StoreAnswer {
 public:
  HbsLeaseFuzzAnswer(std::size_t rows, std::size_t fields, std::vector<std::optional<std::string>> v)
      : rows_(rows), fields_(fields), values_(std::move(v)) {}
  std::size_t rows() const override { return rows_; }
  std::size_t fields() const override { return fields_; }
  std::optional<std::string_view> value(std::size_t row, std::size_t field) const override {
    fuzz::check(row < rows_ && field < fields_, "the parser read outside the answer's shape");
    const std::size_t i = row * fields_ + field;
    if (i >= values_.size() || !values_[i]) return std::nullopt;
    return std::string_view(*values_[i]);
  }

 private:
  std::size_t rows_, fields_;
  std::vector<std::optional<std::string>> values_;
};

void hbs_lease_check_refusal(const Error& e) {
  fuzz::check(e.code == Errc::state_rejected, "a refused answer is not state_rejected: " + e.what());
  fuzz::check(e.message.rfind("lease store answer refused: ", 0) == 0, "a refusal does not say so: " + e.message);
}

void hbs_lease_check_number(const HbsLeaseFuzzAnswer& a, std::size_t field, std::uint64_t v) {
  const auto t = a.value(0, field);
  fuzz::check(t && *t == std::to_string(v), "an accepted number is not the canonical text of its value");
  fuzz::check(v <= cd::kStoreMaxBigint, "an accepted number is beyond a bigint");
}

}  // namespace

PQSIG_FUZZ_TARGET(hbs_lease_answer) {
  if (size == 0) return 0;
  const unsigned mode = data[0] % 4;
  if (mode == 3) {
    const std::string_view t = fuzz::as_text(data + 1, size - 1);
    auto cas = cd::parse_cas_rows(t);
    if (cas) fuzz::check(t == (*cas ? "1" : "0"), "a compare-and-set count other than 0/1 accepted");
    else hbs_lease_check_refusal(cas.error());
    const std::string line = cd::store_text_line(t);
    fuzz::check(line.size() <= cd::kStoreTextMax, "server text longer than its limit");
    fuzz::check(line.empty() || line.back() != ' ', "server text keeps trailing spaces");
    for (const char c : line) fuzz::check(c >= 0x20 && c < 0x7f, "server text keeps a control or non-ASCII byte");
    const std::string_view st = cd::store_sqlstate(t);
    fuzz::check(st.empty() || (st.size() == 5 && st == t), "a SQLSTATE accepted that is not the five characters given");
    auto n = cd::parse_store_number(t, "fuzz");
    if (n) fuzz::check(t == std::to_string(*n) && *n <= cd::kStoreMaxBigint, "a non-canonical number accepted");
    else hbs_lease_check_refusal(n.error());
    return 0;
  }
  if (size < 3) return 0;
  const std::size_t rows = data[1], fields = data[2];
  std::vector<std::optional<std::string>> values;
  std::string cur;
  for (std::size_t i = 3; i < size && values.size() < rows * fields; ++i) {
    if (data[i] != 0) {
      cur.push_back(static_cast<char>(data[i]));
      continue;
    }
    if (cur == "\xff") values.emplace_back(std::nullopt);
    else values.emplace_back(cur);
    cur.clear();
  }
  const HbsLeaseFuzzAnswer a(rows, fields, std::move(values));
  if (mode == 2) {
    auto g = cd::parse_max_generation(a);
    if (!g) {
      hbs_lease_check_refusal(g.error());
      return 0;
    }
    fuzz::check(rows == 1 && fields == 1, "a generation accepted from another shape");
    if (*g) hbs_lease_check_number(a, 0, **g);
    else fuzz::check(!a.value(0, 0), "a value read as NULL");
    return 0;
  }
  const bool with_count = mode == 1;
  auto r = cd::parse_key_row(a, with_count);
  if (!r) {
    hbs_lease_check_refusal(r.error());
    return 0;
  }
  fuzz::check(fields == (with_count ? 4u : 3u) && rows <= 1, "a key row accepted from another shape");
  if (!*r) {
    fuzz::check(rows == 0, "a row read as 'not registered'");
    return 0;
  }
  const client::PgKeyRow& k = **r;
  hbs_lease_check_number(a, 0, k.next_index);
  hbs_lease_check_number(a, 1, k.limit);
  hbs_lease_check_number(a, 2, k.generation);
  if (with_count) hbs_lease_check_number(a, 3, k.leases);
  fuzz::check(k.limit > 0 && k.next_index <= k.limit, "an impossible counter accepted");
  fuzz::check(k.generation < cd::kStoreMaxBigint, "a generation that cannot advance accepted");
  return 0;
}
