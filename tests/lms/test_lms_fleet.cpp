// A fleet shares one key (issue 23): signers lease disjoint index ranges from a real PostgreSQL
// (started here: initdb into a temp dir, pg_ctl on 127.0.0.1 with a free port and a unix socket
// dir in the temp dir, stopped at the end) through client::PgLeaseSource, and persist each lease
// locally (lms::StateStore::reserve_lease) before using it. Under attack: several signer processes
// at once, some SIGKILLed; the store stopped mid-run and restarted; a rolled-back local state; a
// store whose row is hostile. After each: every signature verifies and no index is signed twice.
// Skipped only when the PostgreSQL server binaries (initdb, pg_ctl) are not installed or pqsig was
// built without libpq — a failure instead under PQSIG_REQUIRE_POSTGRES=1 (CI).
#include <arpa/inet.h>
#include <fcntl.h>
#include <glob.h>
#include <gtest/gtest.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "cli/cli_util.hpp"
#include "client/hbs_fleet_answer.hpp"
#include "pqsig/hbs_fleet.hpp"
#include "pqsig/lms.hpp"
#include "support/released_signatures.hpp"
#include "support/required.hpp"
#include "pqsig/xmss.hpp"
#include "support/scratch_dir.hpp"

using namespace pqsig;
namespace fs = std::filesystem;

namespace {

using FleetClock = std::chrono::steady_clock;
constexpr const char* kFleetSpec = "hss-sha256-m24-h5-w4-h5-w4";  // 1024 signatures, level-1 subtree 32

struct FleetTempDir : pqsig::test::ScratchDir {
  FleetTempDir() : ScratchDir("fleet") {}
};

lms::HssPrivateKey fleet_key(std::uint8_t tag) {
  auto lv = lms::parse_levels(kFleetSpec);
  EXPECT_TRUE(lv.ok());
  auto k = lms::HssPrivateKey::from_seed(*lv, bytes(16, tag), bytes(lv->front().lms->m, static_cast<std::uint8_t>(tag + 7)));
  EXPECT_TRUE(k.ok());
  return std::move(*k);
}

bytes fleet_public_key(std::uint8_t tag) {
  auto s = lms::HssSigner::create(fleet_key(tag), 1);
  EXPECT_TRUE(s.ok());
  return s->public_key();
}

// Waits for a child at most timeout; SIGKILLs it past that. Returns the wait status, or -1.
int fleet_wait(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = FleetClock::now() + timeout;
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0) return -1;
    if (FleetClock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Runs a program, optionally as another user (initdb and postgres refuse to run as root), its
// output to `log`; bounded in time. Returns the exit code, or -1.
int fleet_run(const std::vector<std::string>& argv, const std::string& log, const passwd* as_user, int timeout_s) {
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    if (as_user) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(as_user->pw_gid) != 0 || ::setuid(as_user->pw_uid) != 0) _exit(126);
    }
    std::vector<char*> a;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    ::execv(a[0], a.data());
    _exit(127);
  }
  const int st = fleet_wait(pid, std::chrono::seconds(timeout_s));
  return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string fleet_pg_bindir() {
  if (const char* e = std::getenv("PQSIG_PG_BINDIR")) return e;
  glob_t g{};
  std::string best;
  if (::glob("/usr/lib/postgresql/*/bin/pg_ctl", 0, nullptr, &g) == 0) {
    for (std::size_t i = 0; i < g.gl_pathc; ++i) {
      std::string dir = fs::path(g.gl_pathv[i]).parent_path().string();
      if (fs::exists(dir + "/initdb") && fs::exists(dir + "/postgres") &&
          (best.empty() || std::stoi(fs::path(dir).parent_path().filename().string()) >
                               std::stoi(fs::path(best).parent_path().filename().string())))
        best = dir;
    }
  }
  ::globfree(&g);
  return best;
}

int fleet_free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = -1;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(s);
  return port;
}

// One PostgreSQL cluster in a temp dir for the whole suite.
class FleetPg {
 public:
  static FleetPg* instance() {
    static FleetPg pg;
    return &pg;
  }
  const std::string& skip_reason() const { return skip_; }
  const std::string& error() const { return error_; }
  bool ready() const { return skip_.empty() && error_.empty(); }
  std::string url(const std::string& db = "postgres") const {
    return "postgresql://pqsig@127.0.0.1:" + std::to_string(port_) + "/" + db;
  }

