// pqsig_serve: the two HTTP/1.1 services on Boost.Beast/Asio (the only translation unit that
// includes Beast, to keep compile cost down). One io_context run by a few threads; each
// connection reads with a header limit, a body limit and an idle timeout; keep-alive honoured.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include "pqsig/serve.hpp"

namespace pqsig::serve {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

/// The service: answers a parsed request, or a request that failed to parse (`limit_error` set
/// to a reason such as "header_too_large").
struct Service {
  /// Answers that never block (health, metrics): run on the I/O thread; nullopt = not one of them.
  std::function<std::optional<Response>(const Request&)> fast;
  /// Everything else: on a decision worker when ServerOptions::decision_threads > 0.
  std::function<Response(const Request&)> handle;
  /// Instead of `handle` when set: may suspend the request (returns nullopt) when `resume` is
  /// given; `resume` is then called exactly once, from any thread, to run it again.
  std::function<std::optional<Response>(const Request&, std::function<void()> resume)> handle_parkable;
  std::function<Response(std::string_view reason, unsigned version)> refuse;
  std::function<void(std::string_view limit)> limit;  ///< counts a limit hit (may be empty)
};

/// Decision workers: a fixed number of threads and a bounded queue. submit() never blocks: a
/// full queue is refused at once, and a job that waited past the queue deadline is told so.
class DecisionPool {
 public:
  using Job = std::function<void(bool expired)>;
  DecisionPool(int threads, std::size_t max_queue, long queue_timeout_ms)
      : max_queue_(max_queue), timeout_(std::chrono::milliseconds(std::max<long>(1, queue_timeout_ms))) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
  }
  ~DecisionPool() { stop(); }
  bool submit(Job j) {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_ || q_.size() >= max_queue_) return false;
    q_.push_back({std::move(j), std::chrono::steady_clock::now() + timeout_});
    cv_.notify_one();
    return true;
  }
  /// Runs every queued job as expired (their sessions answer and close), then joins the workers.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_) return;
      stop_ = true;
      cv_.notify_all();
    }
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

 private:
  struct Item {
    Job job;
    std::chrono::steady_clock::time_point deadline;
  };
  void work() {
    for (;;) {
      Item it;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !q_.empty(); });
        if (q_.empty()) return;  // stopping, nothing left
        it = std::move(q_.front());
        q_.pop_front();
      }
      bool expired = stop_ || std::chrono::steady_clock::now() > it.deadline;
      try {
        it.job(expired);
      } catch (...) {
      }
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> q_;
  std::size_t max_queue_;
  std::chrono::steady_clock::duration timeout_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

class Session;

struct Shared {
  Service svc;
  ServerOptions opt;
  DecisionPool* pool = nullptr;  ///< owned by serve(); outlives every session
  std::atomic<std::size_t> connections{0};
  std::atomic<bool> draining{false};  ///< SIGTERM / SIGINT: no keep-alive, idle connections closed
  std::mutex mu;
  std::vector<std::weak_ptr<Session>> sessions;  ///< for the drain (pruned as sessions come and go)
  /// Sessions whose decision is suspended (waiting on a directory fetch, no thread held): held
  /// here, so the server (not the fetcher) owns them and drops them at shutdown.
  std::map<const Session*, std::shared_ptr<Session>> parked;  ///< guarded by mu
  bool closed = false;                                         ///< guarded by mu: no more resumes
};

