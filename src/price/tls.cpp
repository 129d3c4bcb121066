// `pqsig price --tls`: full mutual TLS 1.3 handshakes through the libssl this process loads, in
// process: a client and a server SSL object joined by memory BIOs, the bytes pumped between them
// by hand, each side's SSL_do_handshake calls timed on the thread's CPU clock. The certificates
// are made for the run with libcrypto, by algorithm name, so the same binary runs against
// OpenSSL 3.0 (rows it lacks are unavailable, with the reason) and 3.5 (every row).
// docs/price.md, "TLS".
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <time.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>
#include <thread>

#include "pqsig/price_tls.hpp"

namespace pqsig::price {

namespace {

// One certificate algorithm: how libcrypto makes its keys and signs its certificates, and the
// TLS 1.3 SignatureScheme its CertificateVerify must use.
struct TlsCertAlg {
  const char* id;
  const char* keytype;  ///< EVP_PKEY_CTX_new_from_name / EVP_PKEY_is_a
  int rsa_bits;
  const char* ec_group;
  const char* cert_md;  ///< digest of the certificate signatures (nullptr: the algorithm has none)
  const char* scheme;   ///< RFC 8446 §4.2.3 / draft-ietf-tls-mldsa SignatureScheme name
};
constexpr TlsCertAlg kTlsCertAlgs[] = {
    {"rsa-2048", "RSA", 2048, nullptr, "SHA256", "rsa_pss_rsae_sha256"},
    {"ecdsa-p256", "EC", 0, "P-256", "SHA256", "ecdsa_secp256r1_sha256"},
    {"ed25519", "ED25519", 0, nullptr, nullptr, "ed25519"},
    {"ml-dsa-44", "ML-DSA-44", 0, nullptr, nullptr, "mldsa44"},
    {"ml-dsa-65", "ML-DSA-65", 0, nullptr, nullptr, "mldsa65"},
    {"ml-dsa-87", "ML-DSA-87", 0, nullptr, nullptr, "mldsa87"},
};

// One key-exchange group: OpenSSL's name and its TLS NamedGroup code point (IANA).
struct TlsGroupInfo {
  const char* name;
  int codepoint;
};
constexpr TlsGroupInfo kTlsGroups[] = {{"X25519", 0x001d}, {"X25519MLKEM768", 0x11ec}, {"MLKEM768", 0x0201}};

constexpr const char* kTlsServerName = "server.pqsig.test";
constexpr const char* kTlsClientName = "client.pqsig.test";
// libssl reports a group without a NID as this bit | its code point (ssl/t1_lib.c).
constexpr int kTlsNidUnknownBit = 0x1000000;

struct TlsPkeyFree { void operator()(EVP_PKEY* p) const noexcept { EVP_PKEY_free(p); } };
struct TlsPkeyCtxFree { void operator()(EVP_PKEY_CTX* p) const noexcept { EVP_PKEY_CTX_free(p); } };
struct TlsX509Free { void operator()(X509* p) const noexcept { X509_free(p); } };
struct TlsCtxFree { void operator()(SSL_CTX* p) const noexcept { SSL_CTX_free(p); } };
struct TlsSslFree { void operator()(SSL* p) const noexcept { SSL_free(p); } };
using TlsPkey = std::unique_ptr<EVP_PKEY, TlsPkeyFree>;
using TlsX509 = std::unique_ptr<X509, TlsX509Free>;
using TlsCtx = std::unique_ptr<SSL_CTX, TlsCtxFree>;
using TlsSsl = std::unique_ptr<SSL, TlsSslFree>;

std::string tls_libssl_version() { return OpenSSL_version(OPENSSL_VERSION); }

// The OpenSSL error queue as one line (and emptied), for error rows.
std::string tls_ossl_errors() {
  std::string out;
  unsigned long e;
  char buf[256];
  while ((e = ERR_get_error()) != 0) {
    ERR_error_string_n(e, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out.empty() ? std::string("no OpenSSL error recorded") : out;
}

Error tls_fail(const std::string& what) { return Error{Errc::crypto_backend, what + ": " + tls_ossl_errors()}; }

double tls_thread_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

const TlsCertAlg* tls_cert_alg(std::string_view id) {
  for (const auto& a : kTlsCertAlgs)
    if (id == a.id) return &a;
  return nullptr;
}
const TlsGroupInfo* tls_group_info(std::string_view name) {
  for (const auto& g : kTlsGroups)
    if (name == g.name) return &g;
  return nullptr;
}

bool tls_iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// "a,b" against a known list: display order, `all` / empty = everything; matches ignoring case.
Result<std::vector<std::string>> tls_parse_list(std::string_view list, const std::vector<std::string>& known,
                                                const char* what) {
  std::vector<bool> chosen(known.size(), false);
  bool any = false;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t comma = list.find(',', pos);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view item = list.substr(pos, comma - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    pos = comma + 1;
    if (item.empty()) continue;
    any = true;
    if (tls_iequal(item, "all")) {
      std::fill(chosen.begin(), chosen.end(), true);
      continue;
    }
    bool found = false;
    for (std::size_t i = 0; i < known.size(); ++i)
      if (tls_iequal(item, known[i])) chosen[i] = found = true;
    if (!found) {
      std::string k;
      for (const auto& n : known) k += (k.empty() ? "" : ", ") + n;
      return Error{Errc::invalid_argument, "unknown TLS " + std::string(what) + " '" + std::string(item) +
                                               "' (known: " + k + ", all)"};
    }
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < known.size(); ++i)
    if (chosen[i] || !any) out.push_back(known[i]);
  return out;
}

// ------------------------------------------------------------ keys and certificates
Result<TlsPkey> tls_keygen(const TlsCertAlg& a) {
  std::unique_ptr<EVP_PKEY_CTX, TlsPkeyCtxFree> ctx(EVP_PKEY_CTX_new_from_name(nullptr, a.keytype, nullptr));
  if (!ctx) {
    ERR_clear_error();
    return Error{Errc::unsupported, "the loaded libcrypto (" + tls_libssl_version() + ") has no " + a.keytype +
                                        " keys (OpenSSL >= 3.5 has ML-DSA)"};
  }
  if (EVP_PKEY_keygen_init(ctx.get()) <= 0) return tls_fail(std::string(a.keytype) + " keygen init");
  if (a.rsa_bits && EVP_PKEY_CTX_set_rsa_keygen_bits(ctx.get(), a.rsa_bits) <= 0) return tls_fail("RSA bits");
  if (a.ec_group && EVP_PKEY_CTX_set_group_name(ctx.get(), a.ec_group) <= 0) return tls_fail("EC group");
  EVP_PKEY* k = nullptr;
  if (EVP_PKEY_generate(ctx.get(), &k) <= 0 || !k) return tls_fail(std::string(a.keytype) + " keygen");
  return TlsPkey(k);
}

bool tls_add_ext(X509* cert, X509V3_CTX* v, int nid, const char* value) {
  X509_EXTENSION* e = X509V3_EXT_conf_nid(nullptr, v, nid, value);
  if (!e) return false;
  const int ok = X509_add_ext(cert, e, -1);
  X509_EXTENSION_free(e);
  return ok == 1;
}

// An X.509 v3 certificate for `key`, issued by issuer (nullptr: self-signed) with issuer_key.
// A CA gets basicConstraints CA:TRUE and keyCertSign; a leaf CA:FALSE, digitalSignature, the
// serverAuth + clientAuth purposes and a DNS subjectAltName.
Result<TlsX509> tls_make_cert(const TlsCertAlg& a, EVP_PKEY* key, const std::string& cn, X509* issuer,
                              EVP_PKEY* issuer_key, const char* dns_name, long serial) {
  TlsX509 x(X509_new());
  if (!x) return tls_fail("X509_new");
  X509* c = x.get();
  if (X509_set_version(c, 2) != 1 || ASN1_INTEGER_set(X509_get_serialNumber(c), serial) != 1 ||
      !X509_gmtime_adj(X509_getm_notBefore(c), -3600) || !X509_gmtime_adj(X509_getm_notAfter(c), 86400))
    return tls_fail("certificate fields");
  X509_NAME* name = X509_get_subject_name(c);
  if (X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("pqsig price"), -1,
                                 -1, 0) != 1 ||
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn.c_str()), -1,
                                 -1, 0) != 1)
    return tls_fail("certificate name");
  if (X509_set_issuer_name(c, issuer ? X509_get_subject_name(issuer) : name) != 1 || X509_set_pubkey(c, key) != 1)
    return tls_fail("certificate issuer / key");
  X509V3_CTX v;
  X509V3_set_ctx(&v, issuer ? issuer : c, c, nullptr, nullptr, 0);
  const bool ca = dns_name == nullptr;
  bool ok = tls_add_ext(c, &v, NID_basic_constraints, ca ? "critical,CA:TRUE" : "critical,CA:FALSE") &&
            tls_add_ext(c, &v, NID_key_usage, ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature") &&
            tls_add_ext(c, &v, NID_subject_key_identifier, "hash");
  if (ok && issuer) ok = tls_add_ext(c, &v, NID_authority_key_identifier, "keyid:always");
  if (ok && !ca) {
    const std::string san = std::string("DNS:") + dns_name;
    ok = tls_add_ext(c, &v, NID_ext_key_usage, "serverAuth,clientAuth") &&
         tls_add_ext(c, &v, NID_subject_alt_name, san.c_str());
  }
  if (!ok) return tls_fail("certificate extensions");
  const EVP_MD* md = a.cert_md ? EVP_get_digestbyname(a.cert_md) : nullptr;
  if (X509_sign(c, issuer_key ? issuer_key : key, md) <= 0) return tls_fail(std::string("signing a ") + a.id + " certificate");
  return x;
}

std::size_t tls_der_size(X509* c) {
  const int n = i2d_X509(c, nullptr);
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

// One algorithm's certificates: a root (trusted by both sides, never sent), `depth`
// intermediates, and a server and a client leaf with their keys.
struct TlsCreds {
  TlsPkey root_key;
  TlsX509 root;
  std::vector<TlsPkey> inter_keys;
  std::vector<TlsX509> inters;  ///< inters[0] issued by the root, each next by the one before
  TlsPkey server_key, client_key;
  TlsX509 server_leaf, client_leaf;
  std::size_t chain_server = 0, chain_client = 0;  ///< DER bytes each side sends
};

Result<TlsCreds> tls_make_creds(const TlsCertAlg& a, std::size_t depth) {
  TlsCreds cr;
  long serial = 1;
  auto rk = tls_keygen(a);
  if (!rk) return rk.error();
  cr.root_key = std::move(rk.value());
  auto root = tls_make_cert(a, cr.root_key.get(), std::string("pqsig price ") + a.id + " root", nullptr, nullptr,
                            nullptr, serial++);
  if (!root) return root.error();
  cr.root = std::move(root.value());
  X509* issuer = cr.root.get();
  EVP_PKEY* issuer_key = cr.root_key.get();
  for (std::size_t i = 0; i < depth; ++i) {
    auto k = tls_keygen(a);
    if (!k) return k.error();
    auto c = tls_make_cert(a, k->get(), std::string("pqsig price ") + a.id + " intermediate " + std::to_string(i + 1),
                           issuer, issuer_key, nullptr, serial++);
    if (!c) return c.error();
    cr.inter_keys.push_back(std::move(k.value()));
    cr.inters.push_back(std::move(c.value()));
    issuer = cr.inters.back().get();
    issuer_key = cr.inter_keys.back().get();
  }
  auto sk = tls_keygen(a);
  auto ck = tls_keygen(a);
  if (!sk) return sk.error();
  if (!ck) return ck.error();
  cr.server_key = std::move(sk.value());
  cr.client_key = std::move(ck.value());
  auto sl = tls_make_cert(a, cr.server_key.get(), kTlsServerName, issuer, issuer_key, kTlsServerName, serial++);
  if (!sl) return sl.error();
  auto cl = tls_make_cert(a, cr.client_key.get(), kTlsClientName, issuer, issuer_key, kTlsClientName, serial++);
  if (!cl) return cl.error();
  cr.server_leaf = std::move(sl.value());
  cr.client_leaf = std::move(cl.value());
  std::size_t inter_bytes = 0;
  for (const auto& c : cr.inters) inter_bytes += tls_der_size(c.get());
  cr.chain_server = tls_der_size(cr.server_leaf.get()) + inter_bytes;
  cr.chain_client = tls_der_size(cr.client_leaf.get()) + inter_bytes;
  return cr;
}

// ------------------------------------------------------------ contexts and one handshake
// A TLS 1.3-only context holding one side's leaf, key and intermediates, trusting the root,
// demanding and verifying the peer's certificate, offering exactly `group`, no tickets, no cache.
Result<TlsCtx> tls_make_ctx(bool server, const TlsCreds& cr, X509* leaf, EVP_PKEY* key, const char* group) {
  TlsCtx ctx(SSL_CTX_new(server ? TLS_server_method() : TLS_client_method()));
  if (!ctx) return tls_fail("SSL_CTX_new");
  SSL_CTX* c = ctx.get();
  if (SSL_CTX_set_min_proto_version(c, TLS1_3_VERSION) != 1 || SSL_CTX_set_max_proto_version(c, TLS1_3_VERSION) != 1)
    return tls_fail("TLS 1.3 only");
  if (SSL_CTX_use_certificate(c, leaf) != 1 || SSL_CTX_use_PrivateKey(c, key) != 1 || SSL_CTX_check_private_key(c) != 1)
    return tls_fail("certificate / key");
  for (auto it = cr.inters.rbegin(); it != cr.inters.rend(); ++it)  // leaf's issuer first
    if (SSL_CTX_add1_chain_cert(c, it->get()) != 1) return tls_fail("chain certificate");
  // Send exactly the leaf and the intermediates: without this, a chain-less leaf (depth 0) would
  // be completed from the trust store and the root sent too.
  SSL_CTX_set_mode(c, SSL_MODE_NO_AUTO_CHAIN);
  if (X509_STORE_add_cert(SSL_CTX_get_cert_store(c), cr.root.get()) != 1) return tls_fail("trust store");
  SSL_CTX_set_verify(c, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  if (SSL_CTX_set1_groups_list(c, group) != 1) return tls_fail(std::string("group ") + group);
  SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
  SSL_CTX_set_options(c, SSL_OP_NO_TICKET);
  if (server && SSL_CTX_set_num_tickets(c, 0) != 1) return tls_fail("no tickets");
  return ctx;
}

// Moves everything `from` holds into `to`; returns the byte count (-1 on a failed write).
long tls_pump(BIO* from, BIO* to) {
  char buf[16384];
  long total = 0;
  int n;
  while ((n = BIO_read(from, buf, sizeof buf)) > 0) {
    if (BIO_write(to, buf, n) != n) return -1;
    total += n;
  }
  return total;
}

struct TlsSample {
  double client_ns = 0, server_ns = 0;
  std::size_t c2s = 0, s2c = 0;
};

// What a handshake of one row must have negotiated.
struct TlsExpect {
  const TlsCertAlg* alg;
  const TlsGroupInfo* group;
  int sig_nid;    ///< SSL_get_peer_signature_type_nid of the row's scheme
  int group_nid;  ///< SSL_get_negotiated_group of the row's group
};

using TlsGroupNameFn = const char* (*)(const SSL*);
// SSL_get0_group_name (OpenSSL >= 3.2), looked up at run time: this file builds against 3.0.
TlsGroupNameFn tls_group_name_fn() {
  static const TlsGroupNameFn fn = [] {
    TlsGroupNameFn f = nullptr;
    void* p = dlsym(RTLD_DEFAULT, "SSL_get0_group_name");
    static_assert(sizeof p == sizeof f);
    if (p) std::memcpy(&f, &p, sizeof f);
    return f;
  }();
  return fn;
}

std::string tls_nid_name(int nid) {
  if (nid & kTlsNidUnknownBit) {
    char b[32];
    std::snprintf(b, sizeof b, "group 0x%04x", nid & 0xffff);
    return b;
  }
  const char* sn = nid != NID_undef ? OBJ_nid2sn(nid) : nullptr;
  return sn ? sn : "NID " + std::to_string(nid);
}

// Checks one finished side: TLS 1.3, a verified peer certificate of the row's key type, the
// row's group and the row's signature scheme in the peer's CertificateVerify, no resumption.
Status tls_check_side(SSL* s, const char* side, const TlsExpect& ex) {
  const std::string who(side);
  if (SSL_version(s) != TLS1_3_VERSION) return Error{Errc::policy, who + ": negotiated " + SSL_get_version(s) + ", not TLS 1.3"};
  if (SSL_session_reused(s)) return Error{Errc::policy, who + ": the session was resumed (a full handshake was wanted)"};
  const long vr = SSL_get_verify_result(s);
  if (vr != X509_V_OK)
    return Error{Errc::verify_failed, who + ": peer certificate not verified: " + X509_verify_cert_error_string(vr)};
  X509* peer = SSL_get0_peer_certificate(s);
  EVP_PKEY* pk = peer ? X509_get0_pubkey(peer) : nullptr;
  if (!pk) return Error{Errc::verify_failed, who + ": no peer certificate"};
  if (!EVP_PKEY_is_a(pk, ex.alg->keytype))
    return Error{Errc::policy, who + ": the peer's certificate key is " + EVP_PKEY_get0_type_name(pk) + ", not " +
                                   ex.alg->keytype};
  const int g = SSL_get_negotiated_group(s);
  if (g != ex.group_nid)
    return Error{Errc::policy, who + ": negotiated " + tls_nid_name(g) + ", not " + ex.group->name};
  if (auto fn = tls_group_name_fn()) {
    const char* gn = fn(s);
    if (!gn || !tls_iequal(gn, ex.group->name))
      return Error{Errc::policy, who + ": libssl names the group " + (gn ? gn : "(none)") + ", not " + ex.group->name};
  }
  int sig = NID_undef;
  if (SSL_get_peer_signature_type_nid(s, &sig) != 1 || sig != ex.sig_nid)
    return Error{Errc::policy, who + ": the peer signed with " + tls_nid_name(sig) + ", not " + ex.alg->scheme};
  if (ex.alg->cert_md) {  // RSA-PSS / ECDSA: the scheme's hash is SHA-256 too
    int md = NID_undef;
    if (SSL_get_peer_signature_nid(s, &md) != 1 || md != NID_sha256)
      return Error{Errc::policy, who + ": the peer signed with hash " + tls_nid_name(md) + ", not " + ex.alg->scheme};
  }
  return {};
}

// One full mutual handshake between fresh SSL objects of the two contexts.
Result<TlsSample> tls_handshake(SSL_CTX* cctx, SSL_CTX* sctx, const TlsExpect& ex) {
  TlsSsl c(SSL_new(cctx)), s(SSL_new(sctx));
  if (!c || !s) return tls_fail("SSL_new");
  BIO* c_in = BIO_new(BIO_s_mem());
  BIO* c_out = BIO_new(BIO_s_mem());
  BIO* s_in = BIO_new(BIO_s_mem());
  BIO* s_out = BIO_new(BIO_s_mem());
  if (!c_in || !c_out || !s_in || !s_out) {
    BIO_free(c_in), BIO_free(c_out), BIO_free(s_in), BIO_free(s_out);
    return tls_fail("BIO_new");
  }
  SSL_set_bio(c.get(), c_in, c_out);  // the SSL objects own the BIOs from here
  SSL_set_bio(s.get(), s_in, s_out);
  SSL_set_connect_state(c.get());
  SSL_set_accept_state(s.get());
  if (SSL_set_tlsext_host_name(c.get(), kTlsServerName) != 1 || SSL_set1_host(c.get(), kTlsServerName) != 1)
    return tls_fail("server name");
  TlsSample out;
  bool cdone = false, sdone = false;
  // One side's step: its SSL_do_handshake call on the thread's CPU clock.
  auto step = [](SSL* ssl, double& ns, bool& done, const char* side) -> Status {
    const double t0 = tls_thread_ns();
    const int rc = SSL_do_handshake(ssl);
    ns += tls_thread_ns() - t0;
    if (rc == 1) {
      done = true;
      return {};
    }
    const int e = SSL_get_error(ssl, rc);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return {};
    return tls_fail(std::string(side) + " handshake");
  };
  // A TLS 1.3 mutual handshake is 2 round trips; the bound only stops a stalled exchange.
  for (int round = 0; round < 16 && !(cdone && sdone); ++round) {
    if (!cdone)
      if (auto st = step(c.get(), out.client_ns, cdone, "client"); !st) return st.error();
    const long a = tls_pump(c_out, s_in);
    if (!sdone)
      if (auto st = step(s.get(), out.server_ns, sdone, "server"); !st) return st.error();
    const long b = tls_pump(s_out, c_in);
    if (a < 0 || b < 0) return tls_fail("memory BIO");
    out.c2s += static_cast<std::size_t>(a);
    out.s2c += static_cast<std::size_t>(b);
    if (a == 0 && b == 0 && !(cdone && sdone) && round > 0)
      return Error{Errc::internal, "the handshake stalled (no bytes moved, not finished)"};
  }
  if (!(cdone && sdone)) return Error{Errc::internal, "the handshake did not finish in 16 exchanges"};
  if (BIO_ctrl_pending(c_in) != 0 || BIO_ctrl_pending(s_in) != 0)
    return Error{Errc::internal, "bytes left unread after the handshake"};
  if (auto st = tls_check_side(c.get(), "client", ex); !st) return st.error();
  if (auto st = tls_check_side(s.get(), "server", ex); !st) return st.error();
  return out;
}

int tls_expected_sig_nid(const TlsCertAlg& a) {
  if (std::strcmp(a.keytype, "RSA") == 0) return EVP_PKEY_RSA_PSS;  // TLS 1.3 signs RSA keys with PSS
  if (std::strcmp(a.keytype, "EC") == 0) return EVP_PKEY_EC;
  return OBJ_txt2nid(a.keytype);  // ED25519; ML-DSA-xx (OpenSSL 3.5 names the scheme's NID so)
}
int tls_expected_group_nid(const TlsGroupInfo& g) {
  const int nid = OBJ_sn2nid(g.name);
  return nid != NID_undef ? nid : (kTlsNidUnknownBit | g.codepoint);
}

std::string tls_group_unavailable(const char* group) {
  TlsCtx probe(SSL_CTX_new(TLS_client_method()));
  if (!probe) return "SSL_CTX_new failed: " + tls_ossl_errors();
  if (SSL_CTX_set1_groups_list(probe.get(), group) == 1) return "";
  ERR_clear_error();
  return "the loaded libssl (" + tls_libssl_version() + ") has no group " + group + " (OpenSSL >= 3.5 has ML-KEM)";
}

std::size_t tls_median_size(std::vector<std::size_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string tls_date_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

}  // namespace

const std::vector<std::string>& tls_cert_names() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> n;
    for (const auto& a : kTlsCertAlgs) n.emplace_back(a.id);
    return n;
  }();
  return v;
}

const std::vector<std::string>& tls_group_names() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> n;
    for (const auto& g : kTlsGroups) n.emplace_back(g.name);
    return n;
  }();
  return v;
}

