// Structured fields (RFC 9651): the first byte picks Item / List / Dictionary (and tight or default
// limits), the rest is the field value. Property: a parsed value serializes, the serialization
// parses back to the same value, and serializing again gives the same text (canonical form).
#include "harness.hpp"
#include "pqsig/sf.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(sf) {
  if (size == 0) return 0;
  const auto type = static_cast<sf::FieldType>(data[0] % 3);
  sf::Limits lim;
  if (data[0] & 0x80) lim = sf::Limits{512, 8, 4, 4};
  const auto text = fuzz::as_text(data + 1, size - 1);
  auto f = sf::parse_field(type, text, lim);
  if (!f) {
    fuzz::check(f.error().code == Errc::invalid_encoding || f.error().code == Errc::policy, "unexpected error code");
    return 0;
  }
  auto s = sf::serialize_field(f.value());
  fuzz::check(s.ok(), "a parsed field does not serialize: " + (s ? std::string() : s.error().message));
  auto again = sf::parse_field(type, s.value(), sf::Limits::unlimited());
  fuzz::check(again.ok(), "the serialization does not parse: " + s.value());
  auto s2 = sf::serialize_field(again.value());
  fuzz::check(s2.ok() && s2.value() == s.value(), "serialization is not canonical: " + s.value());
  fuzz::check(again->item == f->item && again->list == f->list && again->dict == f->dict,
              "parse(serialize(x)) != x for " + s.value());
  (void)sf::to_test_json(f.value());
  return 0;
}
