// `pqsig hbs keygen | sign | verify | status | reserve` — LMS / HSS and XMSS / XMSS^MT stateful
// hash-based signatures (include/pqsig/lms.hpp, include/pqsig/xmss.hpp). XMSS keys use the same
// state file, audit log and reservation rules (lms::StateStore). A thin front end: key generation, signing, the state file and its
// audit log are the library's (lms::HssPrivateKey, lms::StatefulSigner, lms::StateStore).
//
//   pqsig hbs keygen --alg lms-sha256-m32-h10-w8 -o key.hss [--pub key.pub] [--state FILE] [--force]
//       private key (mode 0600) + state file (default <key>.state) + audit log (<state>.log);
//       the public key (hex) to --pub or stdout
//   pqsig hbs sign --key key.hss [--state FILE] [-i msg|-] [-o sig] [--block N] [--format hex|base64]
//       reserves an index (synced to disk first), signs, verifies its own signature, logs (index, SHA-256(msg))
//   pqsig hbs keygen --alg XMSS-SHA2_10_256 | XMSSMT-SHA2_20/2_256 ... (RFC 8391 / SP 800-208 names)
//   pqsig hbs verify --pub key.pub --sig sig [-i msg|-] [--format hex|base64] [--family lms|xmss|xmssmt]
//       exit 0 valid, 1 invalid
//   pqsig hbs sign-cose --key key.hss [-i payload] [-o msg.cose] [--kid T|--kid-hex H] [--detached] [--untagged]
//   pqsig hbs verify-cose --pub key.pub|--cose-key key.cose --msg msg.cose [--payload F] [-o payload]
//       COSE_Sign1 with alg HSS-LMS (-46): RFC 9052 §4.2, RFC 8778 §3 (HSS keys only)
//   pqsig hbs status --pub key.pub --state FILE      remaining signatures, reservation, checks
//       (or --key FILE: a delegated key's own state is keyed by the delegate, not the public key)
//   pqsig hbs export-subtree --key key.hss [--state FILE] --subtrees A:B -o delegate.hss [--delegate-state FILE]
//       HSS: a delegated key holding level-1 subtrees [A, B) only (no top SEED); their indices are burnt in
//       the key's state first; `hbs sign --key delegate.hss` signs with it in its own state
//   pqsig hbs reserve --pub key.pub --state FILE --count N   reserve (burn) N indices, print the range
//   pqsig hbs audit --pub key.pub|--key delegate --state FILE   audit log: no index twice, each inside a reservation
//   pqsig hbs fleet-init --pub key.pub --state FILE --lease-store postgresql://...   register the key in the store
//   pqsig hbs fleet-join --pub key.pub --state NEW --lease-store postgresql://...    another machine's state file
//   sign / reserve / status --lease-store URL [--signer NAME] [--align-subtree]: fleet mode, indices leased
//       from the shared store (pqsig/hbs_fleet.hpp, src/client) and persisted in the local state first
// Exit codes: 0 ok / valid, 1 invalid signature or key exhausted, 2 usage, input or state error.
#include <cctype>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "io.hpp"
#include "pqsig/cose.hpp"
#include "pqsig/hbs_fleet.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/xmss.hpp"

