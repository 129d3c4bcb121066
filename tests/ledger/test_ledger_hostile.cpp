// `pqsig ledger verify` against hostile lines (issue 20, item 2): every input line gets exactly one
// verdict line, in order, and the session always ends with its summary. Before the fix a line with
// invalid UTF-8 ended the session (the parser's message quoted the bytes and dump() threw: one
// verdict of three, no summary), a deeply nested "id" crashed it (copied and dumped recursively),
// and a 100 MB line was read whole (std::getline) before the 8 MiB cap refused it.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_util.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;
using json = nlohmann::json;

namespace {

std::vector<json> verdicts_of(const std::string& s) {
  std::vector<json> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) {
    json j = json::parse(l, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "not JSON: " << l.substr(0, 200);
    out.push_back(j);
  }
  return out;
}

struct Signed {
  std::string pk, msg, sig;
};

const Signed& signed_item() {
  static const Signed s = [] {
    const SuiteInfo& suite = *find_suite("ml-dsa-44").value();
    auto sk = SigningKey::generate(suite).value();
    const bytes msg = {4, 5, 6};
    return Signed{to_hex(sk.public_key(), false), to_hex(msg, false), to_hex(sk.sign(msg).value(), false)};
  }();
  return s;
}

// A valid item as one line, with `id_json` spliced in verbatim.
std::string item_line(const std::string& id_json) {
  const Signed& s = signed_item();
  return R"({"alg":"ml-dsa-44","pk":")" + s.pk + R"(","msg":")" + s.msg + R"(","sig":")" + s.sig + R"(","id":)" +
         id_json + "}";
}

const char* kVerify = "ledger verify --first pqsig --second pqsig --jobs 1";

}  // namespace

TEST(LedgerHostile, InvalidUtf8LineGetsItsVerdictAndTheSessionGoesOn) {
  TempDir d;
  std::string in = item_line("1") + "\n";
  in += "{\"alg\":\"ml-dsa-44\",\"id\":2,\"pk\":\"\xff\xfe\"}\n";
  in += item_line("3") + "\n";
  write_text(d.file("items.jsonl"), in);
  RunResult r = run_pqsig(d, kVerify, d.file("items.jsonl"));
  EXPECT_EQ(r.code, 0) << r.err;
  const auto out = verdicts_of(r.out);
  ASSERT_EQ(out.size(), 4u) << r.out << r.err;
  EXPECT_EQ(out[0]["id"], 1);
  EXPECT_TRUE(out[0]["ok"].get<bool>());
  EXPECT_FALSE(out[1]["ok"].get<bool>());
  EXPECT_FALSE(out[1].contains("id")) << "nothing of an invalid line is echoed";
  EXPECT_NE(out[1]["error"].get<std::string>().find("invalid UTF-8 at byte 32"), std::string::npos) << out[1];
  EXPECT_EQ(out[2]["id"], 3);
  EXPECT_TRUE(out[2]["ok"].get<bool>());
  const json& sum = out[3]["summary"];
  EXPECT_EQ(sum["total"], 3);
  EXPECT_EQ(sum["accepted"], 2);
  EXPECT_EQ(sum["errors"], 1);
}

