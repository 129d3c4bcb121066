// ACVP sigVer vectors of ML-DSA and SLH-DSA as provider requests.
#pragma once
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "pqsig/provider.hpp"
#include "pqsig/suite.hpp"

struct SigVerCase {
  std::string label;
  const pqsig::SuiteInfo* suite = nullptr;
  pqsig::bytes pk, msg, sig, ctx;
  pqsig::provider::VerifyOptions opt;
  bool expected = false;
  pqsig::provider::VerifyOptions options() const {
    pqsig::provider::VerifyOptions o = opt;
    o.ctx = ctx;
    return o;
  }
};

inline pqsig::bytes acvp_hex(const nlohmann::json& v) {
  auto r = pqsig::from_hex(v.get<std::string>());
  if (!r) throw std::runtime_error("bad hex in vector");
  return std::move(r.value());
}

inline std::vector<SigVerCase> load_sigver(const char* file) {
  using nlohmann::json;
  const std::string path = std::string(PQSIG_SHARED_DIR) + "/vectors/acvp/" + file;
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open " + path);
  const json j = json::parse(f);
  std::vector<SigVerCase> out;
  for (const auto& g : j.at("testGroups")) {
    std::string ps = g.at("parameterSet").get<std::string>();
    for (auto& c : ps) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const pqsig::SuiteInfo* suite = pqsig::find_suite(ps).value();
    const bool internal = g.value("signatureInterface", std::string("internal")) == "internal";
    const bool mu = g.value("externalMu", false);
    const bool prehash = g.value("preHash", std::string("pure")) == "preHash";
    for (const auto& t : g.at("tests")) {
      SigVerCase c;
      c.label = ps + " tg " + std::to_string(g.at("tgId").get<int>()) + " tc " + std::to_string(t.at("tcId").get<int>());
      c.suite = suite;
      c.pk = acvp_hex(t.at("pk"));
      c.sig = acvp_hex(t.at("signature"));
      c.expected = t.at("testPassed").get<bool>();
      if (mu) {
        c.msg = acvp_hex(t.at("mu"));
        c.opt.input = pqsig::provider::VerifyOptions::Input::mu;
      } else {
        c.msg = acvp_hex(t.at("message"));
        if (internal) c.opt.input = pqsig::provider::VerifyOptions::Input::internal;
      }
      if (!internal && t.contains("context")) c.ctx = acvp_hex(t.at("context"));
      if (prehash) {
        const auto* ph = pqsig::hash::find_prehash(t.at("hashAlg").get<std::string>());
        if (!ph) throw std::runtime_error("unknown hashAlg in " + c.label);
        c.opt.prehash = ph->id;
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}
