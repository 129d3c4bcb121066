// `pqsig keygen | pubkey | sign | verify` for every signature and MAC suite of the registry.
// Key files are JWKs (AKP / OKP / EC / RSA / oct; PEM PKCS#8 / SPKI accepted where defined).
// Exit codes: 0 valid, 1 invalid signature, 2 usage or input error (one line on stderr).
#include <iostream>
#include <string>

#include "commands.hpp"
#include "keyfile.hpp"
#include "pqsig/canonical.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::cli {

namespace {

struct SigOpts {
  std::string ctx, ctx_hex, prehash, purpose, format = "base64";
  bool deterministic = false;
};

void add_sig_options(CLI::App* c, SigOpts& o, bool signing) {
  auto* ctx = c->add_option("--ctx", o.ctx, "context string (text); ML-DSA / SLH-DSA / composite, <= 255 bytes");
  auto* ctxh = c->add_option("--ctx-hex", o.ctx_hex, "context string as hex");
  ctx->excludes(ctxh);
  c->add_option("--purpose", o.purpose,
                "bind purpose and suite into the context: quote|settlement-instruction|key-rotation|governance|"
                "transport|attestation (context = pqsig/v1/<purpose>/<suite>[:<ctx>])");
  c->add_option("--prehash", o.prehash, "HashML-DSA / HashSLH-DSA pre-hash (SHA2-256, SHA3-512, SHAKE-128, ...)");
  c->add_option("--format", o.format, "signature encoding: raw | hex | base64 (default base64)")
      ->check(CLI::IsMember({"raw", "hex", "base64"}));
  if (signing) c->add_flag("--deterministic", o.deterministic, "deterministic signing (ML-DSA rnd = 0^32, SLH-DSA opt_rand = PK.seed)");
}

// Context and pre-hash for a suite; `ctx_store` owns the bytes the SignOptions point at.
SignOptions make_options(const SigOpts& o, const SuiteInfo& s, bytes& ctx_store) {
  SignOptions opt;
  bytes user;
  if (!o.ctx_hex.empty()) {
    auto h = from_hex(o.ctx_hex);
    if (!h) throw Exit{kExitUsage, "--ctx-hex: " + h.error().message};
    user = std::move(*h);
  } else {
    user.assign(o.ctx.begin(), o.ctx.end());
  }
  if (!o.purpose.empty()) {
    auto p = canonical::parse_purpose(o.purpose);
    if (!p) throw Exit{kExitUsage, "--purpose: " + p.error().message};
    std::string pc = canonical::purpose_context(*p, s);
    ctx_store.assign(pc.begin(), pc.end());
    if (!user.empty()) {
      ctx_store.push_back(':');
      ctx_store.insert(ctx_store.end(), user.begin(), user.end());
    }
  } else {
    ctx_store = std::move(user);
  }
  if (ctx_store.size() > 255) throw Exit{kExitUsage, "context longer than 255 bytes"};
  opt.ctx = ctx_store;
  if (!o.prehash.empty()) {
    const auto* ph = hash::find_prehash(o.prehash);
    if (!ph) throw Exit{kExitUsage, "--prehash: unknown pre-hash '" + o.prehash + "'"};
    opt.prehash = ph->id;
  }
  opt.deterministic = o.deterministic;
  return opt;
}

void refuse_kem(const SuiteInfo& s) {
  if (s.cls == SuiteClass::kem)
    throw Exit{kExitUsage, std::string(s.id) + " is a KEM suite: use `pqsig kem` (encaps / decaps), not sign / verify"};
}

std::string encode_sig(const bytes& sig, const std::string& fmt) {
  if (fmt == "raw") return std::string(sig.begin(), sig.end());
  if (fmt == "hex") return to_hex(sig) + "\n";
  return base64_encode(sig) + "\n";
}

bytes decode_sig(const bytes& file, const std::string& fmt) {
  if (fmt == "raw") return file;
  std::string t(file.begin(), file.end());
  std::string s;
  for (char c : t)
    if (c != '\n' && c != '\r' && c != ' ' && c != '\t') s.push_back(c);
  auto r = fmt == "hex" ? from_hex(s) : base64_decode(s);
  if (!r) throw Exit{kExitUsage, "signature file is not valid " + fmt + " (" + r.error().message + ")"};
  return std::move(*r);
}

}  // namespace