  bool start() {
    if (running_) return true;
    const int rc = fleet_run({bin_ + "/pg_ctl", "-D", data_, "-l", tmp_.file("server.log"), "-w", "-t", "30", "-o",
                              "-p " + std::to_string(port_) + " -k " + sock_ +
                                  " -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60",
                              "start"},
                             tmp_.file("pg_ctl.log"), user_, 40);
    running_ = rc == 0;
    return running_;
  }
  bool stop() {
    if (!running_) return true;
    const int rc = fleet_run({bin_ + "/pg_ctl", "-D", data_, "-m", "fast", "-w", "-t", "30", "stop"},
                             tmp_.file("pg_ctl.log"), user_, 40);
    running_ = rc != 0;
    return rc == 0;
  }
  // Runs SQL through psql (the test plays a hostile or restored store).
  bool psql(const std::string& sql, const std::string& db = "postgres") {
    return fleet_run({bin_ + "/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                      std::to_string(port_), "-U", "pqsig", "-d", db, "-c", sql},
                     tmp_.file("psql.log"), nullptr, 30) == 0;
  }
  // The same, in the background (returns the child's pid; the caller waits for it).
  pid_t psql_async(const std::string& sql) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int fd = ::open(tmp_.file("psql.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        ::dup2(fd, 1);
        ::dup2(fd, 2);
      }
      const std::string psql = bin_ + "/psql", port = std::to_string(port_);
      ::execl(psql.c_str(), psql.c_str(), "-X", "-q", "-h", "127.0.0.1", "-p", port.c_str(), "-U", "pqsig", "-d",
              "postgres", "-c", sql.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    return pid;
  }
  // The postmaster's pid (first line of postmaster.pid), or -1.
  pid_t postmaster_pid() const {
    std::ifstream f(data_ + "/postmaster.pid");
    long pid = -1;
    f >> pid;
    return f ? static_cast<pid_t>(pid) : -1;
  }
  std::string log_tail() const {
    std::ifstream f(tmp_.file("server.log"));
    std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::ifstream g(tmp_.file("pg_ctl.log"));
    std::string all2((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
    all += all2;
    return all.size() > 3000 ? all.substr(all.size() - 3000) : all;
  }
  ~FleetPg() { stop(); }

 private:
  FleetPg() {
    bin_ = fleet_pg_bindir();
    if (bin_.empty()) {
      skip_ = "PostgreSQL server binaries (initdb, pg_ctl, postgres) not installed (Debian: postgresql)";
      return;
    }
    if (!fs::exists(bin_ + "/psql")) {
      skip_ = "psql not installed beside " + bin_;
      return;
    }
    if (::geteuid() == 0) {
      user_ = ::getpwnam("postgres");
      if (!user_) {
        skip_ = "running as root and no 'postgres' user to run the PostgreSQL server as";
        return;
      }
    }
    data_ = tmp_.file("data");
    sock_ = tmp_.file("sock");
    fs::create_directories(sock_);
    if (user_) {
      for (const auto& p : {tmp_.p.string(), sock_})
        if (::chown(p.c_str(), user_->pw_uid, user_->pw_gid) != 0) {
          error_ = "chown " + p + " failed";
          return;
        }
    }
    port_ = fleet_free_port();
    if (port_ <= 0) {
      error_ = "no free port on 127.0.0.1";
      return;
    }
    if (fleet_run({bin_ + "/initdb", "-D", data_, "-A", "trust", "-U", "pqsig", "--no-sync", "-E", "UTF8"},
                  tmp_.file("initdb.log"), user_, 120) != 0) {
      error_ = "initdb failed: " + log_of("initdb.log");
      return;
    }
    if (!start()) {
      error_ = "pg_ctl start failed: " + log_tail();
      return;
    }
    auto src = client::PgLeaseSource::open(url());
    if (!src) {
      error_ = src.error().what();
      return;
    }
    if (auto s = (*src)->init_schema(); !s) error_ = "init_schema: " + s.error().what();
  }
  std::string log_of(const std::string& n) const {
    std::ifstream f(tmp_.file(n));
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  }
  FleetTempDir tmp_;
  std::string bin_, data_, sock_, skip_, error_;
  const passwd* user_ = nullptr;
  int port_ = 0;
  bool running_ = false;
};

// Skips (a failure under PQSIG_REQUIRE_POSTGRES=1, as in CI: tests/support/required.hpp) only for a
// reason outside the project: no PostgreSQL server here, or pqsig_client built without libpq-dev.
#define FLEET_NEED_PG()                                                                            \
  FleetPg* pg = FleetPg::instance();                                                              \
  if (!pg->skip_reason().empty()) PQSIG_POSTGRES_SKIP_OR_FAIL(pg->skip_reason());                 \
  if (!client::pg_leases_available())                                                             \
    PQSIG_POSTGRES_SKIP_OR_FAIL("pqsig_client built without libpq (Debian libpq-dev, then rebuild)"); \
  ASSERT_TRUE(pg->ready()) << pg->error()

std::shared_ptr<client::PgLeaseSource> fleet_source(FleetPg* pg, const std::string& db = "postgres") {
  client::PgLeaseLimits lim;
  lim.connect_timeout_s = 2;
  lim.statement_timeout_ms = 2000;
  lim.total_timeout_ms = 20000;  // generous: a loaded CI machine is slow (the time-limit test sets its own)
  lim.max_attempts = 40;
  auto s = client::PgLeaseSource::open(pg->url(db), lim);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().what());
  return s.ok() ? *s : nullptr;
}

void fleet_register(FleetPg* pg, byte_span pk) {
  auto src = fleet_source(pg);
  ASSERT_TRUE(src);
  auto st = src->register_key(lms::key_id(pk), 1024);
  ASSERT_TRUE(st.ok()) << st.error().what();
}

using FleetRecord = pqsig::test::ReleasedSignature;

// Every signature verifies, no index twice. Returns the highest index (or -1).
long long fleet_check_records(const std::vector<FleetRecord>& recs, byte_span pk) {
  std::map<std::uint64_t, std::string> seen;
  long long hi = -1;
  for (const auto& r : recs) {
    auto v = lms::hss_verify(pk, as_bytes(r.message), r.sig);
    EXPECT_TRUE(v.ok()) << "index " << r.index << ": " << (v.ok() ? "" : v.error().what());
    auto [it, fresh] = seen.emplace(r.index, r.message);
    EXPECT_TRUE(fresh) << "INDEX " << r.index << " SIGNED TWICE: '" << it->second << "' and '" << r.message << "'";
    hi = std::max(hi, static_cast<long long>(r.index));
  }
  return hi;
}

// The step at which a child kills itself (SIGKILL) the second time it passes there.
const char* g_fleet_kill_step = nullptr;
int g_fleet_kill_hits = 0;
void fleet_kill_hook(const char* step) {
  if (g_fleet_kill_step && std::strcmp(step, g_fleet_kill_step) == 0 && ++g_fleet_kill_hits == 2)
    ::kill(::getpid(), SIGKILL);
}

// A child signer: its own local state (one "machine"), leases from the store, signs up to
// `count` messages within `seconds`, releasing each to `out`. Exit 0 done, 3 a sign error.
[[noreturn]] void fleet_child(const std::string& url, const std::string& state, const std::string& out,
                              const std::string& name, std::uint8_t tag, int count, std::uint64_t block,
                              std::uint64_t align, int seconds, const char* kill_step = nullptr) {
  g_fleet_kill_step = kill_step;
  if (kill_step) lms::StateStore::set_step_hook(fleet_kill_hook);
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0) _exit(4);
  client::PgLeaseLimits lim;
  lim.connect_timeout_s = 5;
  lim.statement_timeout_ms = 5000;
  lim.total_timeout_ms = 30000;
  lim.max_attempts = 200;
  auto src = client::PgLeaseSource::open(url, lim);
  if (!src) _exit(5);
  auto signer = lms::StatefulSigner::open(fleet_key(tag), state, block, 1);
  if (!signer) _exit(6);
  signer->use_leases(*src, name, align);
  const auto deadline = FleetClock::now() + std::chrono::seconds(seconds);
  for (int i = 0; i < count && FleetClock::now() < deadline; ++i) {
    const std::string msg = name + " message " + std::to_string(i);
    auto s = signer->sign(as_bytes(msg));
    if (!s) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), s.error().what().c_str());
      _exit(3);
    }
    pqsig::test::write_released(fd, s->index, msg, s->signature);
  }
  ::close(fd);
  _exit(0);
}

