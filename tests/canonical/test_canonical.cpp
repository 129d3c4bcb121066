// The canonical signing input: golden vectors (computed independently from docs/canonical.md),
// strict decoding (each DecodeError), and domain separation (purpose / suite / any field changes
// the preimage).
#include <gtest/gtest.h>

#include "pqsig/canonical.hpp"
#include "pqsig/composite.hpp"

using namespace pqsig;
using namespace pqsig::canonical;

namespace {
const SuiteInfo* suite(std::string_view id) { return find_suite(id).value(); }

SigningInput golden1() {
  SigningInput in;
  in.protocol = "settlement";
  in.version = 1;
  in.network = "mainnet";
  in.deployment = "eu-1";
  in.contract = "ledger-A";
  in.kind = "transfer";
  in.purpose = Purpose::settlement_instruction;
  in.object_ids = {bytes{'o', 'r', 'd', 'e', 'r', '-', '7'}, bytes{1, 2}};
  in.nonce = 42;
  in.expiry = 1767225600;
  in.suite = suite("ml-dsa-65");
  in.set_body(as_bytes("pay 100 to bob"));
  return in;
}

constexpr const char* kGolden1 =
    "001250515349473a43414e4f4e4943414c3a7631000a736574746c656d656e740000000100076d61696e6e6574000465752d3100086c65"
    "646765722d4100087472616e7366657202000200076f726465722d3700020102000000000000002a000000006955b90000096d6c2d6473"
    "612d3635000000010100207ed7949646cf54c48ed7eb975c6fbab8683de72ba1aafee7794d395c4681952a";
constexpr const char* kGolden2 =
    "001250515349473a43414e4f4e4943414c3a76310000000000000000000000000000060000000000000000000000000000000000000007"
    "6564323535313900000001030020a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a";

DecodeError reason_of(const bytes& b) {
  DecodeError why{};
  auto r = decode(b, &why);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return DecodeError::truncated;
  EXPECT_EQ(r.error().message.rfind(std::string(decode_error_name(why)), 0), 0u) << r.error().message;
  return why;
}
}  // namespace

TEST(Canonical, GoldenVectors) {
  auto e = encode(golden1());
  ASSERT_TRUE(e.ok()) << e.error().what();
  EXPECT_EQ(to_hex(*e), kGolden1);

  SigningInput m;  // minimal: every text empty, no objects, nonce/expiry 0
  m.version = 0;
  m.purpose = Purpose::attestation;
  m.suite = suite("ed25519");
  m.body_hash_alg = BodyHash::sha3_256;
  m.set_body({});
  EXPECT_EQ(to_hex(encode(m).value()), kGolden2);
}

TEST(Canonical, DecodeRoundTrip) {
  auto e = encode(golden1()).value();
  auto d = decode(e);
  ASSERT_TRUE(d.ok()) << d.error().what();
  EXPECT_EQ(d->protocol, "settlement");
  EXPECT_EQ(d->network, "mainnet");
  EXPECT_EQ(d->deployment, "eu-1");
  EXPECT_EQ(d->contract, "ledger-A");
  EXPECT_EQ(d->kind, "transfer");
  EXPECT_EQ(d->purpose, Purpose::settlement_instruction);
  ASSERT_EQ(d->object_ids.size(), 2u);
  EXPECT_EQ(d->object_ids[1], (bytes{1, 2}));
  EXPECT_EQ(d->nonce, 42u);
  EXPECT_EQ(d->expiry, 1767225600u);
  EXPECT_EQ(d->suite, suite("ml-dsa-65"));
  EXPECT_EQ(encode(*d).value(), e);
  EXPECT_TRUE(decode(from_hex(kGolden2).value()).ok());
}

TEST(Canonical, StrictDecoding) {
  const bytes g = from_hex(kGolden1).value();
  // every proper prefix is truncated
  for (std::size_t n = 0; n < g.size(); ++n) {
    bytes p(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(n));
    DecodeError why{};
    auto r = decode(p, &why);
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_TRUE(why == DecodeError::truncated || why == DecodeError::bad_domain) << n << " " << decode_error_name(why);
  }
  bytes t = g;
  t.push_back(0);
  EXPECT_EQ(reason_of(t), DecodeError::trailing_bytes);
  bytes dom = g;
  dom[2] = 'Q';
  EXPECT_EQ(reason_of(dom), DecodeError::bad_domain);
  bytes domlen = g;
  domlen[1] = 0x13;
  EXPECT_EQ(reason_of(domlen), DecodeError::bad_domain);
  // protocol length 0x0100 (> 255) → overlong, even though bytes follow
  bytes over = g;
  over[20] = 0x01;
  EXPECT_EQ(reason_of(over), DecodeError::overlong_length);
  // protocol length claims more than the input holds
  bytes ov2 = g;
  ov2[21] = 0xFF;
  EXPECT_EQ(reason_of(ov2), DecodeError::truncated);
  // non-printable text
  bytes txt = g;
  txt[22] = 0x00;
  EXPECT_EQ(reason_of(txt), DecodeError::bad_text);
  // purpose code 0 / 7
  std::size_t purpose_at = 2 + 18 + 2 + 10 + 4 + 2 + 7 + 2 + 4 + 2 + 8 + 2 + 8;
  ASSERT_EQ(g[purpose_at], 2);
  for (u8 bad : {0, 7, 255}) {
    bytes p = g;
    p[purpose_at] = bad;
    EXPECT_EQ(reason_of(p), DecodeError::bad_purpose);
  }
  // object count 257
  bytes cnt = g;
  cnt[purpose_at + 1] = 0x01;
  cnt[purpose_at + 2] = 0x01;
  EXPECT_EQ(reason_of(cnt), DecodeError::overlong_length);
  // suite version 2 / unknown suite name
  std::size_t suite_at = g.size() - 32 - 2 - 1 - 4 - 9;
  bytes sv = g;
  sv[suite_at + 9 + 3] = 2;
  EXPECT_EQ(reason_of(sv), DecodeError::unknown_suite);
  bytes sn = g;
  sn[suite_at + 8] = '9';
  EXPECT_EQ(reason_of(sn), DecodeError::unknown_suite);
  // body hash algorithm 4, and a length that does not match the algorithm
  bytes ha = g;
  ha[g.size() - 35] = 4;
  EXPECT_EQ(reason_of(ha), DecodeError::bad_hash);
  bytes hl = g;
  hl[g.size() - 35] = 2;  // SHA-512 but 32 bytes
  EXPECT_EQ(reason_of(hl), DecodeError::bad_hash);
}