void register_keys(CLI::App& app) {
  // ---------------------------------------------------------------- keygen
  {
    auto* c = app.add_subcommand("keygen", "Generate a key (JWK; private key files are created mode 0600)");
    struct O {
      std::string alg, seed, out;
      bool pem = false, force = false;
    };
    static O o;
    c->add_option("--alg", o.alg, "suite id (see `pqsig suites`), e.g. ml-dsa-65, ml-dsa-65+ed25519, ed25519")->required();
    c->add_option("--seed", o.seed, "private key / seed as hex (deterministic key generation)");
    c->add_option("-o,--out", o.out, "output file, created mode 0600 (default: stdout, never a terminal unless -o -)");
    c->add_flag("--pem", o.pem,
                "write PKCS#8 PEM instead of a JWK (ML-DSA and ML-KEM seed-only form, RFC 9881 / RFC 9935; SLH-DSA, "
                "RFC 9909; Ed25519/Ed448/ECDSA/RSA)");
    c->add_flag("--force", o.force, "replace an existing output file");
    c->callback([] {
      auto s = parse_suite_ref(o.alg);
      if (!s) throw Exit{kExitUsage, s.error().message};
      const SuiteInfo& suite = **s;
      std::string text;
      if (suite.cls == SuiteClass::kem) {
        auto k = [&]() -> Result<KemPrivateKey> {
          if (o.seed.empty()) return KemPrivateKey::generate(suite);
          auto sb = secret_from_hex(o.seed);  // constant time, wiped on every path
          if (!sb) return sb.error();
          return KemPrivateKey::from_private(suite, sb->span());
        }();
        if (!k) throw Exit{kExitUsage, k.error().what()};
        auto j = o.pem ? jose::to_pkcs8_pem(*k) : jose::to_jwk(*k, true);
        if (!j) throw Exit{kExitUsage, j.error().what()};
        text = o.pem ? *j : *j + "\n";
      } else {
        auto k = [&]() -> Result<SigningKey> {
          if (o.seed.empty()) return SigningKey::generate(suite);
          auto sb = secret_from_hex(o.seed);  // constant time, wiped on every path
          if (!sb) return Error{Errc::invalid_encoding, "--seed: " + sb.error().message};
          return SigningKey::from_private(suite, sb->span());
        }();
        if (!k) throw Exit{kExitUsage, k.error().what()};
        auto j = o.pem ? jose::to_pkcs8_pem(*k) : jose::to_jwk(*k, true);
        if (!j) throw Exit{kExitUsage, j.error().what()};
        text = o.pem ? *j : *j + "\n";
      }
      write_output(o.out, text, true, o.force);
      secure_zero(text.data(), text.size());
    });
  }
  // ---------------------------------------------------------------- pubkey
  {
    auto* c = app.add_subcommand("pubkey", "Print the public JWK (kid = RFC 7638 thumbprint) of a key file");
    struct O {
      std::string key, out, suite;
      bool pem = false, thumb = false, force = false;
    };
    static O o;
    c->add_option("key", o.key, "key file (JWK or PEM)")->required();
    c->add_option("-o,--out", o.out, "output file (default: stdout)");
    c->add_option("--suite", o.suite, "suite for keys whose JWK does not name one (RSA / oct without alg)");
    c->add_flag("--pem", o.pem, "SPKI PEM instead of a JWK (ML-DSA, SLH-DSA, ML-KEM, classical suites)");
    c->add_flag("--thumbprint", o.thumb, "print only the RFC 7638 thumbprint");
    c->add_flag("--force", o.force, "replace an existing output file");
    c->callback([] {
      auto k = load_key_file(o.key, o.suite);
      if (o.thumb) {
        write_output(o.out, k.thumbprint + "\n", false, o.force);
        return;
      }
      if (o.pem) {
        byte_span pub = k.verifying ? k.verifying->public_key() : k.kem_public ? k.kem_public->public_key() : byte_span{};
        if (pub.empty()) throw Exit{kExitUsage, "no public key"};
        auto p = jose::to_spki_pem(*k.suite, pub);
        if (!p) throw Exit{kExitUsage, p.error().what()};
        write_output(o.out, *p, false, o.force);
        return;
      }
      auto j = jose::to_jwk(k, false);
      if (!j) throw Exit{kExitUsage, j.error().what()};
      write_output(o.out, *j + "\n", false, o.force);
    });
  }
  // ---------------------------------------------------------------- sign
  {
    auto* c = app.add_subcommand("sign", "Sign a file (or stdin) with a private key file");
    struct O {
      std::string key, out, input, suite;
      SigOpts sig;
      bool force = false;
    };
    static O o;
    c->add_option("--key", o.key, "private key file (JWK or PKCS#8 PEM)")->required();
    c->add_option("--suite", o.suite, "suite for keys whose JWK does not name one (RSA / oct without alg)");
    add_sig_options(c, o.sig, true);
    c->add_option("-o,--out", o.out, "signature file (default: stdout)");
    c->add_flag("--force", o.force, "replace an existing output file");
    c->add_option("input", o.input, "file to sign, or - for stdin")->required();
    c->callback([] {
      auto k = load_key_file(o.key, o.suite);
      refuse_kem(*k.suite);
      if (!k.signing) throw Exit{kExitUsage, "'" + o.key + "' is a public key; signing needs the private key"};
      bytes msg = read_input(o.input);
      bytes ctx;
      SignOptions opt = make_options(o.sig, *k.suite, ctx);
      auto sig = k.signing->sign(msg, opt);
      if (!sig) throw Exit{kExitUsage, "sign: " + sig.error().what()};
      write_output(o.out, encode_sig(*sig, o.sig.format), false, o.force || o.out.empty());
    });
  }
  // ---------------------------------------------------------------- verify
  {
    auto* c = app.add_subcommand("verify", "Verify a signature over a file (or stdin); exit 0 valid, 1 invalid, 2 error");
    struct O {
      std::string key, sig, input, suite;
      SigOpts sig_opts;
      bool quiet = false;
    };
    static O o;
    c->add_option("--key", o.key, "public key file (or the private key file; MAC keys: the shared key)")->required();
    c->add_option("--sig", o.sig, "signature file")->required();
    c->add_option("--suite", o.suite, "suite for keys whose JWK does not name one (RSA / oct without alg)");
    add_sig_options(c, o.sig_opts, false);
    c->add_flag("-q,--quiet", o.quiet, "print nothing on success");
    c->add_option("input", o.input, "signed file, or - for stdin")->required();
    c->callback([] {
      auto k = load_key_file(o.key, o.suite);
      refuse_kem(*k.suite);
      if (o.sig == "-" && o.input == "-") throw Exit{kExitUsage, "signature and input cannot both be stdin"};
      bytes sig = decode_sig(read_input(o.sig), o.sig_opts.format);
      bytes msg = read_input(o.input);
      bytes ctx;
      SignOptions opt = make_options(o.sig_opts, *k.suite, ctx);
      Status st = k.suite->cls == SuiteClass::mac ? k.signing->verify(msg, sig, opt) : k.verifying->verify(msg, sig, opt);
      if (!st) {
        int code = exit_code_for_verify_error(st.error());
        throw Exit{code, (code == kExitInvalid ? "invalid signature: " : "verify: ") + st.error().what()};
      }
      if (!o.quiet) std::cout << "valid (" << k.suite->id << ", kid " << k.thumbprint << ")\n";
    });
  }
}

}  // namespace pqsig::cli
