// HSS subtree export (lms::export_subtrees, lms::DelegatedKey; docs/lms.md, "HSS subtrees"):
// a delegate signs inside its level-1 subtrees only, its signatures are the full key's byte for
// byte and verify under the original public key (and in liboqs), the parent never signs the
// exported indices, the delegate's bytes hold no top SEED and no other subtree's SEED, a kill -9
// at every step of an export never leaves an index usable by both, and malformed delegate
// encodings are typed errors.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "lms/lms_internal.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/lms.hpp"
#include "support/kill_at_step.hpp"
#include "support/oqs_stfl.hpp"
#include "support/scratch_dir.hpp"

using namespace pqsig;
namespace fs = std::filesystem;

namespace {

constexpr const char* kDelegateSpec = "hss-sha256-m24-h5-w4-h5-w4";  // 32 subtrees of 32 signatures

struct DelegateTempDir : pqsig::test::ScratchDir {
  DelegateTempDir() : ScratchDir("lms_delegate") {}
};

lms::HssPrivateKey delegate_test_key(const char* spec = kDelegateSpec) {
  auto lv = lms::parse_levels(spec);
  EXPECT_TRUE(lv.ok());
  // Distinct bytes, so that a search for the SEED in a file cannot match by accident.
  bytes I(16), seed(lv->front().lms->m);
  for (std::size_t i = 0; i < I.size(); ++i) I[i] = static_cast<std::uint8_t>(0xA0 + i);
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(0x31 * i + 7);
  auto k = lms::HssPrivateKey::from_seed(*lv, I, seed);
  EXPECT_TRUE(k.ok());
  return std::move(*k);
}

bytes delegate_public_key(const char* spec = kDelegateSpec) {
  auto s = lms::HssSigner::create(delegate_test_key(spec), 1);
  EXPECT_TRUE(s.ok());
  return s->public_key();
}

// A parent state for the key, and a delegate of subtrees [a, b) exported from it.
lms::DelegatedKey make_delegate(const fs::path& parent_state, std::uint32_t a, std::uint32_t b,
                                const char* spec = kDelegateSpec) {
  const bytes pk = delegate_public_key(spec);
  auto key = delegate_test_key(spec);
  if (!fs::exists(parent_state)) {
    EXPECT_TRUE(lms::StateStore::create(parent_state.string(), pk, key.max_signatures()).ok());
  }
  auto store = lms::StateStore::open(parent_state.string(), pk);
  EXPECT_TRUE(store.ok());
  auto d = lms::export_subtrees(key, *store, a, b, 1);
  EXPECT_TRUE(d.ok()) << d.error().what();
  return std::move(*d);
}

bool contains_bytes(byte_span hay, byte_span needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end()) != hay.end();
}

void write_bytes_file(const fs::path& p, byte_span b) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

