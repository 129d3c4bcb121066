// The library's one strict JSON reader (src/jose/json_strict.hpp) for any JSON type, and the user
// input that now goes through it (issue 20 #1): workload and prediction files, so duplicate
// members, deep nesting and invalid UTF-8 are typed errors (a workload's duplicate member was
// silently "last wins" before).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "jose/json_strict.hpp"
#include "pqsig/price.hpp"

using namespace pqsig;
using namespace pqsig::price;
namespace jd = pqsig::jose::detail;

TEST(JsonStrict, Utf8IsCheckedByRfc3629) {
  EXPECT_EQ(jd::first_invalid_utf8(""), std::string_view::npos);
  EXPECT_EQ(jd::first_invalid_utf8("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf"), std::string_view::npos);
  EXPECT_EQ(jd::first_invalid_utf8("ab\x80"), 2u);          // a lone continuation byte
  EXPECT_EQ(jd::first_invalid_utf8("\xc1\xbf"), 0u);        // overlong (2 bytes)
  EXPECT_EQ(jd::first_invalid_utf8("x\xe0\x9f\xbf"), 1u);  // overlong (3 bytes)
  EXPECT_EQ(jd::first_invalid_utf8("\xf0\x8f\xbf\xbf"), 0u);  // overlong (4 bytes)
  EXPECT_EQ(jd::first_invalid_utf8("\xed\xbf\xbf"), 0u);   // surrogate
  EXPECT_EQ(jd::first_invalid_utf8("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(jd::first_invalid_utf8("\xf5\x80\x80\x80"), 0u);
  EXPECT_EQ(jd::first_invalid_utf8("ok\xe2\x82"), 2u);      // cut at the end
  EXPECT_EQ(jd::first_invalid_utf8("\xe2\x28\xa1"), 0u);   // bad second byte
  EXPECT_EQ(jd::first_invalid_utf8("\xe2\x82\x28"), 0u);   // bad third byte
}

TEST(JsonStrict, AnyJsonTypeUnderTheSameLimits) {
  auto ok = jd::parse_strict<nlohmann::json>(R"({"a":[1,{"b":"c"}]})", "t");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ((*ok)["a"][1]["b"], "c");
  const std::string at32 = std::string(32, '[') + std::string(32, ']');
  EXPECT_TRUE(jd::parse_strict<nlohmann::json>(at32, "t").ok());
  std::string objs32;
  for (int k = 0; k < 32; ++k) objs32 += "{\"k\":";
  objs32 += "1" + std::string(32, '}');
  EXPECT_TRUE(jd::parse_strict<nlohmann::json>(objs32, "t").ok()) << "32 levels of objects, keys included";
  EXPECT_FALSE(jd::parse_strict<nlohmann::json>("{\"k\":" + objs32 + "}", "t").ok());
  EXPECT_FALSE(jd::parse_strict<nlohmann::json>("[" + at32 + "]", "t").ok());
  EXPECT_FALSE(jd::parse_strict<nlohmann::json>(at32, "t", 8).ok()) << "a caller may tighten the depth";
  EXPECT_TRUE(jd::parse_strict<nlohmann::json>(at32, "t", 1000).ok()) << "but never loosen it";
  EXPECT_FALSE(jd::parse_strict<nlohmann::json>("[" + at32 + "]", "t", 1000).ok());
  auto bad = jd::parse_strict<nlohmann::json>("{\"k\": tru}", "thing");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "thing: not valid JSON (at byte 9)");
  EXPECT_FALSE(jd::parse_strict<nlohmann::json>("1 2", "t").ok());
  EXPECT_FALSE(jd::parse_strict<nlohmann::json>("", "t").ok());
  // The default type is the wiping one, unchanged.
  auto w = jd::parse_strict(R"({"d":"secret"})", "JWK");
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE((*w).contains("d"));
}

TEST(PriceStrictJson, WorkloadRefusesDuplicatesDepthAndInvalidUtf8) {
  auto dup = workload_from_json(R"({"cpu_budget_ms": 5, "cpu_budget_ms": 6})");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code, Errc::invalid_encoding);
  EXPECT_NE(dup.error().message.find("duplicate"), std::string::npos) << dup.error().message;
  auto deep = workload_from_json("{\"surfaces\":" + std::string(100000, '[') + std::string(100000, ']') + "}");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.error().message.find("nested deeper"), std::string::npos) << deep.error().message;
  auto utf = workload_from_json("{\"surfaces\":[{\"name\":\"\xc3\x28\"}]}");
  ASSERT_FALSE(utf.ok());
  EXPECT_NE(utf.error().message.find("invalid UTF-8 at byte 22"), std::string::npos) << utf.error().message;
  EXPECT_TRUE(workload_from_json(R"({"cpu_budget_ms": 5})").ok());
}

TEST(PriceStrictJson, PredictionRefusesInvalidUtf8) {
  auto p = prediction_from_json("{\"note\":\"\xff\",\"suites\":{}}", default_workload());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("invalid UTF-8 at byte 9"), std::string::npos) << p.error().message;
}
