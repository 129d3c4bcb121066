// `pqsig key record | rotate | revoke | check`: purpose-bound key records and two-way rotation.
// Exit codes: 0 accepted, 1 refused (reason code on stderr), 2 usage or input error.
// `check` refuses (exit 1, "unanchored") unless a trusted --anchor kid is in the chain or
// --allow-unanchored is given; revocations are signed (`revoke --key`) and verified.
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "keyfile.hpp"
#include "pqsig/keys.hpp"

namespace pqsig::cli {

namespace {
keys::KeyRecord load_record(const std::string& path) {
  std::string text = read_text(path);
  auto r = keys::from_json(text);
  if (!r) throw Exit{kExitUsage, "record '" + path + "': " + r.error().what()};
  return std::move(*r);
}

std::uint64_t now() { return static_cast<std::uint64_t>(std::time(nullptr)); }

// not_after from --not-after or --days (default 365 days after not_before).
std::uint64_t window_end(std::uint64_t nb, std::uint64_t not_after, std::uint64_t days) {
  if (not_after) return not_after;
  return nb + (days ? days : 365) * 86400;
}

const SigningKey& signing_key(const jose::LoadedKey& k, const std::string& path) {
  if (!k.signing || k.suite->cls != SuiteClass::signature)
    throw Exit{kExitUsage, "'" + path + "' is not a private signature key"};
  return *k.signing;
}
}  // namespace

void register_key_records(CLI::App& app) {
  auto* key = app.add_subcommand("key", "Purpose-bound key records: record, rotate, revoke, check");
  key->require_subcommand(1);

  // ---------------------------------------------------------------- key record
  {
    auto* c = key->add_subcommand("record", "Create the first-generation record of a key");
    struct O {
      std::string key, participant, purpose, out;
      std::uint64_t generation = 0, not_before = 0, not_after = 0, days = 0;
      bool force = false;
    };
    static O o;
    c->add_option("--key", o.key, "key file (public or private JWK / PEM)")->required();
    c->add_option("--participant", o.participant, "participant name")->required();
    c->add_option("--purpose", o.purpose, "quote|settlement-instruction|key-rotation|governance|transport|attestation")->required();
    c->add_option("--generation", o.generation, "generation number (default 0)");
    c->add_option("--not-before", o.not_before, "start of validity, Unix seconds (default: now)");
    c->add_option("--not-after", o.not_after, "end of validity (exclusive), Unix seconds");
    c->add_option("--days", o.days, "validity in days when --not-after is absent (default 365)");
    c->add_option("-o,--out", o.out, "output file (default: stdout)");
    c->add_flag("--force", o.force, "replace an existing output file");
    c->callback([] {
      auto k = load_key_file(o.key);
      if (!k.verifying) throw Exit{kExitUsage, "'" + o.key + "' is not a signature key"};
      auto p = canonical::parse_purpose(o.purpose);
      if (!p) throw Exit{kExitUsage, p.error().message};
      if (o.generation > 0xFFFFFFFFu) throw Exit{kExitUsage, "--generation too large"};
      std::uint64_t nb = o.not_before ? o.not_before : now();
      auto r = keys::make_record(*k.suite, k.verifying->public_key(), o.participant, *p,
                                 static_cast<std::uint32_t>(o.generation), nb, window_end(nb, o.not_after, o.days));
      if (!r) throw Exit{kExitUsage, r.error().what()};
      write_output(o.out, keys::to_json(*r) + "\n", false, o.force);
    });
  }
  // ---------------------------------------------------------------- key rotate
  {
    auto* c = key->add_subcommand("rotate", "Rotate to a new key: the old key signs the new record, the new key signs the old key's id");
    struct O {
      std::string old_key, new_key, record, out;
      std::uint64_t not_before = 0, not_after = 0, days = 0;
      bool force = false;
    };
    static O o;
    c->add_option("--old", o.old_key, "the current (old) private key file")->required();
    c->add_option("--new", o.new_key, "the new private key file")->required();
    c->add_option("--record", o.record, "the old key's record (JSON)")->required();
    c->add_option("--not-before", o.not_before, "new key valid from, Unix seconds (default: now)");
    c->add_option("--not-after", o.not_after, "new key valid until (exclusive), Unix seconds");
    c->add_option("--days", o.days, "validity in days when --not-after is absent (default 365)");
    c->add_option("-o,--out", o.out, "output file for the new record with its rotation proof (default: stdout)");
    c->add_flag("--force", o.force, "replace an existing output file");
    c->callback([] {
      auto prev = load_record(o.record);
      auto ok = load_key_file(o.old_key);
      auto nk = load_key_file(o.new_key);
      std::uint64_t nb = o.not_before ? o.not_before : now();
      auto r = keys::rotate(prev, signing_key(ok, o.old_key), signing_key(nk, o.new_key), nb,
                            window_end(nb, o.not_after, o.days));
      if (!r) throw Exit{kExitUsage, "rotate: " + r.error().what()};
      write_output(o.out, keys::to_json(*r) + "\n", false, o.force);
    });
  }
  // ---------------------------------------------------------------- key revoke
  {
    auto* c = key->add_subcommand("revoke", "Revoke a record from a given time on (signed by the record's key or the key it was rotated from)");
    struct O {
      std::string record, reason, out, key;
      std::uint64_t at = 0;
      bool force = false;
    };
    static O o;
    c->add_option("record", o.record, "record file (JSON)")->required();
    c->add_option("--at", o.at, "revoked from, Unix seconds (default: now)");
    c->add_option("--reason", o.reason, "reason (free text, <= 1024 bytes)");
    c->add_option("--key", o.key, "private key with authority over the record: its own key, or the key it was rotated from")
        ->required();
    c->add_option("-o,--out", o.out, "output file (default: stdout)");
    c->add_flag("--force", o.force, "replace an existing output file");
    c->callback([] {
      auto r = load_record(o.record);
      auto k = load_key_file(o.key);
      auto st = keys::revoke(r, signing_key(k, o.key), o.at ? o.at : now(), o.reason);
      if (!st) throw Exit{kExitUsage, "revoke: " + st.error().what()};
      write_output(o.out, keys::to_json(r) + "\n", false, o.force);
    });
  }
  // ---------------------------------------------------------------- key check
  {
    auto* c = key->add_subcommand("check", "Validate a key record (and its rotation chain); exit 0 ok, 1 refused, 2 error");
    struct O {
      std::string record, purpose;
      std::vector<std::string> chain, anchors;
      std::uint64_t at = 0;
      bool have_at = false, quiet = false, allow_unanchored = false;
    };
    static O o;
    c->add_option("record", o.record, "record file (JSON)")->required();
    c->add_option("--purpose", o.purpose, "required purpose");
    auto* at = c->add_option("--at", o.at, "time of use, Unix seconds (default: now)");
    c->add_option("--chain", o.chain, "earlier records, oldest (trusted anchor) first; repeat or list")->expected(1, -1);
    c->add_option("--anchor", o.anchors,
                  "kid trusted out of band (repeat); the chain must contain it, else the check is refused")
        ->expected(1, -1);
    c->add_flag("--allow-unanchored", o.allow_unanchored,
                "accept without a trusted anchor (only shows the records are self-consistent; says so)");
    c->add_flag("-q,--quiet", o.quiet, "print nothing on success");
    c->callback([at] {
      std::vector<keys::KeyRecord> recs;
      for (const auto& p : o.chain) recs.push_back(load_record(p));
      recs.push_back(load_record(o.record));
      keys::CheckOptions opt;
      if (!o.purpose.empty()) {
        auto p = canonical::parse_purpose(o.purpose);
        if (!p) throw Exit{kExitUsage, p.error().message};
        opt.purpose = *p;
      }
      if (at->count() > 0) opt.at = o.at;
      opt.anchors = o.anchors;
      opt.allow_unanchored = o.allow_unanchored;
      keys::Refusal why{};
      Status st = recs.size() == 1 ? keys::check_record(recs.back(), opt, &why) : keys::check_chain(recs, opt, &why);
      if (!st) {
        if (st.error().code != Errc::policy) throw Exit{kExitUsage, st.error().what()};
        throw Exit{kExitInvalid, "refused: " + st.error().message};
      }
      const auto& r = recs.back();
      if (!o.quiet)
        std::cout << (o.anchors.empty() ? "ok (UNANCHORED: no trusted anchor given, the records are only "
                                          "self-consistent): "
                                        : "ok (anchored): ")
                  << r.participant << " " << canonical::purpose_name(r.purpose) << " " << r.suite->id
                  << " generation " << r.generation << " kid " << r.kid
                  << (recs.size() > 1 ? " (chain of " + std::to_string(recs.size()) + ")" : std::string()) << "\n";
    });
  }
}

}  // namespace pqsig::cli