std::size_t fleet_file_size(const std::string& p) {
  struct stat sb {};
  return ::stat(p.c_str(), &sb) == 0 ? static_cast<std::size_t>(sb.st_size) : 0;
}

// A lease source that answers what a test tells it to (a hostile or broken store).
class FleetScriptedSource final : public lms::LeaseSource {
 public:
  lms::Reservation answer{};
  Error fail{};
  bool fails = false;
  lms::LeaseRequest last{};
  Result<lms::Reservation> lease(const lms::LeaseRequest& r) override {
    last = r;
    if (fails) return fail;
    return answer;
  }
};

}  // namespace

// (1) Several signer processes on one key at once, two of them SIGKILLed mid-run and one of
// those restarted on its state: every released signature verifies, no index twice.
TEST(LmsFleet, ManySignerProcessesSomeKilled) {
  FLEET_NEED_PG();
  constexpr std::uint8_t kTag = 31;
  const bytes pk = fleet_public_key(kTag);
  fleet_register(pg, pk);
  FleetTempDir d;
  constexpr int kSigners = 4;
  for (int i = 0; i < kSigners; ++i)
    ASSERT_TRUE(lms::StateStore::create(d.file("s" + std::to_string(i) + ".state"), pk, 1024).ok());
  std::vector<pid_t> pids;
  for (int i = 0; i < kSigners; ++i) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
      fleet_child(pg->url(), d.file("s" + std::to_string(i) + ".state"), d.file("out" + std::to_string(i)),
                  "signer-" + std::to_string(i), kTag, 60, 8, i >= 2 ? 32 : 1, 90);
    pids.push_back(pid);
  }
  // SIGKILL signers 0 and 1 once they have released a few signatures (bounded wait).
  for (int k = 0; k < 2; ++k) {
    const auto deadline = FleetClock::now() + std::chrono::seconds(20);
    while (fleet_file_size(d.file("out" + std::to_string(k))) < 3 * 500 && FleetClock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ::kill(pids[static_cast<std::size_t>(k)], SIGKILL);
  }
  for (int i = 0; i < kSigners; ++i) {
    const int st = fleet_wait(pids[static_cast<std::size_t>(i)], std::chrono::seconds(120));
    if (i >= 2) {
      EXPECT_TRUE(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0) << "signer " << i << " status " << st;
    }
  }
  // Signer 0 restarts on its (killed) state and signs on with fresh leases.
  const pid_t again = ::fork();
  ASSERT_GE(again, 0);
  if (again == 0) fleet_child(pg->url(), d.file("s0.state"), d.file("out0"), "signer-0", kTag, 20, 8, 1, 90);
  const int st = fleet_wait(again, std::chrono::seconds(120));
  EXPECT_TRUE(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0) << "restarted signer status " << st;

  std::vector<FleetRecord> all;
  for (int i = 0; i < kSigners; ++i) {
    auto r = pqsig::test::read_released(d.file("out" + std::to_string(i)));
    if (i >= 2) {
      EXPECT_EQ(r.size(), 60u) << "signer " << i;
    } else {
      EXPECT_GE(r.size(), 1u) << "signer " << i;
    }
    all.insert(all.end(), r.begin(), r.end());
  }
  ASSERT_GE(all.size(), 140u);
  const long long hi = fleet_check_records(all, pk);
  // The store's counter is past every index used; every local audit log is clean.
  auto row = fleet_source(pg)->key_status(lms::key_id(pk));
  ASSERT_TRUE(row.ok()) << row.error().what();
  EXPECT_GT(static_cast<long long>(row->next_index), hi);
  EXPECT_GE(row->leases, 8u);
  for (int i = 0; i < kSigners; ++i) {
    auto store = lms::StateStore::open(d.file("s" + std::to_string(i) + ".state"), pk);
    ASSERT_TRUE(store.ok()) << store.error().what();
    auto a = store->audit();
    ASSERT_TRUE(a.ok()) << a.error().what();
    EXPECT_TRUE(a->clean()) << "signer " << i;
  }
}

