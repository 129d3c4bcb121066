// pqsig_serve: the key directory publisher (draft-meunier-http-message-signatures-directory):
// JWKS of the configured keys, each response signed for the authority it was requested at;
// reload() swaps the state atomically (requests in flight keep the state they started with).
#include <fstream>
#include <sstream>

#include "pqsig/jose.hpp"
#include "pqsig/serve.hpp"

namespace pqsig::serve {

struct DirectoryPublisher::State {
  std::vector<jose::LoadedKey> keys;
  std::string jwks;
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
}  // namespace

Result<std::unique_ptr<DirectoryPublisher>> DirectoryPublisher::create(Options opt) {
  if (opt.key_files.empty()) return Error{Errc::invalid_argument, "at least one --key is required"};
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
  std::vector<webbotauth::DirectoryKey> dk;
  for (const auto& k : s->keys) dk.push_back({&*k.signing, k.thumbprint});
  webbotauth::DirectorySignOptions so;
  so.authority = std::string(authority);
  so.created = now;
  so.expires_in = opt_.expires_in;
  so.max_age = opt_.max_age;
  return webbotauth::sign_directory(s->jwks, dk, so);
}

}  // namespace pqsig::serve
