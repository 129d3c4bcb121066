// RFC 9651 parser/serializer tests: the RFC's examples and rules (the httpwg
// structured-field-tests suite is not published on npm; these follow its cases by category).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pqsig/sf.hpp"

using namespace pqsig;
using namespace pqsig::sf;

namespace {
// Parse as type, return canonical serialization or "FAIL".
std::string canon(FieldType t, std::vector<std::string> lines) {
  auto f = parse_field(t, combine_field_lines(lines));
  if (!f) return "FAIL";
  auto s = serialize_field(f.value());
  if (!s) return "SERFAIL";
  return s.value();
}
std::string item(std::string v) { return canon(FieldType::item, {std::move(v)}); }
std::string list(std::string v) { return canon(FieldType::list, {std::move(v)}); }
std::string dict(std::string v) { return canon(FieldType::dictionary, {std::move(v)}); }
std::string js(FieldType t, std::string v) {
  auto f = parse_field(t, v);
  if (!f) return "FAIL";
  return to_test_json(f.value());
}
}  // namespace

TEST(SfInteger, Valid) {
  EXPECT_EQ(item("42"), "42");
  EXPECT_EQ(item("-42"), "-42");
  EXPECT_EQ(item("0"), "0");
  EXPECT_EQ(item("00"), "0");
  EXPECT_EQ(item("-0"), "0");
  EXPECT_EQ(item("999999999999999"), "999999999999999");
  EXPECT_EQ(item("-999999999999999"), "-999999999999999");
  EXPECT_EQ(item("  42  "), "42");  // leading/trailing SP discarded
}

TEST(SfInteger, Invalid) {
  EXPECT_EQ(item("1000000000000000"), "FAIL");  // 16 digits
  EXPECT_EQ(item("-1000000000000000"), "FAIL");
  EXPECT_EQ(item("-"), "FAIL");
  EXPECT_EQ(item("- 42"), "FAIL");
  EXPECT_EQ(item("42 43"), "FAIL");
  EXPECT_EQ(item("\t42"), "FAIL");  // only SP is discarded at the top level
  EXPECT_EQ(item("4,2"), "FAIL");
  EXPECT_EQ(item(""), "FAIL");
}

TEST(SfDecimal, ValidAndCanonical) {
  EXPECT_EQ(item("1.5"), "1.5");
  EXPECT_EQ(item("-1.5"), "-1.5");
  EXPECT_EQ(item("1.50"), "1.5");
  EXPECT_EQ(item("1.000"), "1.0");
  EXPECT_EQ(item("0.001"), "0.001");
  EXPECT_EQ(item("123456789012.123"), "123456789012.123");
  EXPECT_EQ(js(FieldType::item, "4.5"), "[4.5,[]]");
}

TEST(SfDecimal, Invalid) {
  EXPECT_EQ(item("1.5555"), "FAIL");          // > 3 fractional digits
  EXPECT_EQ(item("1234567890123.0"), "FAIL");  // > 12 integer digits
  EXPECT_EQ(item("1."), "FAIL");
  EXPECT_EQ(item("1..2"), "FAIL");
  EXPECT_EQ(item(".5"), "FAIL");
}

TEST(SfDecimal, SerializeRoundsTiesToEven) {
  auto f = from_test_json(FieldType::item, "[1.0005, []]");
  ASSERT_TRUE(f.ok());
  // 1.0005 is not exact in binary; check an exact tie instead.
  auto g = from_test_json(FieldType::item, "[0.0625, []]");  // exact in binary: 62.5 thousandths
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(serialize_field(g.value()).value(), "0.062");
  auto h = from_test_json(FieldType::item, "[1e13, []]");
  EXPECT_FALSE(h.ok());
}