bytes read_bytes_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return bytes(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

// The delegate signs inside its range; each signature verifies under the original HSS public key
// and equals the full key's at the same index; it refuses every index outside; its state runs out
// exactly at the end of the range.
TEST(LmsDelegate, SignsInsideItsRangeLikeTheFullKey) {
  DelegateTempDir dir;
  const bytes pk = delegate_public_key();
  auto del = make_delegate(dir.p / "parent.state", 3, 5);
  EXPECT_EQ(del.first_index(), 96u);
  EXPECT_EQ(del.end_index(), 160u);
  EXPECT_EQ(del.public_key(), pk);
  // Through its encoding, as a signer machine would get it.
  const SecretBytes enc = del.serialize();
  auto again = lms::DelegatedKey::parse(enc.span());
  ASSERT_TRUE(again.ok()) << again.error().what();
  EXPECT_EQ(again->serialize().span().size(), enc.size());
  EXPECT_TRUE(std::equal(enc.span().begin(), enc.span().end(), again->serialize().span().begin()));

  const fs::path dstate = dir.p / "delegate.state";
  ASSERT_TRUE(lms::StatefulSigner::create_delegate_state(*again, dstate.string()).ok());
  auto signer = lms::StatefulSigner::open(std::move(*again), dstate.string(), 7, 1);
  ASSERT_TRUE(signer.ok()) << signer.error().what();
  EXPECT_EQ(signer->public_key(), pk);
  auto full = lms::HssSigner::create(delegate_test_key(), 1);
  ASSERT_TRUE(full.ok());
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 64; ++i) {
    const std::string msg = "delegated message " + std::to_string(i);
    auto s = signer->sign(as_bytes(msg));
    ASSERT_TRUE(s.ok()) << i << ": " << s.error().what();
    EXPECT_GE(s->index, 96u);
    EXPECT_LT(s->index, 160u);
    EXPECT_TRUE(seen.insert(s->index).second) << "index twice: " << s->index;
    EXPECT_TRUE(lms::hss_verify(pk, as_bytes(msg), s->signature).ok()) << s->index;
    if (i % 9 == 0 || i == 63) {
      auto f = full->sign_at(s->index, as_bytes(msg));
      ASSERT_TRUE(f.ok());
      EXPECT_EQ(*f, s->signature) << "the delegate's signature differs from the full key's at " << s->index;
    }
  }
  auto over = signer->sign(as_bytes(std::string("one too many")));
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().code, Errc::key_exhausted);

  // Directly at the signer level: no material outside [96, 160).
  auto raw = lms::HssSigner::create(make_delegate(dir.p / "parent2.state", 3, 5), 1);
  ASSERT_TRUE(raw.ok());
  for (std::uint64_t idx : {std::uint64_t{0}, std::uint64_t{95}, std::uint64_t{160}, std::uint64_t{1023}}) {
    auto r = raw->sign_at(idx, as_bytes(std::string("outside")));
    ASSERT_FALSE(r.ok()) << idx;
    EXPECT_EQ(r.error().code, Errc::policy) << idx;
  }
  EXPECT_TRUE(raw->sign_at(96, as_bytes(std::string("inside"))).ok());
  EXPECT_TRUE(raw->sign_at(159, as_bytes(std::string("inside"))).ok());
}

// After an export the parent's state has given the range away: it refuses to reserve or export it
// again, and its own signatures come from after the range.
TEST(LmsDelegate, ParentNeverSignsTheExportedIndices) {
  DelegateTempDir dir;
  const fs::path ps = dir.p / "parent.state";
  const bytes pk = delegate_public_key();
  auto del = make_delegate(ps, 2, 4);
  auto store = lms::StateStore::open(ps.string(), pk);
  ASSERT_TRUE(store.ok());
  auto inf = store->info();
  ASSERT_TRUE(inf.ok());
  EXPECT_GE(inf->reserved_end, del.end_index());
  auto r = store->reserve_range(64, 128);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::policy);
  auto key = delegate_test_key();
  auto again = lms::export_subtrees(key, *store, 3, 5, 1);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, Errc::policy);
  auto signer = lms::StatefulSigner::open(delegate_test_key(), ps.string(), 4, 1);
  ASSERT_TRUE(signer.ok()) << signer.error().what();
  auto s = signer->sign(as_bytes(std::string("parent after export")));
  ASSERT_TRUE(s.ok()) << s.error().what();
  EXPECT_GE(s->index, del.end_index());
  // A later range can still be exported; the audit shows the exports as reservations, clean.
  auto d2 = lms::export_subtrees(key, *store, 10, 11, 1);
  ASSERT_TRUE(d2.ok()) << d2.error().what();
  auto audit = store->audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_TRUE(audit->clean());
  // A one-level key has no subtrees; a range past the top tree or empty is refused.
  auto lms1 = lms::parse_levels("lms-sha256-m24-h5-w4");
  ASSERT_TRUE(lms1.ok());
  auto k1 = lms::HssPrivateKey::generate(*lms1);
  ASSERT_TRUE(k1.ok());
  EXPECT_EQ(lms::export_subtrees(*k1, *store, 0, 1, 1).error().code, Errc::invalid_argument);
  EXPECT_EQ(lms::export_subtrees(key, *store, 30, 33, 1).error().code, Errc::invalid_argument);
  EXPECT_EQ(lms::export_subtrees(key, *store, 20, 20, 1).error().code, Errc::invalid_argument);
  // The delegate's state file is not the parent's: opening the parent's state with it is refused.
  auto wrong = lms::StatefulSigner::open(std::move(del), ps.string(), 4, 1);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, Errc::state_rejected);
}

