// pqsig_serve: the key directory publisher (draft-meunier-http-message-signatures-directory):
// JWKS of the configured keys, each response signed for the authority it was requested at;
// reload() swaps the state atomically (requests in flight keep the state they started with).
#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "pqsig/jose.hpp"
#include "pqsig/serve.hpp"

namespace pqsig::serve {

struct DirectoryPublisher::State {
  std::vector<jose::LoadedKey> keys;
  std::string jwks;
  // Signed responses by authority (bounded: one per configured authority), with the time each
  // was signed; a reload starts a new State and so a new cache.
  mutable std::mutex mu;
  mutable std::map<std::string, std::pair<std::int64_t, httpsig::Message>, std::less<>> signed_responses;
};

namespace {
constexpr std::size_t kMaxKeyFile = 64 * 1024;

Result<std::string> read_small(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error{Errc::io, "cannot read " + path};
  std::string s;
  s.resize(kMaxKeyFile + 1);
  f.read(s.data(), static_cast<std::streamsize>(s.size()));
  s.resize(static_cast<std::size_t>(f.gcount()));
  if (s.size() > kMaxKeyFile) return Error{Errc::invalid_length, path + ": larger than 64 KiB"};
  return s;
}

// The configured authority a Host value names ("" if none): exact (case-insensitive), or the
// host part when the configured authority has no port.
std::string match_authority(const std::vector<std::string>& configured, std::string_view host) {
  std::string h = ascii_lower(host);
  std::string bare = h;
  if (!bare.empty() && bare.front() == '[') {
    auto e = bare.find(']');
    if (e != std::string::npos) bare = bare.substr(0, e + 1);
  } else if (auto c = bare.rfind(':'); c != std::string::npos) {
    bare = bare.substr(0, c);
  }
  for (const auto& a : configured) {
    if (a == h) return h;
    bool has_port = a.front() == '[' ? a.find("]:") != std::string::npos : a.find(':') != std::string::npos;
    if (!has_port && a == bare) return h;
  }
  return {};
}
}  // namespace

Result<std::unique_ptr<DirectoryPublisher>> DirectoryPublisher::create(Options opt) {
  if (opt.key_files.empty()) return Error{Errc::invalid_argument, "at least one --key is required"};
  if (opt.authorities.empty())
    return Error{Errc::invalid_argument, "at least one authority is required (the Host names this directory answers for)"};
  if (opt.authorities.size() > 64) return Error{Errc::invalid_argument, "at most 64 authorities"};
  for (auto& a : opt.authorities) {
    a = ascii_lower(a);
    if (a.empty() || a.size() > 255 || a.find_first_of("/ \t@?#") != std::string::npos)
      return Error{Errc::invalid_argument, "authority '" + a + "' is not a host[:port]"};
  }
  if (opt.max_age < 0 || opt.expires_in <= 0 || opt.expires_in > webbotauth::kMaxExpiresIn)
    return Error{Errc::invalid_argument, "max-age >= 0 and 1 <= expires <= 86400 seconds"};
  std::unique_ptr<DirectoryPublisher> p(new DirectoryPublisher());
  p->opt_ = std::move(opt);
  auto st = p->reload();
  if (!st) return st.error();
  return p;
}

Status DirectoryPublisher::reload() {
  auto s = std::make_shared<State>();
  std::vector<std::string> texts;
  for (const auto& path : opt_.key_files) {
    auto t = read_small(path);
    if (!t) return t.error();
    auto k = jose::load_jwk(t.value());
    if (!k) return Error{k.error().code, path + ": " + k.error().message};
    if (!k->signing) return Error{Errc::invalid_argument, path + ": not a private key (the directory response is signed)"};
    s->keys.push_back(std::move(k.value()));
    texts.push_back(std::move(t.value()));
  }
  auto d = webbotauth::build_directory(texts);
  for (auto& t : texts) secure_zero(t.data(), t.size());
  if (!d) return d.error();
  s->jwks = d.value();
  std::lock_guard<std::mutex> lock(mu_);
  state_ = std::move(s);
  generation_.fetch_add(1);
  return {};
}

std::size_t DirectoryPublisher::key_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_ ? state_->keys.size() : 0;
}

Result<httpsig::Message> DirectoryPublisher::respond(std::string_view authority, std::int64_t now) const {
  std::shared_ptr<const State> s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    s = state_;
  }
  if (!s) return Error{Errc::internal, "no keys loaded"};
  if (authority.empty() || authority.size() > 255) return Error{Errc::invalid_argument, "missing or oversize Host"};
  std::string auth = match_authority(opt_.authorities, authority);
  if (auth.empty()) return Error{Errc::policy, "this directory does not answer for that Host"};
  // Reused while the signature has at least max_age + 60 s of validity left (a cache may keep the
  // response max_age longer; 60 s for clock skew), else signed anew: one signature per period.
  const std::int64_t reuse_for = opt_.expires_in > opt_.max_age + 60 ? opt_.expires_in - opt_.max_age - 60
                                                                     : std::max<std::int64_t>(1, opt_.expires_in / 2);
  std::lock_guard<std::mutex> lock(s->mu);  // one signer per state: concurrent requests wait for it
  auto it = s->signed_responses.find(auth);
  if (it != s->signed_responses.end() && now >= it->second.first && now < it->second.first + reuse_for)
    return it->second.second;
  std::vector<webbotauth::DirectoryKey> dk;
  for (const auto& k : s->keys) dk.push_back({&*k.signing, k.thumbprint});
  webbotauth::DirectorySignOptions so;
  so.authority = auth;
  so.created = now;
  so.expires_in = opt_.expires_in;
  so.max_age = opt_.max_age;
  auto m = webbotauth::sign_directory(s->jwks, dk, so);
  if (!m) return m.error();
  signed_.fetch_add(1);
  s->signed_responses[auth] = {now, m.value()};
  return m;
}

}  // namespace pqsig::serve