TEST(SfString, Valid) {
  EXPECT_EQ(item("\"foo bar\""), "\"foo bar\"");
  EXPECT_EQ(item("\"\""), "\"\"");
  EXPECT_EQ(item("\"a\\\"b\\\\c\""), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(js(FieldType::item, "\"a\\\"b\""), "[\"a\\\"b\",[]]");
}

TEST(SfString, Invalid) {
  EXPECT_EQ(item("\"foo"), "FAIL");
  EXPECT_EQ(item("\"foo\\x\""), "FAIL");  // only \" and \\ may be escaped
  EXPECT_EQ(item("\"foo\\"), "FAIL");
  EXPECT_EQ(item("\"\xc3\xa9\""), "FAIL");  // non-ASCII
  EXPECT_EQ(item(std::string("\"a\tb\"")), "FAIL");
  Field f;
  f.item.bare = BareItem::string("caf\xc3\xa9");
  EXPECT_FALSE(serialize_field(f).ok());
}

TEST(SfToken, Valid) {
  EXPECT_EQ(item("foo"), "foo");
  EXPECT_EQ(item("*foo"), "*foo");
  EXPECT_EQ(item("foo/bar:baz"), "foo/bar:baz");
  EXPECT_EQ(item("Foo123!#$%&'*+-.^_`|~"), "Foo123!#$%&'*+-.^_`|~");
  EXPECT_EQ(js(FieldType::item, "a_b"), "[{\"__type\":\"token\",\"value\":\"a_b\"},[]]");
  Field f;
  f.item.bare = BareItem::token("1abc");
  EXPECT_FALSE(serialize_field(f).ok());
}

TEST(SfByteSequence, ValidAndLenient) {
  EXPECT_EQ(item(":aGVsbG8=:"), ":aGVsbG8=:");
  EXPECT_EQ(item(":aGVsbG8:"), ":aGVsbG8=:");  // missing padding tolerated
  EXPECT_EQ(item("::"), "::");
  EXPECT_EQ(js(FieldType::item, ":aGVsbG8=:"), "[{\"__type\":\"binary\",\"value\":\"NBSWY3DP\"},[]]");
}

TEST(SfByteSequence, Invalid) {
  EXPECT_EQ(item(":aGVsbG8=="), "FAIL");   // not terminated
  EXPECT_EQ(item(":aGVs*bG8=:"), "FAIL");  // bad character
  EXPECT_EQ(item(":aG=VsbG8:"), "FAIL");   // '=' inside
  EXPECT_EQ(item(":a:"), "FAIL");          // impossible length
}

TEST(SfBoolean, All) {
  EXPECT_EQ(item("?1"), "?1");
  EXPECT_EQ(item("?0"), "?0");
  EXPECT_EQ(item("?2"), "FAIL");
  EXPECT_EQ(item("?"), "FAIL");
  EXPECT_EQ(item("?true"), "FAIL");
  EXPECT_EQ(js(FieldType::item, "?1;a"), "[true,[[\"a\",true]]]");
}

TEST(SfDate, All) {
  EXPECT_EQ(item("@1659578233"), "@1659578233");
  EXPECT_EQ(item("@-1659578233"), "@-1659578233");
  EXPECT_EQ(item("@1659578233.12"), "FAIL");
  EXPECT_EQ(item("@"), "FAIL");
  EXPECT_EQ(item("@ 1"), "FAIL");
  EXPECT_EQ(js(FieldType::item, "@1659578233"), "[{\"__type\":\"date\",\"value\":1659578233},[]]");
}

TEST(SfDisplayString, All) {
  // RFC 9651 §3.3.8 example
  EXPECT_EQ(item("%\"This is intended for display to %c3%bcsers.\""), "%\"This is intended for display to %c3%bcsers.\"");
  EXPECT_EQ(js(FieldType::item, "%\"f%c3%bc%c3%bc\""),
            "[{\"__type\":\"displaystring\",\"value\":\"f\xc3\xbc\xc3\xbc\"},[]]");
  EXPECT_EQ(item("%\"%25%22\""), "%\"%25%22\"");
  EXPECT_EQ(item("%\"%C3%BC\""), "FAIL");  // uppercase hex
  EXPECT_EQ(item("%\"%c3\""), "FAIL");     // invalid UTF-8
  EXPECT_EQ(item("%\"%c0%80\""), "FAIL");  // overlong
  EXPECT_EQ(item("%\"abc"), "FAIL");
  EXPECT_EQ(item("%abc"), "FAIL");
  EXPECT_EQ(item("%\"%g0\""), "FAIL");
  Field f;
  f.item.bare = BareItem::display_string("a\"%\xc3\xbc");
  EXPECT_EQ(serialize_field(f).value(), "%\"a%22%25%c3%bc\"");
}

TEST(SfParams, Basic) {
  EXPECT_EQ(item("abc;a=1;b=2;cde_456"), "abc;a=1;b=2;cde_456");
  EXPECT_EQ(item("1; a=1"), "1;a=1");  // SP after ';' allowed
  EXPECT_EQ(item("1 ;a=1"), "FAIL");
  EXPECT_EQ(item("1;a=1;a=2"), "1;a=2");  // duplicate key overwrites in place
  EXPECT_EQ(item("1;a=1;b;a=3"), "1;a=3;b");
  EXPECT_EQ(item("1;A=1"), "FAIL");  // uppercase key
  EXPECT_EQ(item("1;a=?1"), "1;a");
  EXPECT_EQ(item("1;a=(1)"), "FAIL");  // parameter values are bare items
  Field f;
  f.item.bare = BareItem::integer(1);
  f.item.params.emplace_back("Bad", BareItem::integer(1));
  EXPECT_FALSE(serialize_field(f).ok());
}

TEST(SfList, Basic) {
  EXPECT_EQ(list("sugar, tea, rum"), "sugar, tea, rum");
  EXPECT_EQ(list("sugar,tea,   rum"), "sugar, tea, rum");
  EXPECT_EQ(list("sugar,\ttea"), "sugar, tea");  // OWS around commas
  EXPECT_EQ(list(""), "");
  EXPECT_EQ(list("   "), "");
  EXPECT_EQ(list("a,"), "FAIL");
  EXPECT_EQ(list(",a"), "FAIL");
  EXPECT_EQ(list("a,,b"), "FAIL");
  EXPECT_EQ(list("a b"), "FAIL");
  // RFC 9651 §3.1.1 inner lists
  EXPECT_EQ(list("(\"foo\" \"bar\"), (\"baz\"), (\"bat\" \"one\"), ()"),
            "(\"foo\" \"bar\"), (\"baz\"), (\"bat\" \"one\"), ()");
  EXPECT_EQ(list("(\"foo\"; a=1;b=2);lvl=5, (\"bar\" \"baz\");lvl=1"),
            "(\"foo\";a=1;b=2);lvl=5, (\"bar\" \"baz\");lvl=1");
  EXPECT_EQ(list("(  1   2  )"), "(1 2)");
  EXPECT_EQ(list("(1,2)"), "FAIL");
  EXPECT_EQ(list("(1 2"), "FAIL");
  EXPECT_EQ(list("(1)(2)"), "FAIL");
  EXPECT_EQ(list("((1))"), "FAIL");
  EXPECT_EQ(js(FieldType::list, "(1 2);a, 3"), "[[[[1,[]],[2,[]]],[[\"a\",true]]],[3,[]]]");
}

TEST(SfList, MultipleFieldLines) {
  EXPECT_EQ(canon(FieldType::list, {"a, b", "c"}), "a, b, c");
  EXPECT_EQ(canon(FieldType::item, {"1", "2"}), "FAIL");
  EXPECT_EQ(canon(FieldType::dictionary, {"a=1", "b=2, a=3"}), "a=3, b=2");
}

TEST(SfDictionary, Basic) {
  // RFC 9651 §3.2 examples
  EXPECT_EQ(dict("en=\"Applepie\", da=:w4ZibGV0w6ZydGU=:"), "en=\"Applepie\", da=:w4ZibGV0w6ZydGU=:");
  EXPECT_EQ(dict("a=?0, b, c; foo=bar"), "a=?0, b, c;foo=bar");
  EXPECT_EQ(dict("rating=1.5, feelings=(joy sadness)"), "rating=1.5, feelings=(joy sadness)");
  EXPECT_EQ(dict("a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid"), "a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid");
  EXPECT_EQ(dict("a=1, b=2, a=3"), "a=3, b=2");
  EXPECT_EQ(dict("a=?1"), "a");
  EXPECT_EQ(dict("a=?1;x=1"), "a;x=1");
  EXPECT_EQ(dict(""), "");
  EXPECT_EQ(dict("A=1"), "FAIL");
  EXPECT_EQ(dict("a=1,"), "FAIL");
  EXPECT_EQ(dict("a=1 b=2"), "FAIL");
  EXPECT_EQ(dict("a =1"), "FAIL");
  EXPECT_EQ(dict("a= 1"), "FAIL");
  EXPECT_EQ(dict("1a=1"), "FAIL");
  EXPECT_EQ(js(FieldType::dictionary, "a=1, b;x"),
            "[[\"a\",[1,[]]],[\"b\",[true,[[\"x\",true]]]]]");
}

TEST(SfJson, RoundTrip) {
  const char* cases[] = {
      "[[\"a\",[{\"__type\":\"token\",\"value\":\"x\"},[[\"p\",{\"__type\":\"binary\",\"value\":\"NBSWY3DP\"}]]]],"
      "[\"b\",[[[1,[]],[\"s\",[]]],[[\"q\",{\"__type\":\"date\",\"value\":5}]]]]]",
  };
  for (auto c : cases) {
    auto f = from_test_json(FieldType::dictionary, c);
    ASSERT_TRUE(f.ok()) << f.error().what();
    EXPECT_EQ(to_test_json(f.value()), c);
    EXPECT_EQ(serialize_field(f.value()).value(), "a=x;p=:aGVsbG8=:, b=(1 \"s\");q=@5");
  }
  auto bad = from_test_json(FieldType::item, "[1000000000000000, []]");
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(serialize_field(bad.value()).ok());
  auto badkey = from_test_json(FieldType::dictionary, "[[\"A\",[1,[]]]]");
  ASSERT_TRUE(badkey.ok());
  EXPECT_FALSE(serialize_field(badkey.value()).ok());
}

TEST(SfBase32, Rfc4648Vectors) {
  EXPECT_EQ(base32_encode(as_bytes("")), "");
  EXPECT_EQ(base32_encode(as_bytes("f")), "MY======");
  EXPECT_EQ(base32_encode(as_bytes("fo")), "MZXQ====");
  EXPECT_EQ(base32_encode(as_bytes("foo")), "MZXW6===");
  EXPECT_EQ(base32_encode(as_bytes("foob")), "MZXW6YQ=");
  EXPECT_EQ(base32_encode(as_bytes("fooba")), "MZXW6YTB");
  EXPECT_EQ(base32_encode(as_bytes("foobar")), "MZXW6YTBOI======");
  auto d = base32_decode("MZXW6YTBOI======");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(std::string(d->begin(), d->end()), "foobar");
}