TEST(Canonical, EncodeValidates) {
  auto in = golden1();
  in.protocol = std::string(256, 'a');
  EXPECT_EQ(encode(in).error().code, Errc::invalid_length);
  in = golden1();
  in.network = "main\nnet";
  EXPECT_EQ(encode(in).error().code, Errc::invalid_argument);
  in = golden1();
  in.body_hash.pop_back();
  EXPECT_EQ(encode(in).error().code, Errc::invalid_length);
  in = golden1();
  in.suite = nullptr;
  EXPECT_FALSE(encode(in).ok());
  in = golden1();
  in.object_ids.assign(257, bytes{1});
  EXPECT_FALSE(encode(in).ok());
  in = golden1();
  in.purpose = static_cast<Purpose>(9);
  EXPECT_FALSE(encode(in).ok());
}

TEST(Canonical, SameBodyDifferentUseDifferentPreimage) {
  const bytes base = encode(golden1()).value();
  std::vector<bytes> seen{base};
  auto differs = [&](const SigningInput& in, const char* what) {
    auto e = encode(in);
    ASSERT_TRUE(e.ok()) << what;
    for (const auto& s : seen) EXPECT_NE(*e, s) << what;
    seen.push_back(*e);
  };
  for (Purpose p : {Purpose::quote, Purpose::key_rotation, Purpose::governance, Purpose::transport, Purpose::attestation}) {
    auto in = golden1();
    in.purpose = p;
    differs(in, "purpose");
  }
  for (const char* s : {"ml-dsa-44", "ml-dsa-87", "ml-dsa-65+ed25519", "ed25519", "slh-dsa-sha2-128s"}) {
    auto in = golden1();
    in.suite = suite(s);
    differs(in, s);
  }
  { auto in = golden1(); in.network = "testnet"; differs(in, "network"); }
  { auto in = golden1(); in.deployment = "eu-2"; differs(in, "deployment"); }
  { auto in = golden1(); in.contract = "ledger-B"; differs(in, "contract"); }
  { auto in = golden1(); in.kind = "refund"; differs(in, "kind"); }
  { auto in = golden1(); in.protocol = "settlemen"; in.network = "tmainnet"; differs(in, "field boundary"); }
  { auto in = golden1(); in.version = 2; differs(in, "version"); }
  { auto in = golden1(); in.nonce = 43; differs(in, "nonce"); }
  { auto in = golden1(); in.expiry = 1767225601; differs(in, "expiry"); }
  { auto in = golden1(); in.object_ids.pop_back(); differs(in, "objects"); }
  { auto in = golden1(); in.object_ids = {bytes{'o', 'r', 'd', 'e', 'r', '-', '7', 1, 2}}; differs(in, "object boundary"); }
  { auto in = golden1(); in.body_hash_alg = BodyHash::sha3_256; in.set_body(as_bytes("pay 100 to bob")); differs(in, "hash alg"); }
  // And the context strings that bind purpose + suite into the signature differ too.
  EXPECT_NE(purpose_context(Purpose::settlement_instruction, *suite("ml-dsa-65")),
            purpose_context(Purpose::governance, *suite("ml-dsa-65")));
  EXPECT_NE(purpose_context(Purpose::settlement_instruction, *suite("ml-dsa-65")),
            purpose_context(Purpose::settlement_instruction, *suite("ml-dsa-65+ed25519")));
  EXPECT_EQ(purpose_context(Purpose::settlement_instruction, *suite("ml-dsa-65+ed25519")),
            "pqsig/v1/settlement-instruction/ml-dsa-65+ed25519");
}

TEST(Canonical, ContextMatchesCompositeConvention) {
  for (const char* id : {"ml-dsa-44+ed25519", "ml-dsa-65+ed25519", "ml-dsa-87+ed448"}) {
    for (int c = 1; c <= 6; ++c) {
      auto p = static_cast<Purpose>(c);
      auto want = composite::application_context(purpose_name(p), *suite(id));
      ASSERT_TRUE(want.ok());
      EXPECT_EQ(purpose_context(p, *suite(id)), std::string(want->begin(), want->end()));
    }
  }
}

TEST(Canonical, Purposes) {
  for (int c = 1; c <= 6; ++c) {
    auto p = static_cast<Purpose>(c);
    EXPECT_EQ(parse_purpose(purpose_name(p)).value(), p);
  }
  EXPECT_FALSE(parse_purpose("Quote").ok());
  EXPECT_FALSE(parse_purpose("").ok());
}