Result<std::vector<std::string>> parse_tls_certs(std::string_view list) {
  return tls_parse_list(list, tls_cert_names(), "certificate algorithm");
}
Result<std::vector<std::string>> parse_tls_groups(std::string_view list) {
  return tls_parse_list(list, tls_group_names(), "group");
}

TlsOptions tls_options_from_workload(const TlsWorkload& w) {
  TlsOptions o;
  o.certs = w.certs;
  o.groups = w.groups;
  o.per_round = w.handshakes_per_round;
  o.parties = w.parties;
  o.budget_ms = w.latency_budget_ms;
  o.chain_depth = w.chain_depth;
  return o;
}

const TlsRow* TlsReport::anchor() const noexcept {
  for (const auto& r : rows)
    if (r.cert == options.anchor_cert && r.group == options.anchor_group && r.state == TlsRowState::ok &&
        r.handshakes > 0)
      return &r;
  return nullptr;
}

TlsReport measure_tls(const TlsOptions& o, const std::function<void(const std::string&)>& progress) {
  TlsReport rep;
  rep.options = o;
  if (rep.options.certs.empty()) rep.options.certs = tls_cert_names();
  if (rep.options.groups.empty()) rep.options.groups = tls_group_names();
  rep.libssl_version = tls_libssl_version();
  rep.cores = std::max(1u, std::thread::hardware_concurrency());
  rep.date_utc = tls_date_utc();
  const LoadSnapshot load = sample_load();
  for (int i = 0; i < 3; ++i) rep.loadavg_before[i] = load.loadavg[static_cast<std::size_t>(i)];
  const auto t0 = std::chrono::steady_clock::now();
  auto cancelled = [&] { return o.cancel && o.cancel->load(); };

  for (const auto& cert : rep.options.certs) {
    const TlsCertAlg* alg = tls_cert_alg(cert);
    // The certificates of one algorithm serve all its groups; made only when a group can run.
    std::optional<Result<TlsCreds>> creds;
    for (const auto& group : rep.options.groups) {
      TlsRow row;
      row.cert = cert;
      row.group = group;
      const TlsGroupInfo* gi = tls_group_info(group);
      if (!alg || !gi) {
        row.state = TlsRowState::error;
        row.reason = "unknown certificate algorithm or group";
        rep.rows.push_back(std::move(row));
        continue;
      }
      if (cancelled()) {
        rep.interrupted = true;
        row.reason = "interrupted before this row";
        rep.rows.push_back(std::move(row));
        continue;
      }
      if (progress) progress(cert + " x " + group);
      const std::string group_missing = tls_group_unavailable(gi->name);
      if (!creds) creds.emplace(tls_make_creds(*alg, o.chain_depth));
      const Result<TlsCreds>& cr = *creds;
      if (!cr && cr.error().code == Errc::unsupported) {
        row.reason = cr.error().message + (group_missing.empty() ? "" : "; " + group_missing);
        rep.rows.push_back(std::move(row));
        continue;
      }
      if (!group_missing.empty()) {
        row.reason = group_missing;
        rep.rows.push_back(std::move(row));
        continue;
      }
      if (!cr) {
        row.state = TlsRowState::error;
        row.reason = "certificates: " + cr.error().message;
        rep.rows.push_back(std::move(row));
        continue;
      }
      row.chain_bytes_server = cr->chain_server;
      row.chain_bytes_client = cr->chain_client;
      auto sctx = tls_make_ctx(true, *cr, cr->server_leaf.get(), cr->server_key.get(), gi->name);
      auto cctx = tls_make_ctx(false, *cr, cr->client_leaf.get(), cr->client_key.get(), gi->name);
      if (!sctx || !cctx) {
        row.state = TlsRowState::error;
        row.reason = "context: " + (!sctx ? sctx.error().message : cctx.error().message);
        rep.rows.push_back(std::move(row));
        continue;
      }
      const TlsExpect ex{alg, gi, tls_expected_sig_nid(*alg), tls_expected_group_nid(*gi)};
      std::vector<double> cl, sv, tot;
      std::vector<std::size_t> c2s, s2c;
      row.state = TlsRowState::ok;
      for (std::size_t i = 0; i < o.warmup + o.handshakes; ++i) {
        if (cancelled()) {
          rep.interrupted = true;
          break;
        }
        auto hs = tls_handshake(cctx->get(), sctx->get(), ex);
        if (!hs) {
          row.state = TlsRowState::error;
          row.reason = "handshake " + std::to_string(i + 1) + ": " + hs.error().message;
          break;
        }
        if (i < o.warmup) continue;
        cl.push_back(hs->client_ns);
        sv.push_back(hs->server_ns);
        tot.push_back(hs->client_ns + hs->server_ns);
        c2s.push_back(hs->c2s);
        s2c.push_back(hs->s2c);
      }
      ERR_clear_error();
      if (row.state == TlsRowState::ok && cl.empty()) {
        row.state = TlsRowState::unavailable;
        row.reason = "interrupted before a handshake was measured";
      }
      if (row.state == TlsRowState::ok) {
        row.handshakes = cl.size();
        row.client = compute_stats(std::move(cl));
        row.server = compute_stats(std::move(sv));
        row.total = compute_stats(std::move(tot));
        row.bytes_c2s = tls_median_size(std::move(c2s));
        row.bytes_s2c = tls_median_size(std::move(s2c));
        row.negotiated_group = gi->name;
        row.server_sigalg = row.client_sigalg = alg->scheme;
      }
      rep.rows.push_back(std::move(row));
    }
  }
  rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  analyze_tls(rep);
  return rep;
}

void analyze_tls(TlsReport& r) {
  const auto& o = r.options;
  const std::size_t parties = std::max<std::size_t>(1, o.parties);
  r.party_handshakes = (2 * o.per_round + parties - 1) / parties;
  for (auto& row : r.rows) {
    if (row.state != TlsRowState::ok) continue;
    row.round_cpu_ms = static_cast<double>(o.per_round) * row.total.mean_ns / 1e6;
    row.party_ms = static_cast<double>(r.party_handshakes) * row.total.mean_ns / 1e6;
    row.party_ms_p90 = static_cast<double>(r.party_handshakes) * row.total.p90_ns / 1e6;
  }
  const TlsRow* a = r.anchor();
  for (auto& row : r.rows) {
    row.has_anchor = false;
    if (row.state != TlsRowState::ok || !a) continue;
    row.has_anchor = true;
    row.added_party_ms = row.party_ms - a->party_ms;
    row.added_round_cpu_ms = row.round_cpu_ms - a->round_cpu_ms;
    row.fits_budget = row.added_party_ms <= o.budget_ms;
  }
}

}  // namespace pqsig::price
