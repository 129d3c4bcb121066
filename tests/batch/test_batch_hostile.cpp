// `pqsig batch` against a hostile line (issue 20, item 2): a deeply nested "id" is neither copied
// nor serialized (it crashed the session: the id was copied and dumped recursively), every line
// goes through the library's strict JSON reader (depth, duplicate names, UTF-8, size) with a typed
// error that never quotes the input, only a number or a short string is echoed as "id", and the
// cap holds while reading (a 100 MB line under a 64 MiB data limit).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_util.hpp"
#include "ledger/batch.hpp"

using json = nlohmann::json;
namespace batch = pqsig::batch;

namespace {

const std::string kKeygenNoId = R"({"op":"keygen","alg":"ml-dsa-44","seed":")" + std::string(64, '0') + "\"";

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

json answer(const std::string& line) {
  std::string text;
  EXPECT_NO_THROW(text = batch::answer_line(line));
  auto j = json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << text.substr(0, 200);
  return j;
}

std::vector<json> session_replies(const std::string& in) {
  std::istringstream is(in);
  std::ostringstream os;
  (void)batch::run_session(is, os);
  std::vector<json> r;
  std::istringstream lines(os.str());
  std::string l;
  while (std::getline(lines, l)) r.push_back(json::parse(l));
  return r;
}

}  // namespace

// Before the fix: SIGSEGV (the 200,000-deep id was parsed, then copied into the reply and dumped,
// both recursive per level).
TEST(BatchHostile, DeeplyNestedIdIsRefusedNotEchoed) {
  for (std::size_t depth : {std::size_t{33}, std::size_t{1000}, std::size_t{200000}}) {
    const json r = answer(kKeygenNoId + ",\"id\":" + nested(depth) + "}");
    ASSERT_TRUE(r.contains("error")) << depth;
    EXPECT_FALSE(r.contains("id")) << depth;
    EXPECT_FALSE(r.contains("pk")) << depth;
    EXPECT_NE(r["error"].get<std::string>().find("nested deeper than 32"), std::string::npos) << r["error"];
  }
  // Deep nesting anywhere else in the line is the same typed error.
  const json r = answer(R"({"op":"keygen","alg":"ml-dsa-44","x":)" + nested(100000) + ",\"id\":5}");
  EXPECT_NE(r["error"].get<std::string>().find("nested deeper"), std::string::npos) << r;
  EXPECT_FALSE(r.contains("id")) << "an id after the point of refusal was never read";
}

TEST(BatchHostile, OnlyANumberOrAShortStringIsEchoedAsId) {
  const std::string ok_id(batch::kMaxIdBytes, 'i');
  for (const std::string& id : {std::string("7"), std::string("-1.5e3"), "\"" + ok_id + "\"", std::string("\"\"")}) {
    const json r = answer(kKeygenNoId + ",\"id\":" + id + "}");
    EXPECT_TRUE(r.contains("pk")) << id;
    EXPECT_EQ(r["id"], json::parse(id)) << id;
  }
  // null: as if absent (the request runs, nothing echoed).
  const json n = answer(kKeygenNoId + ",\"id\":null}");
  EXPECT_TRUE(n.contains("pk"));
  EXPECT_FALSE(n.contains("id"));
  // Anything else: a typed error, nothing echoed, the request does not run.
  for (const std::string& id : {std::string("{\"a\":1}"), std::string("[1]"), std::string("true"),
                                "\"" + ok_id + "x\"", std::string("[[[[]]]]")}) {
    const json r = answer(kKeygenNoId + ",\"id\":" + id + "}");
    ASSERT_TRUE(r.contains("error")) << id;
    EXPECT_NE(r["error"].get<std::string>().find("\"id\" must be"), std::string::npos) << r;
    EXPECT_FALSE(r.contains("id")) << id;
    EXPECT_FALSE(r.contains("pk")) << id;
  }
}

TEST(BatchHostile, InvalidUtf8IsATypedErrorThatQuotesNothing) {
  const struct {
    std::string line;
    std::size_t at;
  } cases[] = {
      {"{\"alg\":\"\xff\",\"id\":1}", 8},
      {"{\"alg\":\"ml-dsa-44\",\"id\":\"\xc0\xaf\"}", 25},  // overlong '/'
      {"{\"alg\":\"\xed\xa0\x80\"}", 8},                     // a UTF-16 surrogate
      {"{\"alg\":\"\xf4\x90\x80\x80\"}", 8},                 // above U+10FFFF
      {"{\"alg\":\"\xe2\x82", 8},                            // cut at the end of the line
  };
  for (const auto& c : cases) {
    const json r = answer(c.line);
    ASSERT_TRUE(r.contains("error"));
    const std::string e = r["error"].get<std::string>();
    EXPECT_NE(e.find("invalid UTF-8 at byte " + std::to_string(c.at)), std::string::npos) << e;
    EXPECT_EQ(e.find("\xef\xbf\xbd"), std::string::npos) << "the reply quotes input bytes: " << e;
    EXPECT_FALSE(r.contains("id"));
  }
  // Valid multibyte text is still fine (and echoed as id).
  const json r = answer(kKeygenNoId + ",\"id\":\"caf\xc3\xa9 \xf0\x9f\x98\x80\"}");
  EXPECT_EQ(r["id"], "caf\xc3\xa9 \xf0\x9f\x98\x80");
}