// (2) The store stops mid-run: each signer goes on exactly to the end of the lease it has
// persisted, then gets the typed error (Errc::io, "lease store unavailable") and keeps getting
// it; after a restart they continue. No index reused.
TEST(LmsFleet, StoreOutageSignsOnlyInsidePersistedLeases) {
  FLEET_NEED_PG();
  constexpr std::uint8_t kTag = 32;
  const bytes pk = fleet_public_key(kTag);
  fleet_register(pg, pk);
  FleetTempDir d;
  struct One {
    std::string name;
    std::uint64_t block, align;
    std::unique_ptr<lms::StatefulSigner> s;
  };
  std::vector<One> signers;
  signers.push_back({"outage-a", 16, 1, nullptr});
  signers.push_back({"outage-b", 8, 32, nullptr});  // aligned: one whole level-1 subtree per lease
  for (auto& o : signers) {
    ASSERT_TRUE(lms::StateStore::create(d.file(o.name), pk, 1024).ok());
    auto s = lms::StatefulSigner::open(fleet_key(kTag), d.file(o.name), o.block, 1);
    ASSERT_TRUE(s.ok()) << s.error().what();
    s->use_leases(fleet_source(pg), o.name, o.align);
    o.s = std::make_unique<lms::StatefulSigner>(std::move(*s));
  }
  std::vector<FleetRecord> all;
  auto sign_one = [&](One& o, const std::string& m) -> Result<std::uint64_t> {
    auto r = o.s->sign(as_bytes(m));
    if (!r) return r.error();
    all.push_back({r->index, m, r->signature});
    return r->index;
  };
  for (auto& o : signers)
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(sign_one(o, o.name + " before " + std::to_string(i)).ok());
  EXPECT_EQ(signers[1].s->current().first % 32, 3u);  // inside an aligned lease
  std::vector<std::uint64_t> left;
  for (auto& o : signers) left.push_back(o.s->current().size());
  EXPECT_EQ(left[0], 13u);
  EXPECT_EQ(left[1], 29u);

  ASSERT_TRUE(pg->stop()) << pg->log_tail();
  for (std::size_t k = 0; k < signers.size(); ++k) {
    auto& o = signers[k];
    std::uint64_t ok = 0;
    Error err;
    for (int i = 0; i < 100; ++i) {  // bounded: the lease has at most 32 indices left
      auto r = sign_one(o, o.name + " during " + std::to_string(i));
      if (!r) {
        err = r.error();
        break;
      }
      ++ok;
    }
    EXPECT_EQ(ok, left[k]) << o.name << ": signs exactly the rest of its persisted lease";
    EXPECT_EQ(err.code, Errc::io) << err.what();
    EXPECT_NE(err.message.find("lease store unavailable"), std::string::npos) << err.what();
    // Still down: still refused, never a guess.
    auto again = sign_one(o, o.name + " still down");
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().code, Errc::io);
  }
  ASSERT_TRUE(pg->start()) << pg->log_tail();
  for (auto& o : signers)
    for (int i = 0; i < 5; ++i) {
      auto r = sign_one(o, o.name + " after " + std::to_string(i));
      ASSERT_TRUE(r.ok()) << r.error().what();
    }
  EXPECT_EQ(all.size(), 3u * 2 + 13 + 29 + 5 * 2);
  fleet_check_records(all, pk);
  for (auto& o : signers) {
    auto a = o.s->store().audit();
    ASSERT_TRUE(a.ok()) << a.error().what();
    EXPECT_TRUE(a->clean());
  }
}

// (3) A local state restored from a backup (consistent with its own log, so the local checks
// pass) is older than what the store recorded for this signer: refused, nothing leased.
TEST(LmsFleet, RolledBackLocalStateIsRefusedByTheStore) {
  FLEET_NEED_PG();
  constexpr std::uint8_t kTag = 33;
  const bytes pk = fleet_public_key(kTag);
  fleet_register(pg, pk);
  FleetTempDir d;
  const std::string state = d.file("rb.state");
  ASSERT_TRUE(lms::StateStore::create(state, pk, 1024).ok());
  auto src = fleet_source(pg);
  {
    auto s = lms::StatefulSigner::open(fleet_key(kTag), state, 4, 1);
    ASSERT_TRUE(s.ok());
    s->use_leases(src, "rb");
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(s->sign(as_bytes(std::string("a") + std::to_string(i))).ok());
    fs::copy_file(state, d.file("backup.state"));
    fs::copy_file(state + ".log", d.file("backup.state.log"));
    for (int i = 0; i < 8; ++i) ASSERT_TRUE(s->sign(as_bytes(std::string("b") + std::to_string(i))).ok());
  }
  auto before = src->key_status(lms::key_id(pk));
  ASSERT_TRUE(before.ok());
  fs::copy_file(d.file("backup.state"), state, fs::copy_options::overwrite_existing);
  fs::copy_file(d.file("backup.state.log"), state + ".log", fs::copy_options::overwrite_existing);
  auto s = lms::StatefulSigner::open(fleet_key(kTag), state, 4, 1);
  ASSERT_TRUE(s.ok()) << "the restored state is consistent with its restored log";
  s->use_leases(src, "rb");
  auto r = s->sign(as_bytes(std::string("after rollback")));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::state_rejected) << r.error().what();
  EXPECT_NE(r.error().message.find("rolled back"), std::string::npos) << r.error().what();
  auto after = src->key_status(lms::key_id(pk));
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->next_index, before->next_index);
  EXPECT_EQ(after->generation, before->generation);
}