/// Times a request may be suspended on fetches (one fetch each) before its last run waits.
constexpr int kMaxParkRounds = 8;

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Header values we emit never carry CR/LF or control bytes, and stay short.
std::string header_safe(std::string_view s, std::size_t max = 300) {
  std::string o;
  for (char c : s) {
    if (o.size() >= max) break;
    unsigned char u = static_cast<unsigned char>(c);
    o.push_back(u >= 0x20 && u < 0x7f ? c : '?');
  }
  return o;
}

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& s, std::shared_ptr<Shared> sh)
      : stream_(std::move(s)), buffer_(sh->opt.max_header_bytes + sh->opt.max_body_bytes + 4096), sh_(std::move(sh)) {}
  ~Session() { sh_->connections.fetch_sub(1); }
  void run() {
    {
      std::lock_guard<std::mutex> lock(sh_->mu);
      auto& v = sh_->sessions;
      v.erase(std::remove_if(v.begin(), v.end(), [](const std::weak_ptr<Session>& w) { return w.expired(); }), v.end());
      v.push_back(weak_from_this());
    }
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read(); });
  }
  /// Drain: a connection waiting for its next request (no byte of it read yet) is closed now; one
  /// with a request under way finishes it and then closes (keep-alive off while draining).
  void drain() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (self->reading_ && self->buffer_.size() == 0 && self->parser_ && !self->parser_->got_some()) self->stream_.cancel();
    });
  }

 private:
  void read() {
    if (sh_->draining) return close();
    reading_ = true;
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(sh_->opt.max_header_bytes));
    parser_->body_limit(sh_->opt.max_body_bytes);
    stream_.expires_after(std::chrono::milliseconds(sh_->opt.idle_timeout_ms));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }
  void on_read(beast::error_code ec) {
    reading_ = false;
    if (ec == http::error::end_of_stream || ec == net::error::eof || ec == beast::error::timeout ||
        ec == net::error::operation_aborted || ec == net::error::connection_reset)
      return close();
    if (ec) {
      std::string_view reason = ec == http::error::header_limit || ec == http::error::buffer_overflow
                                    ? "header_too_large"
                                : ec == http::error::body_limit ? "body_too_large"
                                                                 : "malformed_request";
      if (sh_->svc.limit && reason != "malformed_request")
        sh_->svc.limit(reason == "header_too_large" ? "http_header_bytes" : "http_body_bytes");
      res_ = sh_->svc.refuse(reason, 11);
      res_.keep_alive(false);
      return write();
    }
    const Request& req = parser_->get();
    if (sh_->svc.fast) {
      std::optional<Response> r;
      try {
        r = sh_->svc.fast(req);
      } catch (...) {
        r = sh_->svc.refuse("internal_error", req.version());
      }
      if (r) {
        res_ = std::move(*r);
        return respond();
      }
    }
    if (!sh_->pool) {
      try {
        if (sh_->svc.handle_parkable) res_ = sh_->svc.handle_parkable(req, nullptr).value();
        else res_ = sh_->svc.handle(req);
      } catch (...) {
        res_ = sh_->svc.refuse("internal_error", req.version());
      }
      return respond();
    }
    // The decision runs on a worker; this I/O thread is free at once. The parser (and so the
    // request) stays untouched until the answer is posted back to this connection's strand.
    submit_decision(0, true);
  }
  /// Queues this request's decision (round: how many times it was suspended so far).
  void submit_decision(int round, bool on_strand) {
    auto self = shared_from_this();
    bool queued = sh_->pool->submit([self, round](bool expired) { self->run_decision(expired, round); });
    if (!queued) {
      if (sh_->svc.limit) sh_->svc.limit("decision_queue_full");
      Response out = sh_->svc.refuse("overloaded", parser_->get().version());
      if (on_strand) {
        res_ = std::move(out);
        return respond();
      }
      net::post(stream_.get_executor(), [self, r = std::move(out)]() mutable {
        self->res_ = std::move(r);
        self->respond();
      });
    }
  }
  void run_decision(bool expired, int round) {
    const Request& rq = parser_->get();
    Response out;
    if (expired) {
      if (sh_->svc.limit) sh_->svc.limit("decision_queue_timeout");
      out = sh_->svc.refuse("overloaded", rq.version());
    } else if (sh_->svc.handle_parkable) {
      std::function<void()> resume;
      if (round < kMaxParkRounds) {
        // Filed as parked before the decision runs: the fetch may end (and resume) before
        // handle_parkable returns.
        {
          std::lock_guard<std::mutex> lock(sh_->mu);
          sh_->parked[this] = shared_from_this();
        }
        resume = [sh = sh_, w = weak_from_this(), round] {
          std::lock_guard<std::mutex> lock(sh->mu);
          if (sh->closed) return;
          auto self = w.lock();
          if (!self) return;
          auto it = sh->parked.find(self.get());
          if (it == sh->parked.end()) return;
          auto keep = std::move(it->second);
          sh->parked.erase(it);
          self->submit_decision(round + 1, false);
        };
      }
      std::optional<Response> r;
      try {
        r = sh_->svc.handle_parkable(rq, resume);
      } catch (...) {
        r = sh_->svc.refuse("internal_error", rq.version());
      }
      if (!r) {
        if (resume) return;  // suspended: resume() queues the next run
        r = sh_->svc.refuse("internal_error", rq.version());
      }
      if (resume) {
        std::lock_guard<std::mutex> lock(sh_->mu);
        sh_->parked.erase(this);
      }
      out = std::move(*r);
    } else {
      try {
        out = sh_->svc.handle(rq);
      } catch (...) {
        out = sh_->svc.refuse("internal_error", rq.version());
      }
    }
    net::post(stream_.get_executor(), [self = shared_from_this(), r = std::move(out)]() mutable {
      self->res_ = std::move(r);
      self->respond();
    });
  }
  void respond() {
    res_.keep_alive(parser_ && parser_->get().keep_alive() && !sh_->draining);
    write();
  }
  void write() {
    res_.prepare_payload();
    stream_.expires_after(std::chrono::milliseconds(sh_->opt.idle_timeout_ms));
    http::async_write(stream_, res_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec || !self->res_.keep_alive()) return self->close();
      self->read();
    });
  }
  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;  ///< bounded: header limit + body limit + slack
  std::optional<http::request_parser<http::string_body>> parser_;
  Response res_;
  std::shared_ptr<Shared> sh_;
  bool reading_ = false;  ///< an async_read is pending (strand-only state)
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, tcp::acceptor&& acc, std::shared_ptr<Shared> sh)
      : ioc_(ioc), strand_(net::make_strand(ioc)), acc_(std::move(acc)), sh_(std::move(sh)), timer_(strand_) {}
  /// The acceptor, its back-off timer and stop() all run on the listener's strand.
  void accept() {
    acc_.async_accept(net::make_strand(ioc_), net::bind_executor(strand_, [self = shared_from_this()](beast::error_code ec, tcp::socket s) {
      if (ec == net::error::operation_aborted || self->stopped_) return;
      if (ec) {
        // EMFILE / ENFILE / ENOBUFS / ENOMEM...: the pending connection stays queued, so an
        // immediate retry fails again at once (a busy loop). Back off, doubling, and log once
        // per episode; the connections under way finish and free descriptors meanwhile.
        if (!self->logged_) {
          std::cerr << "pqsig serve: accept failed (" << ec.message() << "); backing off\n";
          self->logged_ = true;
        }
        if (self->sh_->svc.limit) self->sh_->svc.limit("accept_backoff");
        self->timer_.expires_after(self->backoff_);
        self->backoff_ = std::min<std::chrono::milliseconds>(
            self->backoff_ * 2, std::chrono::milliseconds(std::max<long>(10, self->sh_->opt.accept_backoff_max_ms)));
        self->timer_.async_wait([self](beast::error_code tec) {
          if (!tec && !self->stopped_) self->accept();
        });
        return;
      }
      if (self->logged_) std::cerr << "pqsig serve: accepting again\n";
      self->logged_ = false;
      self->backoff_ = std::chrono::milliseconds(10);
      {
        if (self->sh_->connections.fetch_add(1) >= self->sh_->opt.max_connections) {
          self->sh_->connections.fetch_sub(1);
          if (self->sh_->svc.limit) self->sh_->svc.limit("connections");
          beast::error_code ignored;
          s.close(ignored);  // over the connection cap: refuse at once
        } else {
          std::make_shared<Session>(std::move(s), self->sh_)->run();
        }
      }
      self->accept();
    }));
  }
  void stop() {
    stopped_ = true;
    net::dispatch(strand_, [self = shared_from_this()] {
      beast::error_code ec;
      self->acc_.close(ec);
      self->timer_.cancel();
    });
  }

 private:
  net::io_context& ioc_;
  net::strand<net::io_context::executor_type> strand_;
  tcp::acceptor acc_;
  std::shared_ptr<Shared> sh_;
  net::steady_timer timer_;
  std::chrono::milliseconds backoff_{10};
  bool logged_ = false;                 ///< the current accept failure episode was logged
  std::atomic<bool> stopped_{false};
};