TEST(LedgerHostile, DeepOrUnsafeIdsAreNeverEchoed) {
  TempDir d;
  std::string in = item_line("1") + "\n";
  in += item_line(std::string(200000, '[') + std::string(200000, ']')) + "\n";  // crashed the process
  in += item_line("{\"a\":{\"b\":1}}") + "\n";
  in += item_line("\"" + std::string(300, 'x') + "\"") + "\n";
  in += item_line("\"item-5\"") + "\n";
  in += item_line("null") + "\n";
  write_text(d.file("items.jsonl"), in);
  RunResult r = run_pqsig(d, kVerify, d.file("items.jsonl"));
  EXPECT_EQ(r.code, 0) << r.err;
  const auto out = verdicts_of(r.out);
  ASSERT_EQ(out.size(), 7u) << r.out.substr(0, 2000) << r.err;
  EXPECT_EQ(out[0]["id"], 1);
  EXPECT_NE(out[1]["error"].get<std::string>().find("nested deeper than 32"), std::string::npos) << out[1];
  for (std::size_t k : {1u, 2u, 3u}) {
    EXPECT_FALSE(out[k]["ok"].get<bool>()) << k;
    EXPECT_TRUE(out[k].contains("error")) << k;
    EXPECT_FALSE(out[k].contains("id")) << k;
  }
  EXPECT_NE(out[2]["error"].get<std::string>().find("\"id\" must be"), std::string::npos) << out[2];
  EXPECT_EQ(out[4]["id"], "item-5");
  EXPECT_TRUE(out[4]["ok"].get<bool>());
  EXPECT_TRUE(out[5]["ok"].get<bool>()) << "a null id is no id";
  EXPECT_FALSE(out[5].contains("id"));
  EXPECT_EQ(out[6]["summary"]["total"], 6);
  EXPECT_EQ(out[6]["summary"]["errors"], 3);
}

TEST(LedgerHostile, EveryLineGetsAVerdictEvenABlankOne) {
  TempDir d;
  write_text(d.file("items.jsonl"), item_line("1") + "\n\n  \t\r\n" + item_line("4") + "\r\n{\"alg\":1,\"alg\":2}");
  RunResult r = run_pqsig(d, kVerify, d.file("items.jsonl"));
  EXPECT_EQ(r.code, 0) << r.err;
  const auto out = verdicts_of(r.out);
  ASSERT_EQ(out.size(), 6u) << r.out;
  EXPECT_EQ(out[0]["id"], 1);
  EXPECT_NE(out[1]["error"].get<std::string>().find("empty"), std::string::npos) << out[1];
  EXPECT_NE(out[2]["error"].get<std::string>().find("empty"), std::string::npos) << out[2];
  EXPECT_EQ(out[3]["id"], 4);
  EXPECT_TRUE(out[3]["ok"].get<bool>());
  EXPECT_NE(out[4]["error"].get<std::string>().find("duplicate"), std::string::npos) << out[4];
  EXPECT_EQ(out[5]["summary"]["total"], 5);
  EXPECT_EQ(out[5]["summary"]["errors"], 3);
}

// Under a 64 MiB data limit (RLIMIT_DATA): before the fix std::getline grew a 100 MB string, ran
// out of memory and the session ended after the first verdict.
TEST(LedgerHostile, AHundredMegabyteLineIsRefusedWhileItIsRead) {
  TempDir d;
  write_text(d.file("a.jsonl"), item_line("1") + "\n");
  write_text(d.file("b.jsonl"), item_line("3") + "\n");
  const std::string cmd = "cd '" + d.path() + "' && (" + kDataLimit64MiB + "{ cat a.jsonl; head -c 104857600 /dev/zero | tr '\\0' x; "
                          "echo; cat b.jsonl; } | '" PQSIG_BINARY_DIR "/pqsig' " + kVerify + ") > out 2> err";
  const int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st)) << slurp_file(d.file("err"));
  EXPECT_EQ(WEXITSTATUS(st), 0) << slurp_file(d.file("err"));
  const auto out = verdicts_of(slurp_file(d.file("out")));
  ASSERT_EQ(out.size(), 4u) << slurp_file(d.file("out")) << slurp_file(d.file("err"));
  EXPECT_EQ(out[0]["id"], 1);
  EXPECT_NE(out[1]["error"].get<std::string>().find("longer than 8388608 bytes (104857600)"), std::string::npos)
      << out[1];
  EXPECT_EQ(out[2]["id"], 3);
  EXPECT_TRUE(out[2]["ok"].get<bool>());
  EXPECT_EQ(out[3]["summary"]["total"], 3);
  EXPECT_EQ(out[3]["summary"]["errors"], 1);
}
