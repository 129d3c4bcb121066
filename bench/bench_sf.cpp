// Structured-field parsing cost per byte, 1 KB .. 10 MB (issue 10, item 2): dictionaries of
// distinct keys (the worst case of the former linear-scan insert: 40,000 labels took 18.8 s),
// dictionaries where every key repeats (last value wins, first position kept), and an item
// with many parameters. Limits are lifted (Limits::unlimited) so the parser itself is measured.
// The "s_per_byte" counter must stay flat across sizes: `pqsig_bench --benchmark_filter=Sf`.
#include <benchmark/benchmark.h>

#include <string>

#include "pqsig/sf.hpp"

using namespace pqsig;

namespace {

std::string distinct_dictionary(std::size_t bytes) {
  std::string s;
  s.reserve(bytes + 32);
  for (std::size_t k = 0; s.size() < bytes; ++k) {
    if (k) s += ", ";
    s += "label" + std::to_string(k) + "=(\"@authority\");created=1";
  }
  return s;
}

std::string repeating_dictionary(std::size_t bytes) {
  std::string s;
  s.reserve(bytes + 32);
  for (std::size_t k = 0; s.size() < bytes; ++k) {
    if (k) s += ", ";
    s += "k" + std::to_string(k % 64) + "=" + std::to_string(k);
  }
  return s;
}

std::string many_params(std::size_t bytes) {
  std::string s = "tok";
  s.reserve(bytes + 32);
  for (std::size_t k = 0; s.size() < bytes; ++k) s += ";p" + std::to_string(k) + "=" + std::to_string(k);
  return s;
}

template <class Make, class Parse>
void run(benchmark::State& st, Make make, Parse parse) {
  const std::string text = make(static_cast<std::size_t>(st.range(0)));
  const auto lim = sf::Limits::unlimited();
  for (auto _ : st) {
    auto r = parse(text, lim);
    if (!r) st.SkipWithError(r.error().message.c_str());
    benchmark::DoNotOptimize(r);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(text.size()));
  // CPU seconds per input byte (printed with an SI prefix: "12n" = 12 ns/byte).
  st.counters["s_per_byte"] = benchmark::Counter(static_cast<double>(text.size()),
                                                 benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_SfDictionaryDistinctKeys(benchmark::State& st) {
  run(st, distinct_dictionary, [](const std::string& t, const sf::Limits& l) { return sf::parse_dictionary(t, l); });
}
void BM_SfDictionaryRepeatedKeys(benchmark::State& st) {
  run(st, repeating_dictionary, [](const std::string& t, const sf::Limits& l) { return sf::parse_dictionary(t, l); });
}
void BM_SfItemManyParameters(benchmark::State& st) {
  run(st, many_params, [](const std::string& t, const sf::Limits& l) { return sf::parse_item(t, l); });
}

}  // namespace

BENCHMARK(BM_SfDictionaryDistinctKeys)->RangeMultiplier(10)->Range(1000, 10'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SfDictionaryRepeatedKeys)->RangeMultiplier(10)->Range(1000, 10'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SfItemManyParameters)->RangeMultiplier(10)->Range(1000, 10'000'000)->Unit(benchmark::kMicrosecond);