TEST(BatchHostile, DuplicateMembersAndSyntaxErrorsAreTypedErrors) {
  json r = answer(R"({"op":"keygen","alg":"ml-dsa-44","alg":"ml-dsa-87","id":1})");
  EXPECT_NE(r["error"].get<std::string>().find("duplicate member"), std::string::npos) << r;
  EXPECT_FALSE(r.contains("id"));
  r = answer(R"({"op":"keygen",,"id":1})");
  EXPECT_NE(r["error"].get<std::string>().find("not valid JSON (at byte 15)"), std::string::npos) << r;
  r = answer(R"({"op":"keygen"} {"op":"sign"})");
  EXPECT_NE(r["error"].get<std::string>().find("not valid JSON"), std::string::npos) << r;
}

TEST(BatchHostile, EveryHostileLineGetsOneReplyAndTheSessionGoesOn) {
  const std::string lines[] = {
      kKeygenNoId + ",\"id\":1}",
      kKeygenNoId + ",\"id\":" + nested(200000) + "}",
      "{\"id\":3,\"alg\":\"\xff\"}",
      kKeygenNoId + ",\"id\":{\"x\":[1,2]}}",
      kKeygenNoId + ",\"id\":5}",
  };
  std::string in;
  for (const auto& l : lines) in += l + "\n";
  const auto out = session_replies(in);
  ASSERT_EQ(out.size(), std::size(lines));
  EXPECT_EQ(out[0]["id"], 1);
  for (std::size_t k : {1u, 2u, 3u}) {
    EXPECT_TRUE(out[k].contains("error")) << k;
    EXPECT_FALSE(out[k].contains("id")) << k;
  }
  EXPECT_EQ(out[4]["id"], 5);
  EXPECT_EQ(out[4]["pk"], out[0]["pk"]);
}

TEST(BatchLineReader, TheCapHoldsWhileReading) {
  std::istringstream in(std::string(10000, 'a') + "\nshort\r\n" + std::string(100, 'b') + "\n\nlast");
  batch::LineReader r(in, 64);
  std::string line;
  std::size_t len = 0;
  ASSERT_TRUE(r.next(line, len));
  EXPECT_TRUE(r.too_long());
  EXPECT_EQ(len, 10000u);
  EXPECT_EQ(line.size(), 64u) << "no more than the cap is kept";
  EXPECT_LE(line.capacity(), 128u);
  ASSERT_TRUE(r.next(line, len));
  EXPECT_FALSE(r.too_long());
  EXPECT_EQ(line, "short");
  ASSERT_TRUE(r.next(line, len));
  EXPECT_TRUE(r.too_long());
  ASSERT_TRUE(r.next(line, len));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(r.next(line, len));
  EXPECT_EQ(line, "last");
  EXPECT_FALSE(r.next(line, len));
  EXPECT_FALSE(r.next(line, len));
}

// Through the CLI under a 64 MiB data limit: a 100 MB line is refused while it is read, and the
// deep id does not kill the process.
TEST(BatchHostile, CliSurvivesAHundredMegabyteLineAndADeepId) {
  TempDir d;
  write_text(d.file("a.jsonl"), kKeygenNoId + ",\"id\":1}\n" + kKeygenNoId + ",\"id\":" + nested(200000) + "}\n");
  write_text(d.file("b.jsonl"), kKeygenNoId + ",\"id\":3}\n");
  const std::string cmd = "cd '" + d.path() + "' && (" + kDataLimit64MiB + "{ cat a.jsonl; head -c 104857600 /dev/zero | tr '\\0' x; "
                          "echo; cat b.jsonl; } | '" PQSIG_BINARY_DIR "/pqsig' batch) > out 2> err";
  const int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st)) << slurp_file(d.file("err"));
  EXPECT_EQ(WEXITSTATUS(st), 0) << slurp_file(d.file("err"));
  std::vector<json> out;
  std::istringstream lines(slurp_file(d.file("out")));
  std::string l;
  while (std::getline(lines, l)) out.push_back(json::parse(l));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0]["id"], 1);
  EXPECT_FALSE(out[1].contains("id"));
  EXPECT_NE(out[2]["error"].get<std::string>().find("longer than"), std::string::npos) << out[2];
  EXPECT_EQ(out[3]["id"], 3);
}
