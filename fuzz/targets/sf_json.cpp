// The JSON test form of structured fields (`pqsig sf serialize`): never throws; what it builds
// either serializes to a value that parses back, or is refused with a typed error.
#include "harness.hpp"
#include "pqsig/sf.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(sf_json) {
  if (size == 0) return 0;
  const auto type = static_cast<sf::FieldType>(data[0] % 3);
  auto f = sf::from_test_json(type, fuzz::as_text(data + 1, size - 1));
  if (!f) return 0;
  (void)sf::to_test_json(f.value());
  auto s = sf::serialize_field(f.value());
  if (!s) return 0;
  auto back = sf::parse_field(type, s.value(), sf::Limits::unlimited());
  fuzz::check(back.ok(), "serialized JSON form does not parse: " + s.value());
  // What serializes stands for the same value (a repeated key used to serialize, then parse
  // back as one member).
  fuzz::check(sf::to_test_json(back.value()) == sf::to_test_json(f.value()), "serialization changed the value: " + s.value());
  return 0;
}
