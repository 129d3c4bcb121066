#include "docgen.hpp"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <vector>

#include "commands.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::cli {

namespace {

bool hidden(const CLI::App* a) { return a->get_group().empty(); }

std::vector<const CLI::App*> visible_subs(const CLI::App& a) {
  return a.get_subcommands([](const CLI::App* s) { return !hidden(s); });
}

// Options of a command (help flag and hidden options excluded), positionals last.
std::vector<const CLI::Option*> options_of(const CLI::App& a) {
  std::vector<const CLI::Option*> named, pos;
  const CLI::Option* help = a.get_help_ptr();
  for (const CLI::Option* o : a.get_options()) {
    if (o == help || o->get_group().empty()) continue;
    (o->get_lnames().empty() && o->get_snames().empty() ? pos : named).push_back(o);
  }
  named.insert(named.end(), pos.begin(), pos.end());
  return named;
}

bool is_positional(const CLI::Option* o) { return o->get_lnames().empty() && o->get_snames().empty(); }
bool takes_value(const CLI::Option* o) { return o->get_type_size_max() > 0 && o->get_items_expected_max() > 0; }

std::vector<std::string> names_of(const CLI::Option* o) {
  std::vector<std::string> n;
  for (const auto& s : o->get_snames()) n.push_back("-" + s);
  for (const auto& l : o->get_lnames()) n.push_back("--" + l);
  return n;
}

std::string path_of(const CLI::App* a) {
  std::string p;
  for (const CLI::App* x = a; x && x->get_parent(); x = x->get_parent()) p = x->get_name() + (p.empty() ? "" : " " + p);
  return p;
}

// Value placeholder for an option: FILE for paths, otherwise the CLI11 type name.
std::string metavar(const CLI::Option* o) {
  std::string t = o->get_type_name();
  auto colon = t.find(':');
  std::string base = colon == std::string::npos ? t : t.substr(0, colon);
  if (base == "TEXT") {
    for (const auto& l : o->get_lnames())
      if (l == "alg" || l == "suite") return "SUITE";
    for (const auto& l : o->get_lnames())
      if (l == "out" || l == "key" || l == "pub" || l == "in" || l == "sig" || l == "record" || l == "keys" ||
          l == "request" || l == "old" || l == "new" || l == "chain" || l == "workload")
        return "FILE";
    return "VALUE";
  }
  return base.empty() ? "VALUE" : base;
}

// ------------------------------------------------------------------ roff
// Non-ASCII text (UTF-8: "…", "→" in option help) becomes groff's \[uXXXX] escapes: troff
// reads its input as Latin-1 and warns on (and garbles) raw UTF-8 bytes.
std::string roff(const std::string& s) {
  std::string o;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\') o += "\\e";
    else if (c == '-') o += "\\-";
    else if (c < 0x80) o += static_cast<char>(c);
    else {
      const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      std::uint32_t cp = n == 4 ? (c & 0x07u) : n == 3 ? (c & 0x0Fu) : (c & 0x1Fu);
      bool ok = n > 1 && i + n <= s.size();
      for (std::size_t k = 1; ok && k < n; ++k) {
        const auto cc = static_cast<unsigned char>(s[i + k]);
        ok = (cc & 0xC0u) == 0x80u;
        cp = (cp << 6) | (cc & 0x3Fu);
      }
      if (!ok) {
        o += '?';
        continue;
      }
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\[u%04X]", static_cast<unsigned>(cp));
      o += buf;
      i += n - 1;
    }
  }
  if (!o.empty() && (o[0] == '.' || o[0] == '\'')) o = "\\&" + o;
  return o;
}

