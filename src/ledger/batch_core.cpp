// `pqsig batch`: the line handler and the session loop (in the library, so the unit tests and the
// fuzz harness drive exactly what the CLI runs).
#include <istream>
#include <ostream>
#include <string>

#include "ledger/batch.hpp"
#include "jose/json_strict.hpp"

namespace pqsig::batch {

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


const Family* family_for(std::string_view alg) {
  const Family* fams[] = {&mldsa_family(), &slhdsa_family(), &kem_family(), &classical_family()};
  for (const Family* f : fams)
    if (f->handles(alg)) return f;
  return nullptr;
}

json parse_request(std::string_view line, const char* what) {
  auto r = jose::detail::parse_strict<json>(line, what);
  if (!r) throw BadRequest(r.error().message);
  return std::move(r.value());
}

std::optional<json> echo_id(const json& req) {
  auto it = req.find("id");
  if (it == req.end() || it->is_null()) return std::nullopt;
  if (it->is_number()) return *it;
  if (it->is_string() && it->get_ref<const std::string&>().size() <= kMaxIdBytes) return *it;
  throw BadRequest("field \"id\" must be a number or a string of at most " + std::to_string(kMaxIdBytes) +
                   " bytes (not echoed)");
}

json process_line(std::string_view line) {
  json resp;
  std::optional<json> id;  // echoed only once it is known to be safe (echo_id)
  try {
    const json req = parse_request(line);
    if (!req.is_object()) return json{{"error", "request must be a JSON object"}};
    id = echo_id(req);
    std::string alg = str_field(req, "alg");
    const std::string op = str_field(req, "op");
    if (auto prov = opt_str_field(req, "provider")) {  // any verify request through any provider
      if (op != "verify") throw BadRequest("\"provider\" applies to op \"verify\" only");
      resp = provider_verify(req, *prov);
    } else {
      const Family* chosen = family_for(alg);
      if (!chosen) throw BadRequest("unknown alg \"" + alg + "\"");
      resp = chosen->handle(req);
    }
  } catch (const BadRequest& e) {
    resp = json{{"error", e.what()}};
  } catch (const std::exception& e) {
    resp = json{{"error", std::string("internal: ") + e.what()}};
  } catch (...) {
    resp = json{{"error", "internal: unknown exception"}};
  }
  try {
    if (id) resp["id"] = std::move(*id);
  } catch (...) {
  }
  return resp;
}

std::string reply_text(const json& reply) {
  // Never throws: strings are valid UTF-8 when they come from a parsed request, but an error
  // message may quote raw input bytes (a cut multibyte character, invalid UTF-8): those are
  // replaced by U+FFFD instead of throwing json::type_error 316 (which ended the session).
  try {
    return reply.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (...) {
    return R"({"error":"internal: reply could not be serialized"})";
  }
}

std::string answer_line(std::string_view line) { return reply_text(process_line(line)); }

LineReader::LineReader(std::istream& in, std::size_t max_line_bytes) : sb_(in.rdbuf()), max_(max_line_bytes) {}

bool LineReader::next(std::string& line, std::size_t& length) {
  line.clear();
  length = 0;  // bytes of the line, including those discarded past the cap
  too_long_ = false;
  if (done_ || !sb_) return false;
  bool any = false;
  for (;;) {
    const int c = sb_->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      done_ = true;
      break;
    }
    any = true;
    if (c == '\n') break;
    if (length < max_) line.push_back(static_cast<char>(c));  // past the cap: discarded
    ++length;
  }
  if (!any) return false;
  if (length > max_) {
    too_long_ = true;
  } else if (!line.empty() && line.back() == '\r') {
    line.pop_back();
  }
  return true;
}

SessionStats run_session(std::istream& in, std::ostream& out, const SessionOptions& opt) {
  SessionStats st;
  LineReader reader(in, opt.max_line_bytes);
  std::string line;
  std::size_t length = 0;
  while (reader.next(line, length)) {
    std::string reply;
    if (reader.too_long()) {
      reply = reply_text(json{{"error", "line longer than " + std::to_string(opt.max_line_bytes) +
                                            " bytes (" + std::to_string(length) + "); discarded"}});
      ++st.too_long;
    } else if (line.find_first_not_of(" \t") == std::string::npos) {
      reply = reply_text(json{{"error", "empty request line"}});
    } else {
      reply = answer_line(line);
    }
    out << reply << '\n';
    out.flush();
    ++st.lines;
  }
  return st;
}

}  // namespace pqsig::batch
