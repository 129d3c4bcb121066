// Issue 10 items 8 and 9: constant-time secret decoders (same results as the public decoders,
// strict on every malformed input), the caller-set log sink (no output by default), typed errors
// for out-of-range parameter-set enums and for moved-from key objects.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/mldsa.hpp"
#include "pqsig/mlkem.hpp"
#include "pqsig/slhdsa.hpp"
#include "pqsig/suite.hpp"
#include "pqsig/webbotauth.hpp"

using namespace pqsig;

namespace {
std::string str(const SecretBytes& s) { return std::string(s.span().begin(), s.span().end()); }
std::string str(const bytes& b) { return std::string(b.begin(), b.end()); }
}  // namespace

TEST(SecretDecoding, AgreesWithThePublicDecodersOnRandomInputs) {
  const std::uint32_t seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=!. \x80\xff";
  for (int i = 0; i < 4000; ++i) {
    // valid encodings of random bytes ...
    bytes b(rng() % 70);
    for (auto& x : b) x = static_cast<u8>(rng());
    EXPECT_EQ(secret_base64url_encode(b), base64url_encode(b)) << "seed " << seed;
    auto u = secret_base64url_decode(base64url_encode(b));
    ASSERT_TRUE(u.ok()) << "seed " << seed;
    EXPECT_EQ(str(*u), str(b));
    auto s = secret_base64_decode(base64_encode(b));
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(str(*s), str(b));
    auto h = secret_from_hex(to_hex(b, i % 2 == 0));
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(str(*h), str(b));
    // ... and random strings: same verdict and bytes as the public (branching) decoders.
    std::string t(rng() % 12, 'A');
    for (auto& c : t) c = alphabet[rng() % alphabet.size()];
    auto pu = base64url_decode(t);
    auto su = secret_base64url_decode(t);
    ASSERT_EQ(pu.ok(), su.ok()) << "'" << t << "' seed " << seed;
    if (pu.ok()) {
      EXPECT_EQ(str(*pu), str(*su));
    }
    auto pb = base64_decode(t);
    auto sb = secret_base64_decode(t);
    ASSERT_EQ(pb.ok(), sb.ok()) << "'" << t << "' seed " << seed;
    if (pb.ok()) {
      EXPECT_EQ(str(*pb), str(*sb));
    }
    auto ph = from_hex(t);
    auto sh = secret_from_hex(t);
    ASSERT_EQ(ph.ok(), sh.ok()) << "'" << t << "' seed " << seed;
    if (ph.ok()) {
      EXPECT_EQ(str(*ph), str(*sh));
    }
  }
}

TEST(SecretDecoding, StrictOnMalformedInput) {
  for (const char* bad : {"A", "AB=", "AB==", "AR", "AAB", "A A", "AA\xff", "AA+A", "AA/A"}) {
    EXPECT_FALSE(secret_base64url_decode(bad).ok()) << bad;
  }
  for (const char* bad : {"AR==", "A===", "AB", "AA-A", "AA_A", "ABC", "=AAA"}) {
    EXPECT_FALSE(secret_base64_decode(bad).ok()) << bad;
  }
  for (const char* bad : {"0", "0g", "g0", " 0", "0x"}) {
    EXPECT_FALSE(secret_from_hex(bad).ok()) << bad;
  }
  auto e = secret_from_hex("zz");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, Errc::invalid_encoding);
}

// ---------------------------------------------------------------- logging
TEST(LogSink, NoOutputByDefaultAndMessagesReachTheCallersSink) {
  // The library never writes to stderr: capture fd 2 around a logging call with no sink.
  set_log_sink({});
  std::fflush(stderr);
  char path[] = "/tmp/pqsig_stderr_XXXXXX";
  int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  int saved = ::dup(2);
  ::dup2(fd, 2);
  log_message(LogLevel::warning, "must not appear");
  webbotauth::set_log_sink(nullptr);
  webbotauth::reset_log_once();
  // A Web Bot Auth degradation (second label without a key) logs through the library sink.
  auto ed = SigningKey::generate(*find_suite("ed25519").value()).value();
  webbotauth::SignerOptions so;
  so.created = 1700000000;
  webbotauth::Signer signer({webbotauth::LabelKey{"sig1", &ed, "k1", ""}, webbotauth::LabelKey{"sig2", nullptr, "k2", ""}},
                            so);
  httpsig::Message m;
  m.is_request = true;
  m.method = "GET";
  m.target = "/";
  m.add("Host", "example.com");
  (void)signer.sign(m);
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  off_t size = ::lseek(fd, 0, SEEK_END);
  ::close(fd);
  ::unlink(path);
  EXPECT_EQ(size, 0) << "the library wrote to stderr without a sink";

  std::vector<std::pair<LogLevel, std::string>> got;
  set_log_sink([&](LogLevel l, std::string_view msg) { got.emplace_back(l, std::string(msg)); });
  log_message(LogLevel::error, "hello");
  set_log_sink({});
  log_message(LogLevel::error, "after removal");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, LogLevel::error);
  EXPECT_EQ(got[0].second, "hello");
  EXPECT_EQ(log_level_name(LogLevel::warning), "warning");
}