// The delegate's bytes hold its own subtrees' SEEDs, and neither the top SEED nor any other
// subtree's SEED (derived here the way the full key derives them).
TEST(LmsDelegate, FileHoldsNoTopSeedNorOtherSubtrees) {
  DelegateTempDir dir;
  auto del = make_delegate(dir.p / "parent.state", 5, 8);
  const SecretBytes enc = del.serialize();
  const fs::path file = dir.p / "delegate.key";
  write_bytes_file(file, enc.span());
  const bytes on_disk = read_bytes_file(file);
  ASSERT_EQ(on_disk.size(), enc.size());
  auto key = delegate_test_key();
  EXPECT_FALSE(contains_bytes(on_disk, key.seed())) << "the top SEED is in the delegated key";
  lms::detail::Tree top;
  top.lv = key.levels()[0];
  top.I = key.id();
  top.seed = SecretBytes(key.seed());
  int own = 0;
  for (std::uint32_t q = 0; q < 32; ++q) {
    std::uint8_t I[16];
    SecretBytes seed(key.levels()[1].lms->m);
    lms::detail::derive_child(top, q, I, seed.data());
    const bool inside = q >= 5 && q < 8;
    EXPECT_EQ(contains_bytes(on_disk, seed.span()), inside) << "subtree " << q;
    own += inside && contains_bytes(on_disk, seed.span());
  }
  EXPECT_EQ(own, 3);
}

// Truncated, extended, altered, foreign: every one a typed error, never a crash or a key.
TEST(LmsDelegate, MalformedEncodingsAreTypedErrors) {
  DelegateTempDir dir;
  auto del = make_delegate(dir.p / "parent.state", 1, 3);
  const SecretBytes enc = del.serialize();
  const bytes good(enc.span().begin(), enc.span().end());
  auto typed = [](const Error& e) {
    return e.code == Errc::invalid_length || e.code == Errc::invalid_encoding || e.code == Errc::verify_failed ||
           e.code == Errc::unsupported;
  };
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto r = lms::DelegatedKey::parse(byte_span(good.data(), n));
    ASSERT_FALSE(r.ok()) << "truncated to " << n << " bytes was accepted";
    EXPECT_TRUE(typed(r.error())) << n << ": " << r.error().what();
  }
  bytes longer = good;
  longer.push_back(0);
  EXPECT_FALSE(lms::DelegatedKey::parse(longer).ok());
  // Every single-bit change: the checksum catches it.
  for (std::size_t i = 0; i < good.size(); i += 3) {
    bytes t = good;
    t[i] ^= static_cast<std::uint8_t>(1u << (i % 8));
    auto r = lms::DelegatedKey::parse(t);
    ASSERT_FALSE(r.ok()) << "a change at byte " << i << " was accepted";
    EXPECT_TRUE(typed(r.error())) << i << ": " << r.error().what();
  }
  // Changes with the checksum recomputed (a deliberate forgery): the structure checks and the top
  // signatures catch the public parts.
  auto reseal = [](bytes t) {
    const auto d = hash::sha256(byte_span(t.data(), t.size() - 32));
    std::copy(d.begin(), d.end(), t.end() - 32);
    return t;
  };
  const std::size_t head = 8 + 4 + 16;                 // magic, L, two levels
  const std::size_t pub_len = 4 + 8 + 16 + 24;         // HSS public key
  const std::size_t range_at = head + pub_len;
  const std::size_t sub0 = range_at + 8;
  const std::size_t cpub = 8 + 16 + 24;
  struct Forgery {
    std::size_t at;
    std::uint8_t x;
    const char* what;
  };
  const Forgery forgeries[] = {
      {0, 1, "magic"},
      {11, 1, "L"},
      {15, 0x10, "top LMS type"},
      {head + 30, 1, "HSS public key root"},
      {range_at + 3, 1, "range start"},
      {range_at + 7, 1, "range end"},
      {range_at + 7, 0x40, "range end past the top tree"},
      {sub0 + 2, 1, "subtree I"},
      {sub0 + 16 + 24 + 30, 1, "subtree public key root"},
      {sub0 + 16 + 24 + cpub + 3, 1, "top signature leaf"},
      {sub0 + 16 + 24 + cpub + 100, 1, "top signature body"},
  };
  for (const auto& f : forgeries) {
    bytes t = good;
    t[f.at] ^= f.x;
    auto r = lms::DelegatedKey::parse(reseal(t));
    ASSERT_FALSE(r.ok()) << f.what << " was accepted";
    EXPECT_TRUE(typed(r.error())) << f.what << ": " << r.error().what();
  }
  // A changed SEED cannot be seen in the bytes (it is secret); the signer finds it when the
  // subtree it builds does not give the signed public key, and refuses.
  bytes t = good;
  t[sub0 + 16 + 3] ^= 1;
  auto forged = lms::DelegatedKey::parse(reseal(t));
  ASSERT_TRUE(forged.ok());
  auto s = lms::HssSigner::create(std::move(*forged), 1);
  ASSERT_TRUE(s.ok());
  auto r = s->sign_at(32, as_bytes(std::string("m")));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::state_rejected);
  EXPECT_TRUE(s->sign_at(64, as_bytes(std::string("m"))).ok());  // subtree 2 is intact
  // Not a delegated key at all: a full private key's encoding, or nothing.
  const SecretBytes full = delegate_test_key().serialize();
  EXPECT_EQ(lms::DelegatedKey::parse(full.span()).error().code, Errc::invalid_encoding);
  EXPECT_FALSE(lms::DelegatedKey::parse(byte_span()).ok());
  // Over the size limit, before anything else is read.
  bytes huge(lms::DelegatedKey::kMaxEncodedBytes + 1, 0);
  std::copy(good.begin(), good.begin() + 12, huge.begin());
  EXPECT_EQ(lms::DelegatedKey::parse(huge).error().code, Errc::invalid_length);
}