// (4) A hostile or corrupt store row is a typed error and leaves the local state untouched:
// next_index beyond the limit, below this signer's local end (a restored store), another limit.
TEST(LmsFleet, HostileStoreRowIsRefused) {
  FLEET_NEED_PG();
  constexpr std::uint8_t kTag = 34;
  const bytes pk = fleet_public_key(kTag);
  fleet_register(pg, pk);
  const std::string id = lms::key_id(pk);
  FleetTempDir d;
  const std::string state = d.file("h.state");
  ASSERT_TRUE(lms::StateStore::create(state, pk, 1024).ok());
  auto store = lms::StateStore::open(state, pk);
  ASSERT_TRUE(store.ok());
  auto src = fleet_source(pg);
  auto first = store->reserve_lease(*src, "hostile", 100);
  ASSERT_TRUE(first.ok()) << first.error().what();
  EXPECT_EQ(first->first, 0u);
  EXPECT_EQ(first->end, 100u);
  auto info0 = store->info();
  ASSERT_TRUE(info0.ok());

  auto expect_refused = [&](const std::string& sql, const char* what) {
    ASSERT_TRUE(pg->psql(sql)) << sql;
    auto r = store->reserve_lease(*src, "hostile", 10);
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_EQ(r.error().code, Errc::state_rejected) << what << ": " << r.error().what();
    auto inf = store->info();
    ASSERT_TRUE(inf.ok());
    EXPECT_EQ(inf->reserved_end, info0->reserved_end) << what;
    EXPECT_EQ(inf->generation, info0->generation) << what;
  };
  expect_refused("UPDATE pqsig_hbs_keys SET next_index = index_limit + 5 WHERE key_id = '" + id + "'",
                 "next_index beyond the limit");
  EXPECT_EQ(src->key_status(id).error().code, Errc::state_rejected);
  expect_refused("UPDATE pqsig_hbs_keys SET next_index = 40 WHERE key_id = '" + id + "'",
                 "next_index below the local reserved end");
  expect_refused("UPDATE pqsig_hbs_keys SET next_index = 200, index_limit = 4096 WHERE key_id = '" + id + "'",
                 "another limit");
  // Repaired: leasing works again, past everything used.
  ASSERT_TRUE(pg->psql("UPDATE pqsig_hbs_keys SET index_limit = 1024 WHERE key_id = '" + id + "'"));
  auto ok = store->reserve_lease(*src, "hostile", 10);
  ASSERT_TRUE(ok.ok()) << ok.error().what();
  EXPECT_EQ(ok->first, 200u);
  // A key nobody registered.
  const bytes other = fleet_public_key(35);
  const std::string s2 = d.file("o.state");
  ASSERT_TRUE(lms::StateStore::create(s2, other, 1024).ok());
  auto st2 = lms::StateStore::open(s2, other);
  ASSERT_TRUE(st2.ok());
  auto nr = st2->reserve_lease(*src, "x", 4);
  ASSERT_FALSE(nr.ok());
  EXPECT_EQ(nr.error().code, Errc::state_rejected) << nr.error().what();

  // Values none of our bigint columns can hold — what a hostile or broken server answers. In a
  // database of their own (its columns made text, the checks and the primary key dropped): each is
  // a typed error from the answer parser (src/client/hbs_fleet_answer.hpp) naming the field, and
  // the local state is untouched.
  const std::string hdb = "pqsig_hostile";
  ASSERT_TRUE(pg->psql("CREATE DATABASE " + hdb));
  auto hsrc = fleet_source(pg, hdb);
  ASSERT_TRUE(hsrc);
  ASSERT_TRUE(hsrc->init_schema().ok());
  const bytes hpk = fleet_public_key(44);
  const std::string hid = lms::key_id(hpk);
  ASSERT_TRUE(hsrc->register_key(hid, 1024).ok());
  const std::string hstate = d.file("v.state");
  ASSERT_TRUE(lms::StateStore::create(hstate, hpk, 1024).ok());
  auto hs = lms::StateStore::open(hstate, hpk);
  ASSERT_TRUE(hs.ok());
  auto hfirst = hs->reserve_lease(*hsrc, "values", 10);
  ASSERT_TRUE(hfirst.ok()) << hfirst.error().what();
  auto hinfo0 = hs->info();
  ASSERT_TRUE(hinfo0.ok());
  auto value_refused = [&](const std::string& sql, const char* what, const char* says) {
    ASSERT_TRUE(pg->psql(sql, hdb)) << sql;
    auto r = hs->reserve_lease(*hsrc, "values", 10);
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_EQ(r.error().code, Errc::state_rejected) << what << ": " << r.error().what();
    EXPECT_NE(r.error().message.find(says), std::string::npos) << what << ": " << r.error().what();
    auto inf = hs->info();
    ASSERT_TRUE(inf.ok());
    EXPECT_EQ(inf->reserved_end, hinfo0->reserved_end) << what;
    EXPECT_EQ(inf->generation, hinfo0->generation) << what;
  };
  ASSERT_TRUE(pg->psql("ALTER TABLE pqsig_hbs_keys DROP CONSTRAINT pqsig_hbs_keys_next_index_check, "
                       "ALTER COLUMN next_index TYPE text, ALTER COLUMN next_index DROP NOT NULL",
                       hdb));
  auto set_next = [&](const std::string& v) {
    return "UPDATE pqsig_hbs_keys SET next_index = " + v + " WHERE key_id = '" + hid + "'";
  };
  value_refused(set_next("'-5'"), "negative", "next_index is negative");
  value_refused(set_next("'ten'"), "non-numeric", "next_index is not a decimal number");
  value_refused(set_next("' 20'"), "padded", "next_index is not a decimal number");
  value_refused(set_next("'020'"), "leading zero", "next_index has a leading zero");
  value_refused(set_next("repeat('9', 100000)"), "oversize", "next_index is 100000 bytes");
  value_refused(set_next("'99999999999999999999'"), "overflowing 64 bits", "next_index is 20 bytes");
  value_refused(set_next("'9223372036854775808'"), "overflowing a bigint", "next_index is beyond a bigint");
  value_refused(set_next("NULL"), "NULL", "next_index is NULL");
  auto hst = hsrc->key_status(hid);
  ASSERT_FALSE(hst.ok());
  EXPECT_EQ(hst.error().code, Errc::state_rejected) << hst.error().what();
  // The signer's recorded generation (read before any write), with a plausible counter again.
  ASSERT_TRUE(pg->psql(set_next("'20'"), hdb));
  value_refused("ALTER TABLE pqsig_hbs_leases ALTER COLUMN local_generation TYPE text; "
                "UPDATE pqsig_hbs_leases SET local_generation = '-1'",
                "negative recorded generation", "local_generation is negative");
  ASSERT_TRUE(pg->psql("UPDATE pqsig_hbs_leases SET local_generation = '0'", hdb));
  // Two rows for one key: not the answer to our query.
  value_refused("ALTER TABLE pqsig_hbs_keys DROP CONSTRAINT pqsig_hbs_keys_pkey CASCADE; "
                "INSERT INTO pqsig_hbs_keys SELECT * FROM pqsig_hbs_keys WHERE key_id = '" + hid + "'",
                "two rows", "2 rows (at most 1)");
  // Repaired: the same state leases again, after everything it used.
  ASSERT_TRUE(pg->psql("DELETE FROM pqsig_hbs_keys WHERE ctid <> (SELECT min(ctid) FROM pqsig_hbs_keys)", hdb));
  auto hok = hs->reserve_lease(*hsrc, "values", 10);
  ASSERT_TRUE(hok.ok()) << hok.error().what();
  EXPECT_EQ(hok->first, 20u);
}