void man_walk(const CLI::App& a, std::string& out) {
  for (const CLI::App* s : visible_subs(a)) {
    auto subs = visible_subs(*s);
    std::string synopsis = "pqsig " + path_of(s);
    if (!subs.empty()) synopsis += " COMMAND";
    bool named = false;
    for (const CLI::Option* o : options_of(*s)) named = named || !is_positional(o);
    if (named) synopsis += " [OPTIONS]";
    for (const CLI::Option* o : options_of(*s)) {
      if (!is_positional(o)) continue;
      std::string p = o->get_name(true) + (o->get_items_expected_max() > 1 ? "..." : "");
      synopsis += o->get_required() ? " " + p : " [" + p + "]";
    }
    out += ".SS \"" + roff(synopsis) + "\"\n" + roff(s->get_description()) + "\n";
    for (const CLI::Option* o : options_of(*s)) {
      out += ".TP\n";
      if (is_positional(o)) {
        out += "\\fI" + roff(o->get_name(true)) + "\\fR\n";
      } else {
        std::string line;
        for (const auto& n : names_of(o)) line += (line.empty() ? "" : ", ") + ("\\fB" + roff(n) + "\\fR");
        if (takes_value(o)) line += " \\fI" + roff(metavar(o)) + "\\fR";
        out += line + "\n";
      }
      std::string d = o->get_description();
      if (o->get_required()) d += " (required)";
      out += roff(d) + "\n";
    }
    if (!subs.empty()) out += ".br\nCommands: " + roff([&] {
      std::string l;
      for (const CLI::App* c : subs) l += (l.empty() ? "" : ", ") + c->get_name();
      return l;
    }()) + ".\n";
    man_walk(*s, out);
  }
}

// ------------------------------------------------------------------ completions
struct Node {
  std::vector<std::pair<std::string, std::string>> subs;  // name, description
  std::vector<std::pair<std::string, std::string>> opts;  // name, description
  std::vector<std::string> value_opts;                    // options taking a value
};

void collect(const CLI::App& a, const std::string& path, std::map<std::string, Node>& nodes) {
  Node& n = nodes[path];
  for (const CLI::App* s : visible_subs(a)) n.subs.emplace_back(s->get_name(), s->get_description());
  n.opts.emplace_back("--help", "print help and exit");
  for (const CLI::Option* o : options_of(a)) {
    if (is_positional(o)) continue;
    for (const auto& nm : names_of(o)) {
      n.opts.emplace_back(nm, o->get_description());
      if (takes_value(o)) n.value_opts.push_back(nm);
    }
  }
  for (const CLI::App* s : visible_subs(a)) collect(*s, path.empty() ? s->get_name() : path + " " + s->get_name(), nodes);
}

std::string sh_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

std::string suite_ids() {
  std::string s;
  for (const auto& x : all_suites()) s += (s.empty() ? "" : " ") + std::string(x.id);
  return s;
}

// Shared shell functions: _pqsig_subs PATH, _pqsig_opts PATH, _pqsig_valopts PATH (space lists).
std::string shell_tables(const std::map<std::string, Node>& nodes, bool with_desc) {
  auto table = [&](const char* fn, auto pick) {
    std::string o = std::string(fn) + "() {\n  case \"$1\" in\n";
    for (const auto& [path, n] : nodes) o += "    " + sh_quote(path) + ") printf '%s\\n' " + pick(n) + " ;;\n";
    return o + "  esac\n}\n";
  };
  auto words = [](const std::vector<std::string>& v) {
    std::string o;
    for (const auto& x : v) {
      if (!o.empty()) o += ' ';
      o += sh_quote(x);
    }
    return o.empty() ? std::string("''") : o;
  };
  std::string out;
  out += table("_pqsig_subs", [&](const Node& n) {
    std::vector<std::string> v;
    for (const auto& s : n.subs) v.push_back(s.first);
    std::string w;
    for (const auto& x : v) {
      if (!w.empty()) w += ' ';
      w += x;
    }
    return sh_quote(w);
  });
  out += table("_pqsig_opts", [&](const Node& n) {
    std::string w;
    for (const auto& x : n.opts) w += (w.empty() ? "" : " ") + x.first;
    return sh_quote(w);
  });
  out += table("_pqsig_valopts", [&](const Node& n) {
    std::string w;
    for (const auto& x : n.value_opts) w += (w.empty() ? "" : " ") + x;
    return sh_quote(w);
  });
  if (with_desc) {
    auto esc = [](std::string s) {
      std::string o;
      for (char c : s) o += c == ':' ? std::string("\\:") : std::string(1, c);
      return o;
    };
    out += table("_pqsig_subdescs", [&](const Node& n) {
      std::vector<std::string> v;
      for (const auto& s : n.subs) v.push_back(s.first + ":" + esc(s.second));
      return words(v);
    });
    out += table("_pqsig_optdescs", [&](const Node& n) {
      std::vector<std::string> v;
      for (const auto& s : n.opts) v.push_back(esc(s.first) + ":" + esc(s.second));
      return words(v);
    });
  }
  out += "_pqsig_suites=" + sh_quote(suite_ids()) + "\n";
  return out;
}

}  // namespace

