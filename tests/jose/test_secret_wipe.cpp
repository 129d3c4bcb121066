// Secret hygiene of key import (issue 10 item 8): no heap block freed while a private JWK is
// loaded may still hold the private key, neither decoded nor as its base64url text. Regression:
// a wrong-length "d" returned before the decoded copy was wiped, and the JSON copies of secret
// members were never wiped. The test replaces the global operator new/delete of this test binary
// (malloc-based, so ASan sees matching pairs) and, while scanning is on, searches every block
// being freed for the secret.
#include <gtest/gtest.h>
#include <malloc.h>

// Under AddressSanitizer the sanitizer owns operator new/delete (and quarantines freed blocks),
// so this check is built in the plain builds only (g++ and clang Release run it in CI).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PQSIG_NO_ALLOC_HOOK 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PQSIG_NO_ALLOC_HOOK 1
#endif
#ifndef PQSIG_NO_ALLOC_HOOK

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "pqsig/jose.hpp"

namespace {
std::atomic<bool> g_scan{false};
const void* g_needle[2] = {nullptr, nullptr};
std::size_t g_needle_len[2] = {0, 0};
std::atomic<int> g_found{0};

void scan(void* p) noexcept {
  if (!p || !g_scan.load(std::memory_order_relaxed)) return;
  const std::size_t n = malloc_usable_size(p);
  for (int i = 0; i < 2; ++i)
    if (g_needle[i] && g_needle_len[i] <= n && memmem(p, n, g_needle[i], g_needle_len[i])) {
      ++g_found;
      if (std::getenv("PQSIG_WIPE_TRAP")) __builtin_trap();
    }
}
void* alloc(std::size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return alloc(n); }
void* operator new[](std::size_t n) { return alloc(n); }
void operator delete(void* p) noexcept {
  scan(p);
  std::free(p);
}
void operator delete[](void* p) noexcept {
  scan(p);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  scan(p);
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  scan(p);
  std::free(p);
}

using namespace pqsig;

namespace {
// Loads `jwk` with scanning on for the secret bytes `secret` and their base64url text.
int leaks_while_loading(const std::string& jwk, const bytes& secret, bool expect_ok) {
  const std::string text = base64url_encode(secret);
  g_needle[0] = secret.data();
  g_needle_len[0] = secret.size();
  g_needle[1] = text.data();
  g_needle_len[1] = text.size();
  g_found = 0;
  g_scan = true;
  {
    auto k = jose::load_jwk(jwk);
    EXPECT_EQ(k.ok(), expect_ok) << (k.ok() ? "" : k.error().what());
  }  // the loaded key (SecretBytes inside) is freed here, wiped
  g_scan = false;
  g_needle[0] = g_needle[1] = nullptr;
  return g_found.load();
}

bytes pattern(std::size_t n, std::uint8_t seed) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + 37 * i + (i >> 3));
  return b;
}
}  // namespace

TEST(SecretWipe, WrongLengthOkpAndEcPrivateKeyIsWiped) {
  // OKP: "d" of 33 bytes (Ed25519 needs 32) → invalid_length, and no copy of d left behind.
  const bytes d33 = pattern(33, 0x5a);
  const std::string okp = R"({"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":")" +
                          base64url_encode(d33) + R"("})";
  EXPECT_EQ(leaks_while_loading(okp, d33, false), 0);
  // EC: "d" of 31 bytes for P-256.
  const bytes d31 = pattern(31, 0xa3);
  const std::string ec = R"({"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",)"
                         R"("y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":")" +
                         base64url_encode(d31) + R"("})";
  EXPECT_EQ(leaks_while_loading(ec, d31, false), 0);
}

TEST(SecretWipe, SuccessfulImportLeavesNoCopies) {
  for (auto id : {"ed25519", "ml-dsa-44", "hmac-sha256"}) {
    const SuiteInfo& s = *find_suite(id).value();
    const bytes priv = pattern(s.private_key_size ? s.private_key_size : 32, 0x11);
    auto k = SigningKey::from_private(s, priv);
    ASSERT_TRUE(k.ok()) << id;
    const std::string jwk = jose::to_jwk(*k, true).value();
    EXPECT_EQ(leaks_while_loading(jwk, priv, true), 0) << id;
  }
}

#endif  // PQSIG_NO_ALLOC_HOOK
