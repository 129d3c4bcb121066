// `pqsig http sign|verify|base` (RFC 9421 + Web Bot Auth) and `pqsig directory build|sign|verify`
// (the HTTP Message Signatures Directory).
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "io.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/webbotauth.hpp"

namespace pqsig::cli {
namespace {

namespace hs = pqsig::httpsig;
namespace wba = pqsig::webbotauth;

std::string read_stdin() { return io::read_file("-"); }

std::string read_file(const std::string& path) { return io::read_file(path); }  // "-" = stdin

std::int64_t now_or(std::int64_t v) { return v > 0 ? v : static_cast<std::int64_t>(std::time(nullptr)); }

hs::Message parse_or_exit(const std::string& text, const std::string& what) {
  auto m = hs::parse_message(text);
  if (!m) throw Exit{kExitUsage, what + ": " + m.error().message};
  return m.value();
}

// The message on stdin and, with --request FILE, the request it answers (for ;req components),
// both with `scheme` for @scheme / @target-uri.
std::pair<hs::Message, std::optional<hs::Message>> read_http_message_and_request(const std::string& request_file,
                                                                                  const std::string& scheme) {
  auto msg = parse_or_exit(read_stdin(), "message");
  msg.scheme = scheme;
  std::optional<hs::Message> request;
  if (!request_file.empty()) {
    request = parse_or_exit(read_file(request_file), "--request");
    request->scheme = scheme;
  }
  return {std::move(msg), std::move(request)};
}

// "label=path" or "path" (label sig1, sig2, … by position).
std::pair<std::string, std::string> split_labelled(const std::string& s, std::size_t index, const char* prefix) {
  auto eq = s.find('=');
  if (eq != std::string::npos && eq > 0 && sf::is_valid_key(s.substr(0, eq))) return {s.substr(0, eq), s.substr(eq + 1)};
  return {std::string(prefix) + std::to_string(index + 1), s};
}

// ------------------------------------------------------------------ http sign

struct SignOpts {
  std::vector<std::string> keys, agents, components;
  std::int64_t expires = wba::kDefaultExpiresIn;
  std::int64_t created = 0;
  bool no_nonce = false;
  bool legacy_agent = false;
  std::size_t budget = wba::kDefaultHeaderBudget, cap = wba::kDefaultHeaderCap;
  std::string scheme = "https";
  std::string digest;
  std::string profile = "web-bot-auth";
  std::string tag;
};

void run_sign(const SignOpts& o) {
  auto msg = parse_or_exit(read_stdin(), "request");
  msg.scheme = o.scheme;
  if (!o.digest.empty()) {
    auto alg = o.digest == "sha-512" ? hs::DigestAlg::sha512 : hs::DigestAlg::sha256;
    msg.set("Content-Digest", hs::content_digest(msg.body, alg));
  }
  // Agents: one default for every label, or label=url overrides.
  std::string default_agent;
  std::map<std::string, std::string> agent_for;
  for (const auto& a : o.agents) {
    auto eq = a.find('=');
    if (eq != std::string::npos && eq > 0 && a.compare(0, 4, "http") != 0 && a.compare(0, 5, "data:") != 0)
      agent_for[a.substr(0, eq)] = a.substr(eq + 1);
    else
      default_agent = a;
  }
  std::vector<jose::LoadedKey> loaded;
  loaded.reserve(o.keys.size());
  std::vector<wba::LabelKey> labels;
  for (std::size_t i = 0; i < o.keys.size(); ++i) {
    auto [label, path] = split_labelled(o.keys[i], i, "sig");
    wba::LabelKey lk;
    lk.label = label;
    lk.agent = agent_for.count(label) ? agent_for[label] : default_agent;
    std::ifstream probe(path);
    Result<jose::LoadedKey> k = Error{Errc::io, "cannot read key file " + path};
    if (probe) k = jose::load_jwk(read_file(path));
    if (k && k->signing) io::check_private_key_file(path);
    if (!k || !k->signing) {
      std::string why = k ? "key file " + path + " holds no private key" : k.error().what();
      if (i == 0) throw Exit{kExitUsage, "label " + label + ": " + why};
      std::cerr << "pqsig: warning: label " << label << " unavailable (" << why << ")\n";
    } else {
      loaded.push_back(std::move(k.value()));
      lk.key = &*loaded.back().signing;
      lk.keyid = loaded.back().thumbprint;
    }
    labels.push_back(std::move(lk));
  }
  if (labels.empty()) throw Exit{kExitUsage, "at least one --key is required"};

  if (o.profile == "web-bot-auth") {
    if (o.expires <= 0 || o.expires > wba::kMaxExpiresIn)  // a usage error (exit 2), not an invalid signature
      throw Exit{kExitUsage, "--expires must be 1.." + std::to_string(wba::kMaxExpiresIn) + " seconds"};
    wba::SignerOptions so;
    so.created = now_or(o.created);
    so.expires_in = o.expires;
    so.nonce = !o.no_nonce;
    so.legacy_signature_agent = o.legacy_agent;
    so.header_budget = o.budget;
    so.header_cap = o.cap;
    if (!o.components.empty()) {
      so.components.clear();
      for (const auto& c : o.components) {
        auto pc = hs::parse_component(c);
        if (!pc) throw Exit{kExitUsage, "--component " + c + ": " + pc.error().message};
        so.components.push_back(pc.value());
      }
    }
    if (!o.digest.empty()) so.components.push_back(hs::component("content-digest"));
    wba::set_log_sink([](std::string_view) {});  // one process per request: warnings below suffice
    wba::Signer signer(std::move(labels), so);
    auto r = signer.sign(msg);
    if (!r) throw Exit{r.error().code == Errc::policy ? kExitInvalid : kExitUsage, r.error().message};
    for (const auto& w : r->warnings) std::cerr << "pqsig: warning: " << w << "\n";
  } else {
    std::vector<hs::SignSpec> specs;
    std::int64_t created = now_or(o.created);
    std::vector<hs::Component> comps;
    for (const auto& c : o.components.empty() ? std::vector<std::string>{"@method", "@authority", "@path"} : o.components) {
      auto pc = hs::parse_component(c);
      if (!pc) throw Exit{kExitUsage, "--component " + c + ": " + pc.error().message};
      comps.push_back(pc.value());
    }
    if (!o.digest.empty()) comps.push_back(hs::component("content-digest"));
    for (const auto& lk : labels) {
      if (!lk.key) continue;
      hs::SignSpec s;
      s.label = lk.label;
      s.key = lk.key;
      s.components = comps;
      s.created = created;
      if (o.expires > 0) s.expires = created + o.expires;
      s.keyid = lk.keyid;
      if (!o.tag.empty()) s.tag = o.tag;
      if (!o.no_nonce) {
        std::uint8_t n[32];
        if (!random_bytes(n)) throw Exit{kExitUsage, "no randomness"};
        s.nonce = base64_encode(n);
      }
      specs.push_back(std::move(s));
    }
    auto r = hs::sign_message(msg, specs);
    if (!r) throw Exit{kExitUsage, r.error().message};
  }
  std::cout << hs::serialize_message(msg);
}

// ------------------------------------------------------------------ http verify

struct VerifyOpts {
  std::vector<std::string> keys, labels, require_labels, require_algs, algs, require_components;
  std::string directory_url, request_file, tag, keyid, profile = "auto";
  std::int64_t now = 0, skew = 60, max_age = 0;
  std::int64_t max_validity = hs::kDefaultMaxWindow, lifetime = hs::kDefaultLifetime;
  bool no_authority_binding = false;
  std::size_t min_valid = 1;
  std::string scheme = "https";
};

Result<std::string> fetch_directory(const std::string& url) {
  const std::string data = "data:";
  if (url.rfind(data, 0) == 0) {
    auto comma = url.find(',');
    if (comma == std::string::npos) return Error{Errc::invalid_argument, "data: URL without ','"};
    return url.substr(comma + 1);
  }
  if (url.rfind("file://", 0) == 0) return read_file(url.substr(7));
  return Error{Errc::unsupported, "this build does not fetch over the network; download " + url + " and pass it with --keys"};
}

void run_verify(const VerifyOpts& o) {
  auto [msg, request] = read_http_message_and_request(o.request_file, o.scheme);
  hs::KeyStore ks;
  for (const auto& k : o.keys) {
    auto r = wba::add_jwks(ks, read_file(k));
    if (!r) std::cerr << "pqsig: warning: " << k << ": " << r.error().message << "\n";
  }
  if (!o.directory_url.empty()) {
    auto body = fetch_directory(o.directory_url);
    if (!body) throw Exit{kExitUsage, body.error().message};
    auto r = wba::add_jwks(ks, body.value());
    if (!r) std::cerr << "pqsig: warning: directory: " << r.error().message << "\n";
  }
  if (ks.size() == 0) std::cerr << "pqsig: warning: no verification keys loaded (every label will be unknown)\n";

  bool wba_profile = o.profile == "web-bot-auth";
  if (o.profile == "auto" && msg.is_request) {
    auto f = hs::parse_signature_fields(msg);
    if (f)
      for (const auto& [label, m] : f->input)
        if (m.is_inner_list) {
          auto* t = sf::find_param(m.inner.params, "tag");
          if (t && t->type == sf::Type::string && t->s == wba::kTag) wba_profile = true;
        }
  }
  hs::VerifyPolicy pol;
  pol.now = now_or(o.now);
  pol.clock_skew = o.skew;
  if (o.max_age > 0) pol.max_age = o.max_age;
  // Safe by default (issue 10): authority bound, fresh, bounded validity; relaxing is explicit.
  pol.require_authority = !o.no_authority_binding;
  if (o.max_validity > 0) pol.max_window = o.max_validity;
  else pol.max_window = std::nullopt;  // --max-validity 0: explicitly unbounded
  pol.default_lifetime = o.lifetime;
  pol.required_components = o.require_components;
  pol.required_labels = o.require_labels;
  pol.required_algs = o.require_algs;
  pol.allowed_algs = o.algs;
  pol.select_labels = o.labels;
  if (!o.tag.empty()) pol.select_tag = o.tag;
  if (!o.keyid.empty()) pol.select_keyid = o.keyid;
  pol.min_valid = o.min_valid;
  hs::InMemoryNonceStore nonces;
  pol.nonces = &nonces;
  hs::VerifyReport rep;
  if (wba_profile) {
    pol.tag = std::string(wba::kTag);
    rep = hs::verify_message(msg, ks, pol, request ? &*request : nullptr, &wba::check_profile, nullptr);
  } else {
    rep = hs::verify_message(msg, ks, pol, request ? &*request : nullptr);
  }
  std::cout << rep.to_json() << "\n";
  if (!rep.policy_satisfied) throw Exit{kExitInvalid, "policy not satisfied: " + rep.policy_detail};
}

// ------------------------------------------------------------------ http base

struct BaseOpts {
  std::string label, params, request_file, scheme = "https";
};

void run_base(const BaseOpts& o) {
  auto [msg, request] = read_http_message_and_request(o.request_file, o.scheme);
  hs::SignatureParams p;
  if (!o.params.empty()) {
    auto il = sf::parse_inner_list(o.params);
    if (!il) throw Exit{kExitUsage, "--params: " + il.error().message};
    p.list = il.value();
  } else {
    auto f = hs::parse_signature_fields(msg);
    if (!f) throw Exit{kExitUsage, f.error().message};
    const sf::Member* m = nullptr;
    if (o.label.empty() && !f->input.empty()) m = &f->input.front().second;
    else m = sf::find_member(f->input, o.label);
    if (!m || !m->is_inner_list) throw Exit{kExitUsage, "no Signature-Input member for label '" + o.label + "'"};
    p.list = m->inner;
  }
  hs::BaseError be;
  auto base = hs::signature_base(msg, p, request ? &*request : nullptr, &be);
  if (!base) throw Exit{kExitInvalid, std::string(hs::reason_name(be.reason)) + ": " + be.detail};
  std::cout << base.value() << "\n";
}

// ------------------------------------------------------------------ directory

struct DirOpts {
  std::vector<std::string> keys;
  std::string authority;
  std::int64_t created = 0, now = 0, expires = wba::kMaxExpiresIn, skew = 60;
};

void run_dir_build(const DirOpts& o) {
  std::vector<std::string> in;
  for (const auto& k : o.keys) in.push_back(read_file(k));
  if (in.empty()) throw Exit{kExitUsage, "at least one --key is required"};
  auto d = wba::build_directory(in);
  if (!d) throw Exit{kExitUsage, d.error().message};
  std::cout << d.value() << "\n";
}

void run_dir_sign(const DirOpts& o) {
  std::string body = read_stdin();
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
  std::vector<jose::LoadedKey> loaded;
  loaded.reserve(o.keys.size());
  std::vector<wba::DirectoryKey> keys;
  for (const auto& path : o.keys) {
    auto k = jose::load_jwk(read_file(path));
    if (!k) throw Exit{kExitUsage, path + ": " + k.error().message};
    if (!k->signing) throw Exit{kExitUsage, path + ": not a private key"};
    io::check_private_key_file(path);
    loaded.push_back(std::move(k.value()));
    keys.push_back({&*loaded.back().signing, loaded.back().thumbprint});
  }
  wba::DirectorySignOptions so;
  so.authority = o.authority;
  so.created = now_or(o.created);
  so.expires_in = o.expires;
  auto r = wba::sign_directory(body, keys, so);
  if (!r) throw Exit{kExitUsage, r.error().message};
  std::cout << hs::serialize_message(r.value());
}

void run_dir_verify(const DirOpts& o) {
  auto msg = parse_or_exit(read_stdin(), "response");
  auto rep = wba::verify_directory(msg, o.authority, now_or(o.now), o.skew);
  std::cout << rep.to_json() << "\n";
  if (!rep.policy_satisfied) throw Exit{kExitInvalid, "directory not verified: " + rep.policy_detail};
}

}  // namespace

void register_http(CLI::App& app) {
  auto* http = app.add_subcommand("http", "RFC 9421 HTTP message signatures (Web Bot Auth profile by default)");
  http->require_subcommand(1);

  auto so = std::make_shared<SignOpts>();
  auto* sign = http->add_subcommand("sign", "sign an HTTP/1.1 request read on stdin; prints it with signature headers");
  sign->add_option("--key", so->keys, "LABEL=JWK file (first = mandatory, e.g. sig1=ed.jwk; later labels degrade)")->required();
  sign->add_option("--agent", so->agents, "Signature-Agent URL for every label, or LABEL=URL");
  sign->add_option("--expires", so->expires, "seconds after created (default 3600, max 86400)");
  sign->add_option("--created", so->created, "UNIX time (default now)");
  sign->add_flag("--no-nonce", so->no_nonce, "omit the nonce");
  sign->add_flag("--legacy-agent", so->legacy_agent,
                 "older plain-string Signature-Agent covered as a whole (for npm web-bot-auth 0.1.3): one agent, shared by every label that has one");
  sign->add_option("--component", so->components, "covered component(s) (default \"@authority\" + the label's Signature-Agent member)");
  sign->add_option("--header-budget", so->budget, "warn above this total request header size (bytes)");
  sign->add_option("--header-cap", so->cap, "refuse above this total request header size (bytes)");
  sign->add_option("--scheme", so->scheme, "scheme for @scheme / @target-uri (default https)");
  sign->add_option("--content-digest", so->digest, "add and cover Content-Digest: sha-256 | sha-512")
      ->check(CLI::IsMember({"sha-256", "sha-512"}));
  sign->add_option("--profile", so->profile, "web-bot-auth (default) | rfc9421")->check(CLI::IsMember({"web-bot-auth", "rfc9421"}));
  sign->add_option("--tag", so->tag, "tag parameter (rfc9421 profile)");
  sign->callback([so] { run_sign(*so); });

  auto vo = std::make_shared<VerifyOpts>();
  auto* verify = http->add_subcommand("verify", "verify every signature of a message on stdin; JSON verdict per label");
  verify->add_option("--keys", vo->keys, "JWKS / JWK file(s); kid (and thumbprint) = keyid");
  verify->add_option("--directory-url", vo->directory_url, "key directory (data: or file:// URL)");
  verify->add_option("--now", vo->now, "verify as of this UNIX time (recorded traffic, vectors)");
  verify->add_option("--request", vo->request_file, "the request, when verifying a response with ;req components");
  verify->add_option("--skew", vo->skew, "clock skew allowance in seconds (default 60)");
  verify->add_option("--max-age", vo->max_age, "reject signatures created longer ago than this (seconds)");
  verify->add_option("--max-validity", vo->max_validity,
                     "longest accepted expires - created in seconds (default 86400; 0 = unbounded, e.g. for old test vectors)")
      ->check(CLI::NonNegativeNumber);
  verify->add_option("--lifetime", vo->lifetime, "seconds after created a label without expires is accepted (default 300)")
      ->check(CLI::NonNegativeNumber);
  verify->add_flag("--no-authority-binding", vo->no_authority_binding,
                   "UNSAFE: accept labels that do not cover \"@authority\" (or \"@target-uri\"; ;req for a response)");
  verify->add_option("--profile", vo->profile, "auto | web-bot-auth | rfc9421")->check(CLI::IsMember({"auto", "web-bot-auth", "rfc9421"}));
  verify->add_option("--label", vo->labels, "only verify these labels (others: skipped)");
  verify->add_option("--tag", vo->tag, "only verify labels with this tag");
  verify->add_option("--keyid", vo->keyid, "only verify labels with this keyid");
  verify->add_option("--require-label", vo->require_labels, "label(s) that must be valid");
  verify->add_option("--require-alg", vo->require_algs, "alg(s) that must have a valid label");
  verify->add_option("--alg", vo->algs, "allowed alg(s) (default: every supported one)");
  verify->add_option("--require-component", vo->require_components, "component(s) every label must cover");
  verify->add_option("--min-valid", vo->min_valid, "at least this many valid labels (default 1)");
  verify->add_option("--scheme", vo->scheme, "scheme for @scheme / @target-uri (default https)");
  verify->callback([vo] { run_verify(*vo); });

  auto bo = std::make_shared<BaseOpts>();
  auto* base = http->add_subcommand("base", "print the signature base of a label (debugging)");
  base->add_option("--label", bo->label, "label in Signature-Input (default: the first)");
  base->add_option("--params", bo->params, "signature parameters as an inner list instead, e.g. '(\"@authority\");created=1'");
  base->add_option("--request", bo->request_file, "the request, for ;req components of a response");
  base->add_option("--scheme", bo->scheme, "scheme for @scheme / @target-uri (default https)");
  base->callback([bo] { run_base(*bo); });

  auto* dir = app.add_subcommand("directory", "HTTP Message Signatures Directory (JWKS at /.well-known/http-message-signatures-directory)");
  dir->require_subcommand(1);
  auto dop = std::make_shared<DirOpts>();
  auto* build = dir->add_subcommand("build", "build the directory JWKS from key files (kid = thumbprint)");
  build->add_option("--key", dop->keys, "JWK / JWKS file(s); only public parts are published")->required();
  build->callback([dop] { run_dir_build(*dop); });
  auto* dsign = dir->add_subcommand("sign", "sign the directory (JWKS on stdin): prints the HTTP response");
  dsign->add_option("--key", dop->keys, "private JWK(s): one signature per key")->required();
  dsign->add_option("--authority", dop->authority, "host serving the directory")->required();
  dsign->add_option("--created", dop->created, "UNIX time (default now)");
  dsign->add_option("--expires", dop->expires, "seconds after created (default 86400)");
  dsign->callback([dop] { run_dir_sign(*dop); });
  auto* dverify = dir->add_subcommand("verify", "verify a signed directory response on stdin");
  dverify->add_option("--authority", dop->authority, "host the directory was fetched from")->required();
  dverify->add_option("--now", dop->now, "UNIX time (default now)");
  dverify->add_option("--skew", dop->skew, "clock skew allowance in seconds");
  dverify->callback([dop] { run_dir_verify(*dop); });
}

}  // namespace pqsig::cli
