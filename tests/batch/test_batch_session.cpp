// `pqsig batch` (issue 10, item 4): every input line gets exactly one reply, whatever it holds
// (invalid UTF-8, a cut multibyte character, blank, not JSON, over the length cap), and the
// session goes on after each. Driven through the library (what the CLI runs) and the CLI.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "ledger/batch.hpp"

using json = nlohmann::json;
namespace batch = pqsig::batch;

namespace {

const std::string kKeygen = R"({"op":"keygen","alg":"ml-dsa-44","seed":")" + std::string(64, '0') + R"(","id":)";

std::vector<json> replies(const std::string& out) {
  std::vector<json> r;
  std::istringstream is(out);
  std::string line;
  while (std::getline(is, line)) {
    auto j = json::parse(line, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "reply is not JSON: " << line;
    r.push_back(j);
  }
  return r;
}

std::string session(const std::string& in, batch::SessionOptions opt = {}, batch::SessionStats* st = nullptr) {
  std::istringstream is(in);
  std::ostringstream os;
  auto s = batch::run_session(is, os, opt);
  if (st) *st = s;
  return os.str();
}

}  // namespace

TEST(BatchLine, InvalidUtf8IsAnsweredNotThrown) {
  for (std::string bad : {std::string("{\"alg\":\"\xff\"}"), std::string("{\"alg\":\"\xc3"), std::string("\xe2\x82"),
                          std::string("{\"op\":\"sign\",\"alg\":\"ml-dsa-44\",\"id\":\"\xf0\x9f\x98\"}"),
                          std::string("\xc3\x28 not json"), std::string(1, '\0')}) {
    std::string text;
    ASSERT_NO_THROW(text = batch::answer_line(bad));
    auto j = json::parse(text, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << text;
    EXPECT_TRUE(j.contains("error")) << text;
  }
  // The reply of a valid request is unchanged, id echoed.
  auto ok = json::parse(batch::answer_line(kKeygen + "7}"));
  EXPECT_TRUE(ok.contains("pk"));
  EXPECT_EQ(ok["id"], 7);
  // reply_text itself never throws, even on a hand-built object holding invalid UTF-8.
  EXPECT_NO_THROW((void)batch::reply_text(json{{"error", std::string("cut \xe2\x82")}}));
}

TEST(BatchSession, OneReplyPerLineWhateverItHolds) {
  const std::string lines[] = {
      kKeygen + "1}",
      "{\"alg\":\"\xff\xfe\",\"id\":2}",  // invalid UTF-8: the JSON parser's message quotes it
      "{\"alg\":\"\xc3",                  // a cut multibyte character
      "",                                 // blank
      "   \t",                            // whitespace only
      "[1,2,3]",                          // not an object
      "{\"op\":\"keygen\",\"alg\":\"nope\",\"id\":7}",
      kKeygen + "8}\r",                   // CRLF
      kKeygen + "9}",                     // last line without LF
  };
  std::string in;
  for (std::size_t k = 0; k < std::size(lines); ++k) in += lines[k] + (k + 1 < std::size(lines) ? "\n" : "");
  batch::SessionStats st;
  auto out = replies(session(in, {}, &st));
  ASSERT_EQ(out.size(), std::size(lines));
  EXPECT_EQ(st.lines, std::size(lines));
  EXPECT_EQ(out[0]["id"], 1);
  EXPECT_TRUE(out[0].contains("pk"));
  for (int k : {1, 2, 3, 4, 5, 6}) EXPECT_TRUE(out[static_cast<std::size_t>(k)].contains("error")) << k;
  EXPECT_EQ(out[6]["id"], 7);
  EXPECT_EQ(out[7]["id"], 8);
  EXPECT_EQ(out[8]["id"], 9);
  EXPECT_EQ(out[7]["pk"], out[0]["pk"]);
}

TEST(BatchSession, LongLinesAreRefusedAndTheSessionContinues) {
  batch::SessionOptions opt;
  opt.max_line_bytes = 1024;
  std::string huge(5 * 1024 * 1024, 'x');
  std::string just = "{\"op\":\"x\",\"alg\":\"nope\",\"pad\":\"" + std::string(1024 - 32, 'p') + "\"}";
  ASSERT_EQ(just.size(), 1024u);
  std::string in = huge + "\n" + kKeygen + "2}\n" + just + "\n" + std::string(1025, '{') + "\n" + kKeygen + "3}\n";
  batch::SessionStats st;
  auto out = replies(session(in, opt, &st));
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(st.too_long, 2u);
  EXPECT_NE(out[0]["error"].get<std::string>().find("longer than 1024 bytes"), std::string::npos) << out[0];
  EXPECT_EQ(out[1]["id"], 2);
  EXPECT_NE(out[2]["error"].get<std::string>().find("unknown alg"), std::string::npos) << out[2];  // at the cap: processed
  EXPECT_NE(out[3]["error"].get<std::string>().find("longer than"), std::string::npos);
  EXPECT_EQ(out[4]["id"], 3);
  // An over-long last line without LF is answered too.
  EXPECT_EQ(replies(session(std::string(2000, 'y'), opt)).size(), 1u);
  EXPECT_TRUE(session("", opt).empty());
}

// Through the CLI binary: before the fix, the invalid-UTF-8 line ended the process (uncaught
// json::type_error from dump()) and the lines after it were never answered.
TEST(BatchCli, InvalidUtf8LineDoesNotEndTheSession) {
  const auto in = std::filesystem::temp_directory_path() / ("pqsig_batch_utf8_" + std::to_string(::getpid()));
  {
    std::ofstream f(in, std::ios::binary);
    f << kKeygen << "1}\n{\"alg\":\"\xc3\n" << kKeygen << "3}\n";
  }
  std::string cmd = "'" + std::string(PQSIG_BINARY_DIR) + "/pqsig' batch --max-line 4096 < '" + in.string() + "'";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = ::pclose(p);
  std::filesystem::remove(in);
  EXPECT_EQ(WEXITSTATUS(rc), 0);
  auto r = replies(out);
  ASSERT_EQ(r.size(), 3u) << out;
  EXPECT_TRUE(r[1].contains("error"));
  EXPECT_EQ(r[2]["id"], 3);
}
