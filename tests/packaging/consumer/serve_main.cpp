// A crawler-side / verifier-side program outside the tree, built against an installed pqsig with
// find_package(pqsig COMPONENTS serve): parses a registry (pqsig_serve) and a URL (pqsig_client).
#include <pqsig/client.hpp>
#include <pqsig/serve.hpp>

#include <cstdio>

int main() {
  auto reg = pqsig::serve::parse_registry("# agents\nhttps://crawler.example/.well-known/http-message-signatures-directory\n");
  if (!reg || reg->size() != 1 || (*reg)[0].type != pqsig::serve::AgentType::directory) return 20;
  if (pqsig::serve::parse_registry("http://crawler.example/\n")) return 21;  // malformed: refused
  auto u = pqsig::client::parse_url("https://origin.example/a?b=1");
  if (!u || u->host != "origin.example") return 22;
  std::printf("consumer ok: pqsig serve + client\n");
  return 0;
}