std::string man_commands(const CLI::App& root) {
  std::string out = ".SH COMMANDS\n";
  man_walk(root, out);
  return out;
}

std::string bash_completion(const CLI::App& root) {
  std::map<std::string, Node> nodes;
  collect(root, "", nodes);
  std::string o = "# bash completion for pqsig (generated by `pqsig completion bash`; do not edit)\n";
  o += shell_tables(nodes, false);
  o += R"SH(_pqsig() {
  local cur prev path="" w i
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    case "$w" in -*) continue ;; esac
    if [[ " $(_pqsig_subs "$path") " == *" $w "* ]]; then path="${path:+$path }$w"; fi
  done
  if [[ " $(_pqsig_valopts "$path") " == *" $prev "* ]]; then
    case "$prev" in
      --alg|--suite) COMPREPLY=($(compgen -W "$_pqsig_suites" -- "$cur")) ;;
      *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_pqsig_opts "$path")" -- "$cur"))
    return 0
  fi
  local subs
  subs="$(_pqsig_subs "$path")"
  if [[ -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}
complete -o filenames -o bashdefault -F _pqsig pqsig
)SH";
  return o;
}

std::string zsh_completion(const CLI::App& root) {
  std::map<std::string, Node> nodes;
  collect(root, "", nodes);
  std::string o = "#compdef pqsig\n# zsh completion for pqsig (generated by `pqsig completion zsh`; do not edit)\n";
  o += shell_tables(nodes, true);
  o += R"SH(_pqsig() {
  local path_="" w i prev
  for ((i = 2; i < CURRENT; i++)); do
    w=${words[i]}
    [[ $w == -* ]] && continue
    if [[ " $(_pqsig_subs "$path_") " == *" $w "* ]]; then path_="${path_:+$path_ }$w"; fi
  done
  prev=${words[CURRENT-1]}
  if [[ " $(_pqsig_valopts "$path_") " == *" $prev "* ]]; then
    case $prev in
      --alg|--suite) compadd -- ${=_pqsig_suites} ;;
      *) _files ;;
    esac
    return
  fi
  local -a items
  if [[ ${words[CURRENT]} == -* ]]; then
    items=("${(@f)$(_pqsig_optdescs "$path_")}")
    _describe -t options 'option' items
    return
  fi
  items=("${(@f)$(_pqsig_subdescs "$path_")}")
  if [[ -n ${items[1]} ]]; then
    _describe -t commands 'command' items
  else
    _files
  fi
}
_pqsig "$@"
)SH";
  return o;
}

void register_docgen(CLI::App& root) {
  auto* c = root.add_subcommand("completion", "Print the bash or zsh completion script (e.g. source <(pqsig completion bash))");
  static std::string shell;
  c->add_option("shell", shell, "bash | zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
  c->callback([&root] { std::cout << (shell == "bash" ? bash_completion(root) : zsh_completion(root)); });
  // Used by the build to generate the COMMANDS section of pqsig(1); hidden from help.
  auto* m = root.add_subcommand("__man-commands", "");
  m->group("");
  m->callback([&root] { std::cout << man_commands(root); });
}

}  // namespace pqsig::cli