// kill -9 at every step of an export (the parent's reservation: locked, tmp_written, tmp_synced,
// renamed, dir_synced, logged; each top signature; the delegate's state; its key file): after each,
// either no delegate exists, or the parent's state has the range burnt. Then both sign and no
// index is signed twice. Bounded: at most 25 runs.
TEST(LmsDelegate, KillDuringExportNeverGivesAnIndexToBoth) {
  const bytes pk = delegate_public_key();
  int killed = 0, completed = 0;
  for (int k = 1; k <= 25 && completed == 0; ++k) {
    DelegateTempDir dir;
    const fs::path ps = dir.p / "parent.state", ds = dir.p / "delegate.state", dk = dir.p / "delegate.key";
    ASSERT_TRUE(lms::StateStore::create(ps.string(), pk, 1024).ok());
    {  // the parent has signed a little before the export
      auto p = lms::StatefulSigner::open(delegate_test_key(), ps.string(), 8, 1);
      ASSERT_TRUE(p.ok());
      ASSERT_TRUE(p->sign(as_bytes(std::string("before"))).ok());
    }
    ASSERT_NO_FATAL_FAILURE(pqsig::test::fork_killed_at_step(
        k,
        [&] {
          auto store = lms::StateStore::open(ps.string(), pk);
          if (!store) _exit(3);
          auto key = delegate_test_key();
          auto d = lms::export_subtrees(key, *store, 2, 4, 1);
          if (!d) _exit(4);
          if (!lms::StatefulSigner::create_delegate_state(*d, ds.string())) _exit(5);
          lms::StateStore::run_step_hook("export:state_created");
          const SecretBytes enc = d->serialize();
          const fs::path tmp = dk.string() + ".tmp";
          write_bytes_file(tmp, enc.span());
          fs::rename(tmp, dk);
          lms::StateStore::run_step_hook("export:written");
          _exit(0);
        },
        killed, completed));
    auto store = lms::StateStore::open(ps.string(), pk);
    ASSERT_TRUE(store.ok()) << "run " << k << ": " << store.error().what();
    auto inf = store->info();
    ASSERT_TRUE(inf.ok());
    // The parent's reservation is either not durable (nothing changed) or covers the range.
    EXPECT_TRUE(inf->reserved_end <= 64 || inf->reserved_end >= 128) << "run " << k << ": " << inf->reserved_end;
    const bool have_delegate = fs::exists(dk);
    if (have_delegate) {
      EXPECT_GE(inf->reserved_end, 128u) << "run " << k << ": a delegate exists, the parent can sign its range";
    }
    // Both sign what they can; no index twice, all verify.
    std::set<std::uint64_t> used;
    auto sign_three = [&](lms::StatefulSigner& signer, const std::string& who) {
      for (int i = 0; i < 3; ++i) {
        const std::string msg = who + " " + std::to_string(i);
        auto s = signer.sign(as_bytes(msg));
        ASSERT_TRUE(s.ok()) << s.error().what();
        EXPECT_TRUE(used.insert(s->index).second) << "run " << k << ": index " << s->index << " twice";
        EXPECT_TRUE(lms::hss_verify(pk, as_bytes(msg), s->signature).ok());
      }
    };
    auto parent = lms::StatefulSigner::open(delegate_test_key(), ps.string(), 1, 1);
    ASSERT_TRUE(parent.ok()) << parent.error().what();
    ASSERT_NO_FATAL_FAILURE(sign_three(*parent, "parent"));
    if (have_delegate) {
      auto d = lms::DelegatedKey::parse(read_bytes_file(dk));
      ASSERT_TRUE(d.ok()) << d.error().what();
      auto ds_signer = lms::StatefulSigner::open(std::move(*d), ds.string(), 4, 1);
      ASSERT_TRUE(ds_signer.ok()) << ds_signer.error().what();
      ASSERT_NO_FATAL_FAILURE(sign_three(*ds_signer, "delegate"));
    }
    // And nothing the parent can still reserve overlaps the delegate's range when it exists.
    auto rest = store->reserve(2000);
    if (rest.ok() && have_delegate) {
      EXPECT_GE(rest->first, 128u);
    }
  }
  lms::StateStore::set_step_hook(nullptr);
  EXPECT_GT(killed, 5);
  EXPECT_EQ(completed, 1);
}