// ---------------------------------------------------------------- out-of-range enums
TEST(Misuse, OutOfRangeParameterSetsAreTypedErrors) {
  const auto bad_kem = static_cast<mlkem::ParameterSet>(7);
  bytes seed(64, 1);
  auto kp = mlkem::keygen_from_seed(bad_kem, seed);
  ASSERT_FALSE(kp.ok());
  EXPECT_EQ(kp.error().code, Errc::unknown_suite);
  EXPECT_FALSE(mlkem::check_encaps_key(bad_kem, bytes(1568)).ok());
  EXPECT_FALSE(mlkem::encaps(bad_kem, bytes(1568)).ok());
  EXPECT_FALSE(mlkem::decaps(bad_kem, bytes(3168), bytes(1568)).ok());

  for (int v : {12, 99, -1}) {
    const auto bad_slh = static_cast<slhdsa::ParamSet>(v);
    auto k = slhdsa::slh_keygen(bad_slh);
    ASSERT_FALSE(k.ok()) << v;
    EXPECT_EQ(k.error().code, Errc::unknown_suite);
    bytes s16(16, 2);
    auto ki = slhdsa::slh_keygen_internal(bad_slh, s16, s16, s16);
    ASSERT_FALSE(ki.ok());
    EXPECT_EQ(ki.error().code, Errc::unknown_suite);
    auto sig = slhdsa::slh_sign(bad_slh, as_bytes("m"), {}, bytes(64, 0));
    ASSERT_FALSE(sig.ok());
    EXPECT_EQ(sig.error().code, Errc::unknown_suite);
    auto ver = slhdsa::slh_verify(bad_slh, as_bytes("m"), bytes(7856, 0), {}, bytes(32, 0));
    ASSERT_FALSE(ver.ok());
    EXPECT_EQ(ver.error().code, Errc::unknown_suite);
  }
}

// ---------------------------------------------------------------- moved-from objects
TEST(Misuse, MovedFromKeysReturnTypedErrors) {
  const auto& s = *find_suite("ml-dsa-44").value();
  auto k = SigningKey::generate(s).value();
  auto v = VerifyingKey::from_public(s, k.public_key()).value();
  SigningKey k2 = std::move(k);
  VerifyingKey v2 = std::move(v);
  EXPECT_FALSE(k.valid());  // NOLINT(bugprone-use-after-move): the point of the test
  EXPECT_TRUE(k2.valid());
  auto sig = k.sign(as_bytes("m"));  // NOLINT
  ASSERT_FALSE(sig.ok());
  EXPECT_EQ(sig.error().code, Errc::invalid_argument);
  EXPECT_TRUE(k.public_key().empty());                 // NOLINT
  EXPECT_TRUE(k.private_key().empty());                // NOLINT
  EXPECT_FALSE(k.expanded_private_key().ok());         // NOLINT
  EXPECT_FALSE(k.verify(as_bytes("m"), bytes(1)).ok());  // NOLINT
  EXPECT_EQ(k.suite().public_key_size, 0u);            // NOLINT
  auto st = v.verify(as_bytes("m"), bytes(2420));      // NOLINT
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::invalid_argument);
  EXPECT_TRUE(v2.verify(as_bytes("m"), k2.sign(as_bytes("m")).value()).ok());

  const auto& ks = *find_suite("ml-kem-768").value();
  auto dk = KemPrivateKey::generate(ks).value();
  auto ek = KemPublicKey::from_public(ks, dk.public_key()).value();
  KemPrivateKey dk2 = std::move(dk);
  KemPublicKey ek2 = std::move(ek);
  EXPECT_FALSE(dk.decaps(bytes(1088)).ok());  // NOLINT
  EXPECT_FALSE(ek.encaps().ok());             // NOLINT
  EXPECT_TRUE(ek2.encaps().ok());

  // ML-DSA prepared keys.
  auto sk = k2.expanded_private_key().value();
  bytes pk(k2.public_key().begin(), k2.public_key().end());
  auto p = mldsa::PreparedSigningKey::create(mldsa::Level::ml_dsa_44, sk).value();
  auto p2 = std::move(p);
  bytes out(2420);
  auto ps = p.sign(as_bytes("m"), out);  // NOLINT
  ASSERT_FALSE(ps.ok());
  EXPECT_EQ(ps.error().code, Errc::invalid_argument);
  EXPECT_TRUE(p2.sign(as_bytes("m"), out).ok());
  auto pv = mldsa::PreparedVerifyingKey::create(mldsa::Level::ml_dsa_44, pk).value();
  auto pv2 = std::move(pv);
  EXPECT_FALSE(pv.verify(as_bytes("m"), out).ok());  // NOLINT
  EXPECT_TRUE(pv2.verify(as_bytes("m"), out).ok());
}
