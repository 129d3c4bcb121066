// `pqsig batch` dispatcher.
#include <iostream>
#include <string>

#include "batch.hpp"
#include "commands.hpp"

namespace pqsig::cli::batch {

bytes hex_field(const json& req, const char* name) {
  auto it = req.find(name);
  if (it == req.end()) throw BadRequest(std::string("missing field \"") + name + "\"");
  if (!it->is_string()) throw BadRequest(std::string("field \"") + name + "\" must be a hex string");
  auto r = from_hex(it->get<std::string>());
  if (!r) throw BadRequest(std::string("field \"") + name + "\": " + r.error().message);
  return std::move(r.value());
}

std::optional<bytes> opt_hex_field(const json& req, const char* name) {
  if (!req.contains(name) || req.at(name).is_null()) return std::nullopt;
  return hex_field(req, name);
}

std::string str_field(const json& req, const char* name) {
  auto it = req.find(name);
  if (it == req.end()) throw BadRequest(std::string("missing field \"") + name + "\"");
  if (!it->is_string()) throw BadRequest(std::string("field \"") + name + "\" must be a string");
  return it->get<std::string>();
}

std::optional<std::string> opt_str_field(const json& req, const char* name) {
  if (!req.contains(name) || req.at(name).is_null()) return std::nullopt;
  return str_field(req, name);
}

bool opt_bool_field(const json& req, const char* name, bool dflt) {
  auto it = req.find(name);
  if (it == req.end() || it->is_null()) return dflt;
  if (!it->is_boolean()) throw BadRequest(std::string("field \"") + name + "\" must be a boolean");
  return it->get<bool>();
}

std::string to_hex_str(byte_span b) { return to_hex(b, false); }

void need_len(const char* name, const bytes& b, std::size_t n) {
  if (b.size() != n)
    throw BadRequest(std::string("field \"") + name + "\" must be " + std::to_string(n) + " bytes, got " +
                     std::to_string(b.size()));
}

bool internal_interface(const json& req) {
  auto iface = opt_str_field(req, "interface");
  if (!iface || *iface == "external") return false;
  if (*iface == "internal") return true;
  throw BadRequest("field \"interface\" must be \"external\" or \"internal\"");
}


json process_line(std::string_view line) {
  json resp;
  json req;
  try {
    req = json::parse(line);
  } catch (const std::exception& e) {
    return json{{"error", std::string("invalid JSON: ") + e.what()}};
  }
  if (!req.is_object()) return json{{"error", "request must be a JSON object"}};
  try {
    std::string alg = str_field(req, "alg");
    const std::string op = str_field(req, "op");
    if (auto prov = opt_str_field(req, "provider")) {  // any verify request through any provider
      if (op != "verify") throw BadRequest("\"provider\" applies to op \"verify\" only");
      resp = provider_verify(req, *prov);
      if (req.contains("id")) resp["id"] = req["id"];
      return resp;
    }
    const Family* fams[] = {&mldsa_family(), &slhdsa_family(), &kem_family(), &classical_family()};
    const Family* chosen = nullptr;
    for (const Family* f : fams)
      if (f->handles(alg)) {
        chosen = f;
        break;
      }
    if (!chosen) throw BadRequest("unknown alg \"" + alg + "\"");
    resp = chosen->handle(req);
  } catch (const BadRequest& e) {
    resp = json{{"error", e.what()}};
  } catch (const std::exception& e) {
    resp = json{{"error", std::string("internal: ") + e.what()}};
  }
  if (req.contains("id")) resp["id"] = req["id"];
  return resp;
}

}  // namespace pqsig::cli::batch

namespace pqsig::cli {
void register_batch(CLI::App& app) {
  auto* cmd = app.add_subcommand("batch", "JSON Lines protocol on stdin/stdout (keygen/sign/verify/encaps/decaps)");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      std::cout << batch::process_line(line).dump() << '\n';
      std::cout.flush();
    }
  });
}
}  // namespace pqsig::cli