namespace pqsig::cli {
namespace {

constexpr std::string_view kKeyHeader = "pqsig-hss-private-key 1\n";
constexpr std::string_view kXmssKeyHeader = "pqsig-xmss-private-key 1\n";
constexpr std::string_view kDelegateKeyHeader = "pqsig-hss-delegated-key 1\n";
// A delegated key of up to lms::DelegatedKey::kMaxEncodedBytes, base64url, plus its header.
constexpr std::size_t kDelegateKeyFileLimit = lms::DelegatedKey::kMaxEncodedBytes / 3 * 4 + 4096;

enum class HbsKeyFile { hss, xmss, delegated };

template <class T>
T take_hbs(Result<T> r, const std::string& what) {
  if (!r) throw Exit{r.error().code == Errc::key_exhausted ? kExitInvalid : kExitUsage, what + ": " + r.error().what()};
  return std::move(r.value());
}
void check_hbs(const Status& s, const std::string& what) {
  if (!s) throw Exit{s.error().code == Errc::key_exhausted ? kExitInvalid : kExitUsage, what + ": " + s.error().what()};
}

std::string strip_ws(const std::string& t) {
  std::string r;
  for (char c : t)
    if (!std::isspace(static_cast<unsigned char>(c))) r.push_back(c);
  return r;
}

bytes decode_text(const std::string& text, const std::string& fmt, const std::string& what) {
  const std::string t = strip_ws(text);
  auto r = fmt == "base64" ? base64_decode(t) : from_hex(t);
  if (!r) throw Exit{kExitUsage, what + ": " + r.error().what()};
  return std::move(r.value());
}

std::string encode_text(byte_span b, const std::string& fmt) { return fmt == "base64" ? base64_encode(b) : to_hex(b); }

// Reads a private key file: its header line, and the decoded key bytes.
SecretBytes load_private_key_bytes(const std::string& path, HbsKeyFile& kind) {
  io::check_private_key_file(path);
  std::string text = io::read_file(path, kDelegateKeyFileLimit);
  std::size_t skip = 0;
  if (text.rfind(kKeyHeader, 0) == 0) {
    kind = HbsKeyFile::hss;
    skip = kKeyHeader.size();
  } else if (text.rfind(kXmssKeyHeader, 0) == 0) {
    kind = HbsKeyFile::xmss;
    skip = kXmssKeyHeader.size();
  } else if (text.rfind(kDelegateKeyHeader, 0) == 0) {
    kind = HbsKeyFile::delegated;
    skip = kDelegateKeyHeader.size();
  } else {
    secure_zero(text.data(), text.size());
    throw Exit{kExitUsage, path + ": not a pqsig HSS, delegated HSS or XMSS private key"};
  }
  auto raw = secret_base64url_decode(strip_ws(text.substr(skip)));
  secure_zero(text.data(), text.size());
  if (!raw) throw Exit{kExitUsage, path + ": " + raw.error().what()};
  return std::move(*raw);
}

std::string state_path_for(const std::string& state, const std::string& key) {
  if (!state.empty()) return state;
  if (key.empty() || key == "-") throw Exit{kExitUsage, "--state is needed when the key is not a file"};
  return key + ".state";
}

std::shared_ptr<client::PgLeaseSource> open_lease_store(const std::string& url) {
  return take_hbs(client::PgLeaseSource::open(url), "--lease-store");
}

// What a state file is keyed by: the HSS public key (--pub), or a delegated key's identity (--key;
// its range is printed when `show`).
bytes state_key_for(const std::string& pub, const std::string& key, bool show) {
  if (pub.empty() == key.empty()) throw Exit{kExitUsage, "give --pub or (a delegated key) --key"};
  if (key.empty()) return decode_text(io::read_file(pub, 1 << 16), "hex", pub);
  HbsKeyFile kind = HbsKeyFile::hss;
  const SecretBytes raw = load_private_key_bytes(key, kind);
  if (kind != HbsKeyFile::delegated) throw Exit{kExitUsage, key + ": --key takes a delegated key; use --pub"};
  auto del = take_hbs(lms::DelegatedKey::parse(raw.span()), key);
  if (show)
    std::cout << "delegated subtrees " << del.first_subtree() << " " << del.end_subtree() << "\nindices "
              << del.first_index() << " " << del.end_index() << "\n";
  return del.state_identity();
}

constexpr const char* kLeaseStoreHelp =
    "fleet mode: lease indices from this PostgreSQL store (postgresql://user@host:port/db or a libpq "
    "connection string; see docs/lms.md, Fleet)";
constexpr const char* kSignerHelp =
    "this signer's name in the lease store (default: <hostname>:<absolute state path>)";

// ---- sign-cose / verify-cose: COSE_Sign1 with alg HSS-LMS (-46), RFC 9052 §4.2 + RFC 8778 §3
// (pqsig/cose.hpp; docs/lms.md, "COSE_Sign1"). HSS keys only: no COSE (or JOSE) algorithm exists
// for XMSS. Signing goes through lms::StatefulSigner like `hbs sign`.
void register_hbs_cose(CLI::App* hbs) {
  struct CoseSignOpts {
    std::string key, state, in = "-", out, kid, kid_hex;
    std::uint64_t block = 1;
    bool detached = false, untagged = false;
  };
  static CoseSignOpts cs;
  auto* sign = hbs->add_subcommand("sign-cose", "sign a payload into a COSE_Sign1 message (alg HSS-LMS, RFC 8778) at the next unused index");
  sign->add_option("--key", cs.key, "HSS private key file, or a delegated key (hbs export-subtree)")->required();
  sign->add_option("--state", cs.state, "state file (default: <key>.state)");
  sign->add_option("-i,--in", cs.in, "payload file (default: stdin)");
  sign->add_option("-o,--out", cs.out, "COSE_Sign1 output, binary CBOR (default: stdout)");
  sign->add_option("--kid", cs.kid, "key identifier for the unprotected header, as text bytes");
  sign->add_option("--kid-hex", cs.kid_hex, "key identifier for the unprotected header, hex");
  sign->add_option("--block", cs.block, "indices reserved per state write (default 1)");
  sign->add_flag("--detached", cs.detached, "leave the payload out of the message (nil); the verifier supplies it");
  sign->add_flag("--untagged", cs.untagged, "omit the COSE_Sign1 CBOR tag 18");
  sign->callback([] {
    io::refuse_existing(cs.out, false);
    if (!cs.kid.empty() && !cs.kid_hex.empty()) throw Exit{kExitUsage, "--kid and --kid-hex: give one"};
    const std::string payload = io::read_file(cs.in);
    HbsKeyFile kind = HbsKeyFile::hss;
    const SecretBytes raw = load_private_key_bytes(cs.key, kind);
    if (kind == HbsKeyFile::xmss)
      throw Exit{kExitUsage, "sign-cose: no COSE algorithm is registered for XMSS (RFC 8778 covers HSS/LMS only)"};
    cose::Sign1Options o;
    o.kid = cs.kid_hex.empty() ? bytes(cs.kid.begin(), cs.kid.end()) : decode_text(cs.kid_hex, "hex", "--kid-hex");
    o.detached = cs.detached;
    o.tagged = !cs.untagged;
    const std::string state = state_path_for(cs.state, cs.key);
    auto signer = kind == HbsKeyFile::delegated  // a delegated key signs inside its own subtrees only
                      ? take_hbs(lms::StatefulSigner::open(take_hbs(lms::DelegatedKey::parse(raw.span()), cs.key),
                                                           state, cs.block),
                                 "state")
                      : take_hbs(lms::StatefulSigner::open(take_hbs(lms::HssPrivateKey::parse(raw.span()), cs.key),
                                                           state, cs.block),
                                 "state");
    auto s = take_hbs(cose::sign1_hss(signer, as_bytes(payload), o), "sign-cose");
    io::write_output(cs.out, std::string_view(reinterpret_cast<const char*>(s.message.data()), s.message.size()),
                     io::Output{false, false});
    std::cerr << "index " << s.index << "\n";
  });

  struct CoseVerifyOpts {
    std::string pub, cose_key, msg, payload, out;
  };
  static CoseVerifyOpts cv;
  auto* verify = hbs->add_subcommand("verify-cose", "verify a COSE_Sign1 message with alg HSS-LMS (exit 0 valid, 1 invalid)");
  verify->add_option("--pub", cv.pub, "HSS public key file (hex)");
  verify->add_option("--cose-key", cv.cose_key, "HSS public key as an RFC 8778 COSE_Key file (binary, from hbs export --form cose)");
  verify->add_option("--msg", cv.msg, "COSE_Sign1 message file (binary CBOR)")->required();
  verify->add_option("--payload", cv.payload, "the payload file of a detached message");
  verify->add_option("-o,--out", cv.out, "write the verified payload here");
  verify->callback([] {
    if (cv.pub.empty() == cv.cose_key.empty()) throw Exit{kExitUsage, "give --pub or --cose-key"};
    io::refuse_existing(cv.out, false);
    const std::string msg = io::read_file(cv.msg);
    cose::VerifyOptions vo;
    vo.limits.max_message_bytes = msg.size() > vo.limits.max_message_bytes ? msg.size() : vo.limits.max_message_bytes;
    std::string detached;
    if (!cv.payload.empty()) {
      detached = io::read_file(cv.payload);
      vo.detached_payload = as_bytes(detached);
    }
    auto v = cv.cose_key.empty()
                 ? cose::verify1_hss(as_bytes(msg), decode_text(io::read_file(cv.pub, 1 << 16), "hex", cv.pub), vo)
                 : cose::verify1_hss_cose_key(as_bytes(msg), as_bytes(io::read_file(cv.cose_key, 1 << 16)), vo);
    if (!v) throw Exit{kExitInvalid, "invalid: " + v.error().what()};
    if (!cv.out.empty())
      io::write_output(cv.out, std::string_view(reinterpret_cast<const char*>(v->payload.data()), v->payload.size()),
                       io::Output{false, false});
    std::cout << "valid\n";
  });
}

}  // namespace

void register_hbs(CLI::App& app) {
  auto* hbs = app.add_subcommand("hbs", "stateful hash-based signatures (LMS / HSS, RFC 8554; XMSS / XMSS^MT, RFC 8391) with a crash-safe state file");
  hbs->require_subcommand(1);
  register_hbs_cose(hbs);

  // ---- keygen
  struct KeygenOpts {
    std::string alg, out, pub, state;
    bool force = false;
  };
  static KeygenOpts kg;
  auto* keygen = hbs->add_subcommand("keygen", "generate an LMS/HSS or XMSS key, its state file and audit log");
  keygen->add_option("--alg", kg.alg,
                     "lms-<sha256|shake>-m<32|24>-h<H>-w<W>, hss-...-h<H>-w<W>-h<H>-w<W>..., LMS_.../LMOTS_...[,...], "
                     "or an XMSS / XMSS^MT set (XMSS-SHA2_10_256, XMSSMT-SHA2_20/2_256, ...)")
      ->required();
  keygen->add_option("-o,--out", kg.out, "private key file, created mode 0600")->required();
  keygen->add_option("--pub", kg.pub, "write the public key (hex) here (default: stdout)");
  keygen->add_option("--state", kg.state, "state file (default: <key>.state; its audit log is <state>.log)");
  keygen->add_flag("--force", kg.force, "replace an existing key file (never a state file)");
  keygen->callback([] {
    if (kg.out == "-") throw Exit{kExitUsage, "-o: the key needs a file next to its state"};
    if (const xmss::Params* xp = xmss::find_params(kg.alg)) {
      io::refuse_existing(kg.out, kg.force);
      io::refuse_existing(kg.pub, kg.force);
      const std::string state = state_path_for(kg.state, kg.out);
      auto key = take_hbs(xmss::PrivateKey::generate(*xp), "keygen");
      check_hbs(xmss::StatefulSigner::create_state(key, state), "state");
      const SecretBytes enc = key.serialize();
      std::string text = std::string(kXmssKeyHeader) + secret_base64url_encode(enc.span()) + "\n";
      io::write_output(kg.out, text, io::Output{true, kg.force});
      secure_zero(text.data(), text.size());
      const std::string pub = to_hex(key.public_key()) + "\n";
      if (!kg.pub.empty())
        io::write_output(kg.pub, pub, io::Output{false, kg.force});
      else
        std::cout << pub;
      std::cerr << xp->name << ": " << xp->max_signatures() << " signatures; state " << state << "\n";
      return;
    }
    auto levels = take_hbs(lms::parse_levels(kg.alg), "--alg");
    io::refuse_existing(kg.out, kg.force);
    io::refuse_existing(kg.pub, kg.force);
    const std::string state = state_path_for(kg.state, kg.out);
    auto key = take_hbs(lms::HssPrivateKey::generate(levels), "keygen");
    const SecretBytes enc = key.serialize();
    const std::uint64_t limit = key.max_signatures();
    std::string text = std::string(kKeyHeader) + secret_base64url_encode(enc.span()) + "\n";
    auto signer = take_hbs(lms::HssSigner::create(std::move(key), 0, state + ".tree"), "keygen");
    check_hbs(lms::StateStore::create(state, signer.public_key(), limit), "state");
    io::write_output(kg.out, text, io::Output{true, kg.force});
    secure_zero(text.data(), text.size());
    const std::string pub = to_hex(signer.public_key()) + "\n";
    if (!kg.pub.empty())
      io::write_output(kg.pub, pub, io::Output{false, kg.force});
    else
      std::cout << pub;
    std::cerr << lms::levels_name(levels) << ": " << limit << " signatures; state " << state << "\n";
  });

  // ---- sign
  struct SignOpts {
    std::string key, state, in = "-", out, format = "hex", lease_store, signer;
    std::uint64_t block = 1;
    bool align_subtree = false;
  };
  static SignOpts so;
  auto* sign = hbs->add_subcommand("sign", "sign a message at the next unused index (reserved and synced first)");
  sign->add_option("--key", so.key, "private key file")->required();
  sign->add_option("--state", so.state, "state file (default: <key>.state)");
  sign->add_option("-i,--in", so.in, "message file (default: stdin)");
  sign->add_option("-o,--out", so.out, "signature output (default: stdout)");
  sign->add_option("--block", so.block,
                   "indices reserved per state write (default 1: this command signs one message; "
                   "a process that signs more reserves more, a crash loses the unused rest)");
  sign->add_option("--format", so.format, "hex (default) or base64")->check(CLI::IsMember({"hex", "base64"}));
  sign->add_option("--lease-store", so.lease_store, kLeaseStoreHelp);
  sign->add_option("--signer", so.signer, kSignerHelp);
  sign->add_flag("--align-subtree", so.align_subtree,
                 "fleet mode, HSS: lease whole level-1 subtrees (the block is rounded up to one subtree)");
  sign->callback([] {
    io::refuse_existing(so.out, false);
    const std::string msg = io::read_file(so.in);
    HbsKeyFile kind = HbsKeyFile::hss;
    const SecretBytes raw = load_private_key_bytes(so.key, kind);
    const bool is_xmss = kind == HbsKeyFile::xmss;
    const std::string state = state_path_for(so.state, so.key);
    if (kind == HbsKeyFile::delegated && (!so.lease_store.empty() || so.align_subtree))
      throw Exit{kExitUsage, "a delegated key signs only inside its own subtrees, from its own state "
                             "(no --lease-store, no --align-subtree)"};
    std::shared_ptr<client::PgLeaseSource> fleet;
    if (!so.lease_store.empty()) fleet = open_lease_store(so.lease_store);
    const std::string signer_name = so.signer.empty() ? client::default_fleet_signer(state) : so.signer;
    std::uint64_t index = 0;
    bytes signature;
    if (kind == HbsKeyFile::delegated) {
      auto key = take_hbs(lms::DelegatedKey::parse(raw.span()), so.key);
      auto signer = take_hbs(lms::StatefulSigner::open(std::move(key), state, so.block), "state");
      auto s = take_hbs(signer.sign(as_bytes(msg)), "sign");
      index = s.index;
      signature = std::move(s.signature);
    } else if (is_xmss) {
      if (so.align_subtree) throw Exit{kExitUsage, "--align-subtree: HSS keys only"};
      auto signer = take_hbs(xmss::StatefulSigner::open(take_hbs(xmss::PrivateKey::parse(raw.span()), so.key), state,
                                                        so.block),
                             "state");
      if (fleet) signer.use_leases(fleet, signer_name);
      auto s = take_hbs(signer.sign(as_bytes(msg)), "sign");
      index = s.index;
      signature = std::move(s.signature);
    } else {
      auto key = take_hbs(lms::HssPrivateKey::parse(raw.span()), so.key);
      const std::uint64_t align = so.align_subtree ? lms::hss_subtree_size(key.levels()) : 1;
      if (align == 0) throw Exit{kExitUsage, "--align-subtree: the subtree is too large"};
      auto signer = take_hbs(lms::StatefulSigner::open(std::move(key), state, so.block), "state");
      if (fleet) signer.use_leases(fleet, signer_name, align);
      auto s = take_hbs(signer.sign(as_bytes(msg)), "sign");
      index = s.index;
      signature = std::move(s.signature);
    }
    io::write_output(so.out, encode_text(signature, so.format) + "\n", io::Output{false, false});
    std::cerr << "index " << index << "\n";
  });

  // ---- export: the public key in a container form (docs/lms.md, "Key forms")
  struct ExportOpts {
    std::string pub, out = "-", family = "lms", form = "jwk";
    bool force = false;
  };
  static ExportOpts ex;
  auto* exp = hbs->add_subcommand("export", "write an HSS, XMSS or XMSS^MT public key as X.509 SPKI, COSE_Key or JWK");
  exp->add_option("--family", ex.family, "lms (default: HSS public key), xmss or xmssmt")
      ->check(CLI::IsMember({"lms", "xmss", "xmssmt"}));
  exp->add_option("--pub", ex.pub, "public key file (hex)")->required();
  exp->add_option("--form", ex.form,
                  "spki (PEM, RFC 9802), spki-der (binary DER), cose (binary COSE_Key, RFC 8778; HSS only) or "
                  "jwk (pqsig's AKP form, kid = thumbprint; for Web Bot Auth directories)")
      ->check(CLI::IsMember({"spki", "spki-der", "cose", "jwk"}));
  exp->add_option("-o,--out", ex.out, "output file (default: stdout)");
  exp->add_flag("--force", ex.force, "replace an existing output file");
  exp->callback([] {
    jose::HbsPublicKey k;
    k.kind = ex.family == "xmss" ? jose::HbsKind::xmss : ex.family == "xmssmt" ? jose::HbsKind::xmssmt : jose::HbsKind::hss;
    k.key = decode_text(io::read_file(ex.pub, 1 << 16), "hex", ex.pub);
    std::string text;
    if (ex.form == "spki") {
      text = take_hbs(jose::hbs_to_spki_pem(k), "export");
    } else if (ex.form == "spki-der") {
      const bytes d = take_hbs(jose::hbs_to_spki_der(k), "export");
      text.assign(d.begin(), d.end());
    } else if (ex.form == "cose") {
      if (k.kind != jose::HbsKind::hss) throw Exit{kExitUsage, "--form cose: RFC 8778 defines a COSE_Key for HSS only"};
      const bytes c = take_hbs(jose::hss_to_cose_key(k.key), "export");
      text.assign(c.begin(), c.end());
    } else {
      text = take_hbs(jose::hbs_to_jwk(k), "export") + "\n";
    }
    io::write_output(ex.out, text, io::Output{false, ex.force});
  });

  // ---- export-subtree: a delegated key for whole level-1 subtrees (docs/lms.md, "HSS subtrees")
  struct ExportSubtreeOpts {
    std::string key, state, subtrees, out, delegate_state;
  };
  static ExportSubtreeOpts es;
  auto* exsub = hbs->add_subcommand(
      "export-subtree",
      "HSS: export level-1 subtrees A..B-1 as a delegated signer key without the top SEED; "
      "their indices are burnt in this key's state first");
  exsub->add_option("--key", es.key, "the full HSS private key file")->required();
  exsub->add_option("--state", es.state, "the key's state file (default: <key>.state); the range is reserved there");
  exsub->add_option("--subtrees", es.subtrees,
                    "A:B, level-1 subtrees A (inclusive) to B (exclusive); subtree q holds indices "
                    "q*S .. (q+1)*S-1, S the product of 2^h of the lower levels")
      ->required();
  exsub->add_option("-o,--out", es.out, "delegated key file, created mode 0600 (refuses to overwrite)")->required();
  exsub->add_option("--delegate-state", es.delegate_state,
                    "the delegated key's own state file (default: <out>.state; refuses to overwrite)");
  exsub->callback([] {
    if (es.out == "-") throw Exit{kExitUsage, "-o: the delegated key needs a file next to its state"};
    const auto colon = es.subtrees.find(':');
    std::uint64_t a = 0, b = 0;
    auto num = [](const std::string& t, std::uint64_t& v) {
      if (t.empty() || t.size() > 10) return false;
      v = 0;
      for (char c : t) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
      }
      return v <= 0xFFFFFFFFu;
    };
    if (colon == std::string::npos || !num(es.subtrees.substr(0, colon), a) || !num(es.subtrees.substr(colon + 1), b))
      throw Exit{kExitUsage, "--subtrees: expected A:B (decimal, A < B)"};
    io::refuse_existing(es.out, false);
    const std::string dstate = state_path_for(es.delegate_state, es.out);
    io::refuse_existing(dstate, false);
    io::refuse_existing(dstate + ".log", false);
    HbsKeyFile kind = HbsKeyFile::hss;
    const SecretBytes raw = load_private_key_bytes(es.key, kind);
    if (kind != HbsKeyFile::hss) throw Exit{kExitUsage, es.key + ": export-subtree needs a full HSS private key"};
    auto key = take_hbs(lms::HssPrivateKey::parse(raw.span()), es.key);
    const std::string state = state_path_for(es.state, es.key);
    // The public key comes from the top tree (its cache beside the state); the state is opened
    // by it, so a state of another key is refused before anything is reserved.
    const bytes pub = [&] {
      auto k2 = take_hbs(lms::HssPrivateKey::parse(raw.span()), es.key);
      return take_hbs(lms::HssSigner::create(std::move(k2), 0, state + ".tree"), "export-subtree").public_key();
    }();
    auto store = take_hbs(lms::StateStore::open(state, pub), "state");
    auto del = take_hbs(lms::export_subtrees(key, store, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b),
                                             0, state + ".tree"),
                        "export-subtree");
    check_hbs(lms::StatefulSigner::create_delegate_state(del, dstate), "delegate state");
    const SecretBytes enc = del.serialize();
    std::string text = std::string(kDelegateKeyHeader) + secret_base64url_encode(enc.span()) + "\n";
    io::write_output(es.out, text, io::Output{true, false});
    secure_zero(text.data(), text.size());
    std::cout << "subtrees " << del.first_subtree() << " " << del.end_subtree() << "\nindices " << del.first_index()
              << " " << del.end_index() << "\n";
    std::cerr << "delegated key " << es.out << " (" << (del.end_index() - del.first_index())
              << " signatures); its state " << dstate << "; burnt in " << state << "\n";
  });

  // ---- verify
  struct VerifyOpts {
    std::string pub, sig, in = "-", format = "hex", family = "lms";
  };
  static VerifyOpts vo;
  auto* verify = hbs->add_subcommand("verify", "verify an HSS, XMSS or XMSS^MT signature (exit 0 valid, 1 invalid)");
  verify->add_option("--family", vo.family,
                     "lms (default: HSS public key), xmss or xmssmt (RFC 8391 public keys; the two OID registries overlap)")
      ->check(CLI::IsMember({"lms", "xmss", "xmssmt"}));
  verify->add_option("--pub", vo.pub, "public key file (hex)")->required();
  verify->add_option("--sig", vo.sig, "signature file")->required();
  verify->add_option("-i,--in", vo.in, "message file (default: stdin)");
  verify->add_option("--format", vo.format, "signature encoding: hex (default) or base64")
      ->check(CLI::IsMember({"hex", "base64"}));
  verify->callback([] {
    const bytes pk = decode_text(io::read_file(vo.pub, 1 << 16), "hex", vo.pub);
    const bytes sig = decode_text(io::read_file(vo.sig), vo.format, vo.sig);
    const std::string msg = io::read_file(vo.in);
    auto st = vo.family == "xmss"     ? xmss::xmss_verify(pk, as_bytes(msg), sig)
              : vo.family == "xmssmt" ? xmss::xmssmt_verify(pk, as_bytes(msg), sig)
                                      : lms::hss_verify(pk, as_bytes(msg), sig);
    if (!st) throw Exit{kExitInvalid, "invalid: " + st.error().what()};
    std::cout << "valid\n";
  });

  // ---- status
  struct StatusOpts {
    std::string pub, state, lease_store, key;
  };
  static StatusOpts st;
  auto* status = hbs->add_subcommand("status", "show a key's state: signatures left, reservation, rollback check");
  status->add_option("--pub", st.pub, "public key file (hex); or --key");
  status->add_option("--key", st.key,
                     "a delegated key file (hbs export-subtree): its state is keyed by the delegate, not by --pub");
  status->add_option("--state", st.state, "state file")->required();
  status->add_option("--lease-store", st.lease_store, "also show the key's row in this lease store (fleet mode)");
  status->callback([] {
    const bytes pk = state_key_for(st.pub, st.key, true);
    auto store = take_hbs(lms::StateStore::open(st.state, pk), "state");
    auto inf = take_hbs(store.info(), "state");
    std::cout << "key " << inf.key_id << "\nlimit " << inf.limit << "\nreserved " << inf.reserved_end << "\nremaining "
              << inf.remaining() << "\ngeneration " << inf.generation << "\nstate ok (not older than its audit log)\n";
    if (!st.lease_store.empty()) {
      auto row = take_hbs(open_lease_store(st.lease_store)->key_status(inf.key_id), "lease store");
      std::cout << "store next_index " << row.next_index << "\nstore limit " << row.limit << "\nstore generation "
                << row.generation << "\nstore leases " << row.leases << "\nstore remaining "
                << (row.limit - row.next_index) << "\n";
    }
  });

  // ---- reserve
  struct ReserveOpts {
    std::string pub, state, lease_store, signer;
    std::uint64_t count = 0;
  };
  static ReserveOpts ro;
  auto* reserve = hbs->add_subcommand("reserve", "reserve (and so burn for this state) N indices; prints first and end");
  reserve->add_option("--pub", ro.pub, "public key file (hex)")->required();
  reserve->add_option("--state", ro.state, "state file")->required();
  reserve->add_option("--count", ro.count, "number of indices")->required()->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  reserve->add_option("--lease-store", ro.lease_store, kLeaseStoreHelp);
  reserve->add_option("--signer", ro.signer, kSignerHelp);
  reserve->callback([] {
    const bytes pk = decode_text(io::read_file(ro.pub, 1 << 16), "hex", ro.pub);
    auto store = take_hbs(lms::StateStore::open(ro.state, pk), "state");
    lms::Reservation r;
    if (!ro.lease_store.empty()) {
      auto fleet = open_lease_store(ro.lease_store);
      r = take_hbs(store.reserve_lease(*fleet, ro.signer.empty() ? client::default_fleet_signer(ro.state) : ro.signer,
                                       ro.count),
                   "lease");
    } else {
      r = take_hbs(store.reserve(ro.count), "reserve");
    }
    std::cout << r.first << " " << r.end << "\n";
  });

  // ---- fleet-init
  static StatusOpts fi;
  auto* finit = hbs->add_subcommand("fleet-init",
                                    "register a key in a PostgreSQL lease store (creates the tables when missing)");
  finit->add_option("--pub", fi.pub, "public key file (hex)")->required();
  finit->add_option("--state", fi.state, "the key's state file (gives its number of signatures)")->required();
  finit->add_option("--lease-store", fi.lease_store, kLeaseStoreHelp)->required();
  finit->callback([] {
    const bytes pk = decode_text(io::read_file(fi.pub, 1 << 16), "hex", fi.pub);
    auto store = take_hbs(lms::StateStore::open(fi.state, pk), "state");
    auto inf = take_hbs(store.info(), "state");
    auto fleet = open_lease_store(fi.lease_store);
    check_hbs(fleet->init_schema(), "lease store");
    check_hbs(fleet->register_key(inf.key_id, inf.limit), "lease store");
    check_hbs(store.join_fleet(), "state");
    auto row = take_hbs(fleet->key_status(inf.key_id), "lease store");
    std::cout << "key " << inf.key_id << "\nstore next_index " << row.next_index << "\nstore limit " << row.limit << "\n";
  });

  // ---- fleet-join
  static StatusOpts fj;
  auto* fjoin = hbs->add_subcommand("fleet-join",
                                    "create this machine's state file for a key registered in a lease store");
  fjoin->add_option("--pub", fj.pub, "public key file (hex)")->required();
  fjoin->add_option("--state", fj.state, "the new state file (refuses to overwrite one)")->required();
  fjoin->add_option("--lease-store", fj.lease_store, kLeaseStoreHelp)->required();
  fjoin->callback([] {
    const bytes pk = decode_text(io::read_file(fj.pub, 1 << 16), "hex", fj.pub);
    auto row = take_hbs(open_lease_store(fj.lease_store)->key_status(lms::key_id(pk)), "lease store");
    check_hbs(lms::StateStore::create(fj.state, pk, row.limit), "state");
    check_hbs(take_hbs(lms::StateStore::open(fj.state, pk), "state").join_fleet(), "state");
    std::cout << "key " << lms::key_id(pk) << "\nlimit " << row.limit << "\nstate " << fj.state << "\n";
  });

  // ---- audit
  static StatusOpts au;
  auto* audit = hbs->add_subcommand("audit", "check the audit log: no index signed twice, each inside a reservation (exit 1 if not)");
  audit->add_option("--pub", au.pub, "public key file (hex); or --key");
  audit->add_option("--key", au.key, "a delegated key file (hbs export-subtree): audit its own state");
  audit->add_option("--state", au.state, "state file")->required();
  audit->callback([] {
    const bytes pk = state_key_for(au.pub, au.key, false);
    auto store = take_hbs(lms::StateStore::open(au.state, pk), "state");
    auto r = take_hbs(store.audit(), "audit");
    std::cout << "signatures " << r.signatures << "\nreservations " << r.reservations << "\nreused " << r.reused.size()
              << "\nunreserved " << r.unreserved.size() << "\noverlapping_reservations " << r.overlapping_reservations
              << "\n";
    for (auto x : r.reused) std::cout << "REUSED INDEX " << x << "\n";
    if (!r.clean()) throw Exit{kExitInvalid, "audit: the log shows a reused or unreserved index"};
  });
}

}  // namespace pqsig::cli