// The answer parser alone (no server; src/client/hbs_fleet_answer.hpp, fuzzed by
// fuzz/targets/hbs_lease_answer.cpp): the shapes and values a hostile store could send are typed
// errors naming what is wrong; the answers a real store gives parse to their numbers.
TEST(LmsFleet, StoreAnswerParserRefusesHostileValues) {
  namespace cd = client::detail;
  using Values = std::vector<std::optional<std::string>>;
  auto row3 = [](std::optional<std::string> next, std::optional<std::string> limit, std::optional<std::string> gen) {
    return cd::StoreAnswerTable(1, 3, Values{std::move(next), std::move(limit), std::move(gen)});
  };
  auto good = cd::parse_key_row(row3("224", "1024", "7"), false);
  ASSERT_TRUE(good.ok()) << good.error().what();
  ASSERT_TRUE(good->has_value());
  EXPECT_EQ((*good)->next_index, 224u);
  EXPECT_EQ((*good)->limit, 1024u);
  EXPECT_EQ((*good)->generation, 7u);
  auto none = cd::parse_key_row(cd::StoreAnswerTable(0, 3, {}), false);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());  // not registered: the caller says so
  auto status = cd::parse_key_row(cd::StoreAnswerTable(1, 4, Values{"0", "1024", "0", "0"}), true);
  ASSERT_TRUE(status.ok()) << status.error().what();
  auto max = cd::parse_key_row(row3("1024", "9223372036854775807", "9223372036854775806"), false);
  ASSERT_TRUE(max.ok()) << max.error().what();

  const std::vector<std::tuple<cd::StoreAnswerTable, bool, const char*>> bad = {
      {row3("-1", "1024", "0"), false, "next_index is negative"},
      {row3("0", "x24", "0"), false, "index_limit is not a decimal number"},
      {row3("0", "1024", "0x10"), false, "generation is not a decimal number"},
      {row3("0", "+1024", "0"), false, "index_limit is not a decimal number"},
      {row3("0", "1024 ", "0"), false, "index_limit is not a decimal number"},
      {row3("0", std::string("10\0" "24", 5), "0"), false, "index_limit is not a decimal number"},
      {row3("0", "01024", "0"), false, "index_limit has a leading zero"},
      {row3("", "1024", "0"), false, "next_index is empty"},
      {row3(std::string(4096, '7'), "1024", "0"), false, "next_index is 4096 bytes"},
      {row3("0", "18446744073709551616", "0"), false, "index_limit is 20 bytes"},
      {row3("0", "9223372036854775808", "0"), false, "index_limit is beyond a bigint"},
      {row3("0", "1024", "9223372036854775807"), false, "generation cannot advance"},
      {row3(std::nullopt, "1024", "0"), false, "next_index is NULL"},
      {row3("0", "0", "0"), false, "index_limit is 0"},
      {row3("1025", "1024", "0"), false, "next_index 1025 is beyond the key's limit 1024"},
      {cd::StoreAnswerTable(2, 3, Values{"0", "1024", "0", "0", "1024", "0"}), false, "2 rows (at most 1)"},
      {cd::StoreAnswerTable(100000, 3, {}), false, "100000 rows (at most 1)"},
      {cd::StoreAnswerTable(1, 2, Values{"0", "1024"}), false, "2 fields (not 3)"},
      {cd::StoreAnswerTable(1, 4, Values{"0", "1024", "0", "0"}), false, "4 fields (not 3)"},
      {cd::StoreAnswerTable(1, 3, Values{"0", "1024", "0"}), true, "3 fields (not 4)"},
      {cd::StoreAnswerTable(1, 4, Values{"0", "1024", "0", "-3"}), true, "the lease count is negative"},
  };
  for (const auto& [answer, with_count, says] : bad) {
    auto r = cd::parse_key_row(answer, with_count);
    ASSERT_FALSE(r.ok()) << says;
    EXPECT_EQ(r.error().code, Errc::state_rejected) << says;
    EXPECT_EQ(r.error().message.rfind("lease store answer refused: ", 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find(says), std::string::npos) << says << " | " << r.error().message;
  }

  // A signer's last recorded generation: one aggregate row, one field; NULL = no lease yet.
  auto g = cd::parse_max_generation(cd::StoreAnswerTable(1, 1, Values{"12"}));
  ASSERT_TRUE(g.ok() && g->has_value());
  EXPECT_EQ(**g, 12u);
  auto gn = cd::parse_max_generation(cd::StoreAnswerTable(1, 1, Values{std::nullopt}));
  ASSERT_TRUE(gn.ok());
  EXPECT_FALSE(gn->has_value());
  for (const auto& a : {cd::StoreAnswerTable(0, 1, {}), cd::StoreAnswerTable(2, 1, Values{"1", "2"}),
                        cd::StoreAnswerTable(1, 2, Values{"1", "2"}), cd::StoreAnswerTable(1, 1, Values{"-4"}),
                        cd::StoreAnswerTable(1, 1, Values{std::string(30, '1')})}) {
    auto r = cd::parse_max_generation(a);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::state_rejected) << r.error().what();
  }

  // The compare-and-set's row count: exactly "1" won, "0" lost (retried), anything else refused.
  EXPECT_TRUE(*cd::parse_cas_rows("1"));
  EXPECT_FALSE(*cd::parse_cas_rows("0"));
  for (const char* t : {"2", "-1", "", " 1", "01", "1\n", "18446744073709551617"}) {
    auto r = cd::parse_cas_rows(t);
    ASSERT_FALSE(r.ok()) << t;
    EXPECT_EQ(r.error().code, Errc::state_rejected);
  }

  // Server text in our errors: one printable line, bounded; a SQLSTATE is five [0-9A-Z] or nothing.
  const std::string hostile = "ERROR: \x1b[31mred\x1b[0m\r\nDETAIL: \x07" + std::string(1000, 'A') + "\xff";
  const std::string line = cd::store_text_line(hostile);
  EXPECT_EQ(line.size(), cd::kStoreTextMax);
  EXPECT_EQ(line.rfind("ERROR: ?[31mred?[0m  DETAIL: ?AAA", 0), 0u) << line;
  EXPECT_EQ(cd::store_text_line("conflict \n  "), "conflict");
  EXPECT_EQ(cd::store_sqlstate("40001"), "40001");
  EXPECT_EQ(cd::store_sqlstate("4000"), "");
  EXPECT_EQ(cd::store_sqlstate("40001x"), "");
  EXPECT_EQ(cd::store_sqlstate("4000\n"), "");
  EXPECT_EQ(cd::store_sqlstate("4o001"), "");
}

