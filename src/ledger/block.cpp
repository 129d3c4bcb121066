// ledger::ThreadPool and verify_block: parallel block verification, verdicts in input order.
#include "pqsig/ledger.hpp"

namespace pqsig::ledger {

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::drain() {
  for (std::size_t i = next_.fetch_add(1); i < n_; i = next_.fetch_add(1)) {
    try {
      (*fn_)(i);
    } catch (...) {
      // fn owns its error reporting (verify_block's fn never throws); the pool keeps going.
    }
  }
}

void ThreadPool::worker_loop() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain();
    {
      std::lock_guard<std::mutex> lock(mu_);
      --pending_;
    }
    done_.notify_all();
  }
}

void ThreadPool::run(std::size_t n, const std::function<void(std::size_t)>& fn) {
  std::lock_guard<std::mutex> one_run(run_mu_);
  if (n == 0) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    fn_ = &fn;
    n_ = n;
    next_.store(0);
    pending_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  drain();
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return pending_ == 0; });
  fn_ = nullptr;
}

std::vector<Verdict> verify_block(DualVerifier& dv, std::span<const Item> items, ThreadPool* pool) {
  std::vector<Verdict> out(items.size());
  auto one = [&](std::size_t i) { out[i] = dv.verify(items[i]); };
  if (!pool || pool->size() == 1 || items.size() < 2) {
    for (std::size_t i = 0; i < items.size(); ++i) one(i);
    return out;
  }
  pool->run(items.size(), one);
  return out;
}

}  // namespace pqsig::ledger