// The delegate's signatures verify in an independent implementation (liboqs' HSS verify).
TEST(LmsDelegate, LiboqsVerifiesTheDelegatesSignatures) {
  using namespace pqsig_oqs_stfl;
  const char* oqs = "LMS_SHA256_H5_W8_H5_W8";
  if (const std::string why = oqs_stfl_skip_reason(oqs); !why.empty()) GTEST_SKIP() << why;
#if defined(PQSIG_TEST_HAVE_OQS_STFL)
  const char* spec = "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8";
  DelegateTempDir dir;
  auto del = make_delegate(dir.p / "parent.state", 6, 8, spec);
  const bytes pk = del.public_key();
  auto signer = lms::HssSigner::create(std::move(del), 1);
  ASSERT_TRUE(signer.ok());
  for (std::uint64_t idx : {std::uint64_t{6 * 32}, std::uint64_t{6 * 32 + 31}, std::uint64_t{7 * 32 + 5}}) {
    const std::string ms = "delegate at " + std::to_string(idx);
    const bytes m(ms.begin(), ms.end());
    auto sig = signer->sign_at(idx, m);
    ASSERT_TRUE(sig.ok()) << sig.error().what();
    EXPECT_TRUE(oqs_stfl_verify(oqs, pk, m, *sig)) << "liboqs rejected the delegate's signature at " << idx;
    bytes m2 = m;
    m2[0] ^= 1;
    EXPECT_FALSE(oqs_stfl_verify(oqs, pk, m2, *sig));
  }
#endif
}