int serve(Service svc, const ServerOptions& opt, std::function<void()> on_hup) {
  net::io_context ioc{std::max(1, opt.threads)};
  beast::error_code ec;
  auto addr = net::ip::make_address(opt.host, ec);
  if (ec) {
    std::cerr << "pqsig serve: bad listen address " << opt.host << "\n";
    return 2;
  }
  tcp::acceptor acc(ioc);
  tcp::endpoint ep(addr, opt.port);
  acc.open(ep.protocol(), ec);
  if (!ec) acc.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acc.bind(ep, ec);
  if (!ec) acc.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    std::cerr << "pqsig serve: cannot listen on " << opt.host << ":" << opt.port << ": " << ec.message() << "\n";
    return 2;
  }
  auto bound = acc.local_endpoint();
  auto sh = std::make_shared<Shared>();
  sh->svc = std::move(svc);
  sh->opt = opt;
  // Declared after ioc: stopped and destroyed first (queued jobs hold sessions bound to ioc).
  std::unique_ptr<DecisionPool> pool;
  if (opt.decision_threads > 0)
    pool = std::make_unique<DecisionPool>(opt.decision_threads, std::max<std::size_t>(1, opt.max_queued_decisions),
                                          opt.queue_timeout_ms);
  sh->pool = pool.get();
  auto listener = std::make_shared<Listener>(ioc, std::move(acc), sh);
  listener->accept();

  net::signal_set signals(ioc, SIGINT, SIGTERM);
  net::steady_timer drain_timer(ioc);
  std::chrono::steady_clock::time_point drain_deadline{};
  std::function<void(beast::error_code)> poll_drain;
  if (on_hup) signals.add(SIGHUP);
  std::function<void(beast::error_code, int)> on_signal = [&](beast::error_code sec, int sig) {
    if (sec) return;
    if (sig == SIGHUP && on_hup) {
      on_hup();
      signals.async_wait(on_signal);
      return;
    }
    // Drain: stop accepting, let requests under way finish (bounded by drain_timeout_ms), exit 0.
    listener->stop();
    sh->draining = true;
    std::vector<std::shared_ptr<Session>> live;
    {
      std::lock_guard<std::mutex> lock(sh->mu);
      for (auto& w : sh->sessions)
        if (auto p = w.lock()) live.push_back(std::move(p));
    }
    for (auto& p : live) p->drain();
    live.clear();
    std::cerr << "pqsig serve: signal " << sig << ", draining " << sh->connections.load() << " connection(s)\n";
    drain_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max<long>(0, opt.drain_timeout_ms));
    poll_drain(beast::error_code{});
  };
  poll_drain = [&](beast::error_code) {
    std::size_t open = sh->connections.load();
    if (open == 0 || std::chrono::steady_clock::now() >= drain_deadline) {
      if (open) std::cerr << "pqsig serve: drain deadline passed, closing " << open << " connection(s)\n";
      else std::cerr << "pqsig serve: drained\n";
      signals.cancel();
      ioc.stop();
      return;
    }
    drain_timer.expires_after(std::chrono::milliseconds(10));
    drain_timer.async_wait(poll_drain);
  };
  signals.async_wait(on_signal);

  std::string where = bound.address().to_string() + ":" + std::to_string(bound.port());
  std::cerr << "pqsig serve: listening on " << where << "\n";
  if (!opt.ready_file.empty()) {
    std::string tmp = opt.ready_file + ".tmp";
    {
      std::ofstream f(tmp, std::ios::trunc);
      f << where << "\n";
    }
    std::rename(tmp.c_str(), opt.ready_file.c_str());
  }
  std::vector<std::thread> io_threads;
  for (int i = 1; i < std::max(1, opt.threads); ++i) io_threads.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : io_threads) t.join();
  {
    // Suspended requests are dropped here, while ioc (their sockets' context) still exists; a
    // fetch that ends later finds the server closed.
    std::map<const Session*, std::shared_ptr<Session>> drop;
    std::lock_guard<std::mutex> lock(sh->mu);
    sh->closed = true;
    drop.swap(sh->parked);
  }
  if (pool) pool->stop();
  return 0;
}