// The core's checks of any lease source's answer (no store needed): every implausible grant is
// refused with Errc::state_rejected and nothing is written; a plausible one is persisted first.
TEST(LmsFleet, CoreRefusesImplausibleLeases) {
  FleetTempDir d;
  const bytes pk = fleet_public_key(36);
  const std::string state = d.file("c.state");
  ASSERT_TRUE(lms::StateStore::create(state, pk, 1024).ok());
  auto store = lms::StateStore::open(state, pk);
  ASSERT_TRUE(store.ok());
  FleetScriptedSource src;
  src.answer = {64, 96};
  auto good = store->reserve_lease(src, "core", 32, 32);
  ASSERT_TRUE(good.ok()) << good.error().what();
  EXPECT_EQ(src.last.local_end, 0u);
  EXPECT_EQ(src.last.limit, 1024u);
  EXPECT_EQ(src.last.align, 32u);
  auto inf = store->info();
  ASSERT_TRUE(inf.ok());
  EXPECT_EQ(inf->reserved_end, 96u);
  const std::uint64_t gen = inf->generation;
  // A fleet member never reserves locally again (its indices could be leased to others).
  auto local = store->reserve(4);
  ASSERT_FALSE(local.ok());
  EXPECT_EQ(local.error().code, Errc::policy) << local.error().what();
  const std::vector<std::pair<lms::Reservation, const char*>> bad = {
      {{120, 110}, "inverted"}, {{100, 100}, "empty"},        {{90, 100}, "below the local end"},
      {{1000, 1030}, "beyond the limit"}, {{96, 200}, "larger than asked"}, {{98, 108}, "misaligned"}};
  for (const auto& [res, what] : bad) {
    src.answer = res;
    auto r = store->reserve_lease(src, "core", 10, std::string(what) == "misaligned" ? 4 : 1);
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_EQ(r.error().code, Errc::state_rejected) << what;
  }
  src.fails = true;
  src.fail = Error{Errc::io, "lease store unavailable: test"};
  auto down = store->reserve_lease(src, "core", 10);
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.error().code, Errc::io);
  inf = store->info();
  ASSERT_TRUE(inf.ok());
  EXPECT_EQ(inf->reserved_end, 96u);
  EXPECT_EQ(inf->generation, gen);
  EXPECT_EQ(lms::hss_subtree_size(fleet_key(36).levels()), 32u);
}

// An unreachable store is Errc::io within the time limits (or unsupported without libpq); a
// malformed connection string is invalid_argument.
TEST(LmsFleet, UnreachableStoreIsTypedAndBounded) {
  if (!client::pg_leases_available()) {
    auto s = client::PgLeaseSource::open("postgresql://x@127.0.0.1:1/db");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, Errc::unsupported);
    return;
  }
  EXPECT_EQ(client::PgLeaseSource::open("host='unterminated").error().code, Errc::invalid_argument);
  const int port = fleet_free_port();
  ASSERT_GT(port, 0);
  client::PgLeaseLimits lim;
  lim.total_timeout_ms = 3000;
  auto src = client::PgLeaseSource::open("postgresql://pqsig@127.0.0.1:" + std::to_string(port) + "/postgres", lim);
  ASSERT_TRUE(src.ok());
  lms::LeaseRequest req;
  req.key_id = std::string(64, 'a');
  req.signer = "nobody";
  req.count = 4;
  req.limit = 1024;
  const auto t0 = FleetClock::now();
  auto r = (*src)->lease(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::io) << r.error().what();
  EXPECT_NE(r.error().message.find("lease store unavailable"), std::string::npos);
  EXPECT_LT(FleetClock::now() - t0, std::chrono::seconds(10));  // bounded (a hang is the failure)
}

// The CLI in fleet mode: fleet-init registers the key, fleet-join makes a second machine's state,
// sign --lease-store from both states gives distinct indices that verify; status shows the store.
TEST(LmsFleet, CliFleetInitJoinSignStatus) {
  FLEET_NEED_PG();
  TempDir d;
  auto r = run_pqsig(d, "hbs keygen --alg hss-sha256-m24-h5-w4-h5-w4 -o k.hss --pub k.pub");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string url = "'" + pg->url() + "'";
  r = run_pqsig(d, "hbs fleet-init --pub k.pub --state k.hss.state --lease-store " + url);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("store next_index 0"), std::string::npos) << r.out;
  r = run_pqsig(d, "hbs fleet-join --pub k.pub --state m2.state --lease-store " + url);
  ASSERT_EQ(r.code, 0) << r.err;
  std::set<std::string> indices;
  for (int i = 0; i < 4; ++i) {
    const std::string m = "m" + std::to_string(i);
    write_text(d.file(m), "fleet message " + std::to_string(i));
    const std::string st = i % 2 ? "m2.state" : "k.hss.state";
    r = run_pqsig(d, "hbs sign --key k.hss --state " + st + " --block 3 --lease-store " + url +
                         (i == 3 ? " --align-subtree" : "") + " -i " + m + " -o " + m + ".sig");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(indices.insert(r.err).second) << "index reused: " << r.err;
    r = run_pqsig(d, "hbs verify --pub k.pub --sig " + m + ".sig -i " + m);
    EXPECT_EQ(r.code, 0) << r.err;
  }
  EXPECT_TRUE(indices.count("index 32\n")) << "the aligned lease starts at the next subtree";
  r = run_pqsig(d, "hbs status --pub k.pub --state m2.state --lease-store " + url);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("store next_index 64"), std::string::npos) << r.out;
  // A fleet member's state refuses a local reservation / a sign without the store.
  r = run_pqsig(d, "hbs reserve --pub k.pub --state m2.state --count 2");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("fleet lease store"), std::string::npos) << r.err;
  r = run_pqsig(d, "hbs sign --key k.hss --state m2.state -i m0 -o local.sig");
  EXPECT_EQ(r.code, 2) << r.err;
  // A store that is not there: a typed refusal (exit 2), no signature.
  r = run_pqsig(d, "hbs sign --key k.hss --lease-store postgresql://pqsig@127.0.0.1:" +
                       std::to_string(fleet_free_port()) + "/postgres -i m0 -o none.sig");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("lease store unavailable"), std::string::npos) << r.err;
}

