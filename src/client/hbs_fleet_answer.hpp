// The lease store's answers, parsed (src/client/hbs_fleet.cpp): every value PostgreSQL returns —
// the key's row, a signer's last recorded generation, the compare-and-set's row count, the server's
// error text and SQLSTATE — goes through one strict function here before it is believed. Pure
// functions over the text values libpq hands out (no libpq, no server), so the fuzz harness
// fuzz/targets/hbs_lease_answer.cpp and the unit tests run them directly.
// Limits: an answer has at most one row (and exactly the columns asked for); a number is 1..19
// ASCII digits, canonical (no sign, no leading zero, no space), at most 2^63-1 (a bigint);
// server text is cut to one printable-ASCII line of kStoreTextMax bytes. Anything else is
// Errc::state_rejected ("lease store answer refused: ..."), naming the field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/hbs_fleet.hpp"

namespace pqsig::client::detail {

inline constexpr std::uint64_t kStoreMaxBigint = 0x7fffffffffffffffULL;
inline constexpr std::size_t kStoreNumberMaxDigits = 19;  // 9223372036854775807
inline constexpr std::size_t kStoreTextMax = 300;          // server messages kept in errors

/// One result set as libpq returns it in text format. Read through this interface so that a
/// hostile answer's shape is checked before any value is touched.
class StoreAnswer {
 public:
  virtual ~StoreAnswer() = default;
  virtual std::size_t rows() const = 0;
  virtual std::size_t fields() const = 0;
  /// The value at (row, field) — only called inside rows() x fields(); nullopt is SQL NULL.
  virtual std::optional<std::string_view> value(std::size_t row, std::size_t field) const = 0;
};

/// An answer held in memory (tests, the fuzz harness): row-major, missing values are NULL.
class StoreAnswerTable final : public StoreAnswer {
 public:
  StoreAnswerTable(std::size_t rows, std::size_t fields, std::vector<std::optional<std::string>> values)
      : rows_(rows), fields_(fields), values_(std::move(values)) {}
  std::size_t rows() const override { return rows_; }
  std::size_t fields() const override { return fields_; }
  std::optional<std::string_view> value(std::size_t row, std::size_t field) const override;

 private:
  std::size_t rows_, fields_;
  std::vector<std::optional<std::string>> values_;
};

/// A bigint column's text as a non-negative number (see the limits above).
Result<std::uint64_t> parse_store_number(std::optional<std::string_view> text, std::string_view field);

/// The key's row: (next_index, index_limit, generation[, lease count]) — `with_lease_count` selects
/// the four-column form of key_status(). nullopt when the answer has no row (key not registered).
/// Checked: one row at most, exactly 3 (4) fields, numbers, 0 < index_limit, next_index <= index_limit,
/// generation < 2^63-1 (the compare-and-set adds one).
Result<std::optional<PgKeyRow>> parse_key_row(const StoreAnswer& a, bool with_lease_count);

/// `SELECT max(local_generation) ...`: exactly one row and one field; NULL (no lease yet) is nullopt.
Result<std::optional<std::uint64_t>> parse_max_generation(const StoreAnswer& a);

/// PQcmdTuples of the compare-and-set UPDATE: "1" (won) is true, "0" (lost: retry) false,
/// anything else (more rows, junk) refused.
Result<bool> parse_cas_rows(std::string_view cmd_tuples);

/// Server-supplied text (error messages) for our own error messages: one line, printable ASCII
/// (anything else becomes '?'), trailing spaces dropped, at most kStoreTextMax bytes.
std::string store_text_line(std::string_view text);

/// A SQLSTATE as given by the server: five characters [0-9A-Z], else "" (treated as unknown).
std::string_view store_sqlstate(std::string_view code);

}  // namespace pqsig::client::detail