/// Rejection details to stderr, at most 20 lines per 10 s (then one line counting the rest):
/// a flood of hostile requests cannot flood the log.
void log_detail(const Decision& d) {
  static std::mutex mu;
  static std::chrono::steady_clock::time_point window{};
  static int lines = 0;
  static std::uint64_t suppressed = 0;
  std::lock_guard<std::mutex> lock(mu);
  auto now = std::chrono::steady_clock::now();
  if (now - window > std::chrono::seconds(10)) {
    if (suppressed) std::cerr << "pqsig serve: " << suppressed << " rejection detail line(s) suppressed\n";
    window = now;
    lines = 0;
    suppressed = 0;
  }
  if (lines >= 20) {
    ++suppressed;
    return;
  }
  ++lines;
  std::cerr << "pqsig serve: 401 " << header_safe(d.reason, 64) << ": " << header_safe(d.detail, 400) << "\n";
}

Response text(unsigned version, http::status st, std::string body, std::string_view type = "text/plain; charset=utf-8") {
  Response r{st, version};
  r.set(http::field::server, "pqsig");
  r.set(http::field::content_type, type);
  r.set(http::field::cache_control, "no-store");
  r.body() = std::move(body);
  return r;
}

}  // namespace

int run_verify_server(Verifier& verifier, Metrics& metrics, const ServerOptions& opt) {
  Service svc;
  // The client learns the reason class only (X-Pqsig-Reason): a detail can describe our network
  // (a directory name resolving to a private address vs not resolving) or our keys, and a proxy
  // such as Caddy forwards the whole 401. Details go to the log (rate-limited) and the metrics.
  auto unauthorized = [&verifier](unsigned version, const Decision& d) {
    Response r = text(version, http::status::unauthorized, d.reason + "\n");
    r.set("X-Pqsig-Reason", header_safe(d.reason, 64));
    r.set("Accept-Signature", verifier.accept_signature());
    r.set(http::field::www_authenticate, "Signature realm=\"web-bot-auth\"");
    return r;
  };
  svc.refuse = [&metrics, unauthorized](std::string_view reason, unsigned version) {
    metrics.rejected(reason);
    Decision d;
    d.reason = std::string(reason);
    return unauthorized(version, d);
  };
  svc.limit = [&metrics](std::string_view l) { metrics.limit_hit(l); };
  svc.fast = [&metrics](const Request& req) -> std::optional<Response> {
    std::string_view target = req.target();
    if (target == "/healthz") return text(req.version(), http::status::ok, "ok\n");
    if (target == "/metrics") return text(req.version(), http::status::ok, metrics.render(), "text/plain; version=0.0.4");
    return std::nullopt;
  };
  svc.handle_parkable = [&verifier, &metrics, unauthorized](const Request& req,
                                                            std::function<void()> resume) -> std::optional<Response> {
    std::string_view target = req.target();
    std::vector<httpsig::FieldLine> fields;
    for (const auto& f : req) fields.push_back({std::string(f.name_string()), std::string(f.value())});
    auto m = original_request(verifier.options().proxy, req.method_string(), target, fields, verifier.options().scheme);
    if (!m) {
      Decision bad;
      bad.reason = "malformed_auth_request";
      bad.detail = m.error().message;
      metrics.rejected(bad.reason);
      return unauthorized(req.version(), bad);
    }
    // A request whose agent's keys are being fetched is suspended (no thread waits on the
    // network) and runs again when the fetch ends; its last allowed run waits, bounded.
    DirectoryCache::Park park;
    park.resume = std::move(resume);
    Decision d = verifier.decide(m.value(), unix_now(), park.resume ? &park : nullptr);
    if (park.parked) return std::nullopt;
    if (d.status != 200) {
      log_detail(d);
      return unauthorized(req.version(), d);
    }
    Response r = text(req.version(), http::status::ok, "ok\n");
    r.set("X-Pqsig-Label", header_safe(d.label, 64));
    r.set("X-Pqsig-Keyid", header_safe(d.keyid, 128));
    r.set("X-Pqsig-Alg", header_safe(d.alg, 64));
    r.set("X-Pqsig-Agent", header_safe(d.agent, 300));
    std::string all;
    for (const auto& l : d.labels) all += (all.empty() ? "" : ",") + l;
    r.set("X-Pqsig-Labels", header_safe(all, 128));
    return r;
  };
  ServerOptions o = opt;
  if (o.decision_threads <= 0) o.decision_threads = std::max(2, opt.threads) + 6;  // never on the I/O threads
  return serve(std::move(svc), o, nullptr);
}