// XMSS signs through the same state store, so through the same leases: two XMSS signers on one
// key take disjoint ranges from the store; every signature verifies, no index twice.
TEST(LmsFleet, XmssSignersLeaseToo) {
  FLEET_NEED_PG();
  const xmss::Params* xp = xmss::find_params("XMSS-SHA2_10_256");
  ASSERT_NE(xp, nullptr);
  auto key = xmss::PrivateKey::generate(*xp, 1);
  ASSERT_TRUE(key.ok()) << key.error().what();
  const SecretBytes enc = key->serialize();
  const bytes pk = key->public_key();
  auto src = fleet_source(pg);
  ASSERT_TRUE(src->register_key(lms::key_id(pk), xp->max_signatures()).ok());
  FleetTempDir d;
  std::map<std::uint64_t, int> seen;
  for (int m = 0; m < 2; ++m) {
    auto k = xmss::PrivateKey::parse(enc.span());
    ASSERT_TRUE(k.ok());
    const std::string state = d.file("x" + std::to_string(m));
    ASSERT_TRUE(xmss::StatefulSigner::create_state(*k, state).ok());
    auto s = xmss::StatefulSigner::open(std::move(*k), state, 4, 1);
    ASSERT_TRUE(s.ok()) << s.error().what();
    s->use_leases(src, "xmss-" + std::to_string(m));
    for (int i = 0; i < 6; ++i) {
      const std::string msg = "xmss " + std::to_string(m) + " " + std::to_string(i);
      auto r = s->sign(as_bytes(msg));
      ASSERT_TRUE(r.ok()) << r.error().what();
      EXPECT_TRUE(xmss::xmss_verify(pk, as_bytes(msg), r->signature).ok());
      EXPECT_EQ(seen[r->index]++, 0) << "index " << r->index << " twice";
    }
  }
  auto row = src->key_status(lms::key_id(pk));
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->next_index, 16u);  // 2 signers x 2 leases of 4
}

// A store that accepts connections but does not answer (postmaster stopped with SIGSTOP), and a
// row held locked by another session: each lease call returns Errc::io within its time limits
// instead of hanging; afterwards leasing works again.
TEST(LmsFleet, HungStoreAndLockedRowAreBounded) {
  FLEET_NEED_PG();
  constexpr std::uint8_t kTag = 37;
  const bytes pk = fleet_public_key(kTag);
  fleet_register(pg, pk);
  client::PgLeaseLimits lim;
  lim.connect_timeout_s = 2;
  lim.statement_timeout_ms = 500;
  lim.total_timeout_ms = 2500;
  auto src = client::PgLeaseSource::open(pg->url(), lim);
  ASSERT_TRUE(src.ok());
  lms::LeaseRequest req;
  req.key_id = lms::key_id(pk);
  req.signer = "hung";
  req.count = 4;
  req.limit = 1024;
  auto ok = (*src)->lease(req);
  ASSERT_TRUE(ok.ok()) << ok.error().what();
  req.local_end = ok->end;
  req.local_generation = 1;

  // The row locked by another transaction for 3 s: lock_timeout, bounded retries, then io.
  const pid_t locker = pg->psql_async("BEGIN; SELECT * FROM pqsig_hbs_keys WHERE key_id = '" + req.key_id +
                                      "' FOR UPDATE; SELECT pg_sleep(3); COMMIT;");
  ASSERT_GT(locker, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  auto t0 = FleetClock::now();
  auto locked = (*src)->lease(req);
  ASSERT_FALSE(locked.ok());
  EXPECT_EQ(locked.error().code, Errc::io) << locked.error().what();
  EXPECT_LT(FleetClock::now() - t0, std::chrono::seconds(6));
  fleet_wait(locker, std::chrono::seconds(20));

  // The postmaster stopped: connecting times out (connect_timeout), never hangs.
  const pid_t pm = pg->postmaster_pid();
  ASSERT_GT(pm, 0);
  ASSERT_EQ(::kill(pm, SIGSTOP), 0);
  t0 = FleetClock::now();
  auto hung = (*src)->lease(req);
  ::kill(pm, SIGCONT);
  ASSERT_FALSE(hung.ok());
  EXPECT_EQ(hung.error().code, Errc::io) << hung.error().what();
  EXPECT_LT(FleetClock::now() - t0, std::chrono::seconds(10));

  auto again = (*src)->lease(req);
  ASSERT_TRUE(again.ok()) << again.error().what();
  EXPECT_GE(again->first, ok->end);
}

// kill -9 at every step of a lease and of signing (the second time the signer passes there), each
// time restarting the same signer on the same local state: the crash between the store's commit
// and the local write loses that lease and is accepted on restart (not taken for a rollback); no
// step repeats an index, and a last run signs normally.
TEST(LmsFleet, KillAtEveryLeaseStep) {
  FLEET_NEED_PG();
  constexpr std::uint8_t kTag = 38;
  const bytes pk = fleet_public_key(kTag);
  fleet_register(pg, pk);
  FleetTempDir d;
  const std::string state = d.file("k.state"), out = d.file("out");
  ASSERT_TRUE(lms::StateStore::create(state, pk, 1024).ok());
  const char* steps[] = {"lease:locked",      "lease:granted",    "reserve:tmp_written", "reserve:tmp_synced",
                         "reserve:renamed",   "reserve:dir_synced", "lease:logged",      "sign:before",
                         "sign:signed",       "sign:logged"};
  for (const char* stp : steps) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) fleet_child(pg->url(), state, out, "killed", kTag, 12, 4, 1, 90, stp);
    const int st = fleet_wait(pid, std::chrono::seconds(120));
    EXPECT_TRUE(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << stp << ": status " << st;
  }
  const pid_t last = ::fork();
  ASSERT_GE(last, 0);
  if (last == 0) fleet_child(pg->url(), state, out, "killed", kTag, 6, 4, 1, 90);
  const int st = fleet_wait(last, std::chrono::seconds(120));
  EXPECT_TRUE(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0) << "the last run: status " << st;
  const auto recs = pqsig::test::read_released(out);
  EXPECT_GE(recs.size(), 6u + 4 * 5);
  fleet_check_records(recs, pk);
  auto store = lms::StateStore::open(state, pk);
  ASSERT_TRUE(store.ok()) << store.error().what();
  auto a = store->audit();
  ASSERT_TRUE(a.ok()) << a.error().what();
  EXPECT_TRUE(a->clean());
}
