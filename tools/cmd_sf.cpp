// `pqsig sf parse|serialize`: RFC 9651 structured fields for people debugging headers and for
// conformance suites (httpwg structured-field-tests JSON form).
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io.hpp"
#include "pqsig/sf.hpp"

namespace pqsig::cli {
namespace {
struct SfOpts {
  std::string type = "item";
  bool json = false;
  std::vector<std::string> lines;
  std::string file = "-";
};

// "-" alone: the field lines are read from stdin, one per line.
std::vector<std::string> field_lines(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0] != "-") return args;
  std::vector<std::string> out;
  std::string text = io::read_file("-"), line;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (i < text.size() || !line.empty()) out.push_back(line);
      line.clear();
    } else {
      line += text[i];
    }
  }
  return out;
}

void run_parse(const SfOpts& o) {
  auto t = sf::parse_field_type(o.type);
  if (!t) throw Exit{kExitUsage, t.error().message};
  std::string value = sf::combine_field_lines(field_lines(o.lines));
  auto f = sf::parse_field(t.value(), value);
  if (!f) throw Exit{kExitInvalid, f.error().message};
  if (o.json) {
    std::cout << sf::to_test_json(f.value()) << "\n";
    return;
  }
  auto s = sf::serialize_field(f.value());
  if (!s) throw Exit{kExitInvalid, s.error().message};
  std::cout << s.value() << "\n";
}

void run_serialize(const SfOpts& o) {
  auto t = sf::parse_field_type(o.type);
  if (!t) throw Exit{kExitUsage, t.error().message};
  std::string in = io::read_file(o.file);
  auto f = sf::from_test_json(t.value(), in);
  if (!f) throw Exit{kExitInvalid, f.error().message};
  auto s = sf::serialize_field(f.value());
  if (!s) throw Exit{kExitInvalid, s.error().message};
  std::cout << s.value() << "\n";
}
}  // namespace

void register_sf(CLI::App& app) {
  auto* sf = app.add_subcommand("sf", "RFC 9651 structured fields: parse and serialize header values");
  sf->require_subcommand(1);
  auto o = std::make_shared<SfOpts>();

  auto* parse = sf->add_subcommand("parse", "parse field line(s) and print the canonical serialization");
  parse->add_option("--type", o->type, "item | list | dictionary")->check(CLI::IsMember({"item", "list", "dictionary"}));
  parse->add_flag("--json", o->json, "print the httpwg structured-field-tests JSON form");
  parse->add_option("lines", o->lines, "field line values (several lines are combined with \", \"); - reads them from stdin, one per line")->required();
  parse->callback([o] { run_parse(*o); });

  auto* ser = sf->add_subcommand("serialize", "read the JSON form (file or stdin) and print the serialization");
  ser->add_option("--type", o->type, "item | list | dictionary")->check(CLI::IsMember({"item", "list", "dictionary"}));
  ser->add_option("file", o->file, "JSON file (default: - = stdin)");
  ser->callback([o] { run_serialize(*o); });
}
}  // namespace pqsig::cli