int run_directory_server(DirectoryPublisher& pub, const ServerOptions& opt) {
  Service svc;
  svc.refuse = [](std::string_view reason, unsigned version) {
    return text(version, http::status::bad_request, std::string(reason) + "\n");
  };
  svc.handle = [&pub](const Request& req) -> Response {
    std::string_view target = req.target();
    if (target == "/healthz") return text(req.version(), http::status::ok, "ok\n");
    std::string_view path = target.substr(0, target.find('?'));
    if (path != webbotauth::kDirectoryPath) return text(req.version(), http::status::not_found, "not found\n");
    if (req.method() != http::verb::get && req.method() != http::verb::head)
      return text(req.version(), http::status::method_not_allowed, "GET only\n");
    auto resp = pub.respond(req[http::field::host], unix_now());
    if (!resp)
      return text(req.version(), resp.error().code == Errc::policy ? http::status::misdirected_request : http::status::bad_request,
                  resp.error().message + "\n");
    Response r{http::status::ok, req.version()};
    r.set(http::field::server, "pqsig");
    for (const auto& h : resp->headers) r.insert(h.name, h.value);
    r.body() = req.method() == http::verb::head ? std::string() : resp->body;
    return r;
  };
  return serve(std::move(svc), opt, [&pub] {
    auto st = pub.reload();
    if (st) std::cerr << "pqsig serve directory: reloaded " << pub.key_count() << " key(s)\n";
    else std::cerr << "pqsig serve directory: reload failed, keeping the old keys: " << st.error().message << "\n";
  });
}

}  // namespace pqsig::serve
