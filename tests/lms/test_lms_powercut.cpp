// A simulated power cut: a disk that keeps only what was fsynced. This test binary interposes
// fsync(2) (defined here, it overrides libc's for every call in the process — the library is
// linked statically; the effect of an LD_PRELOAD shim without the exec). While the model is on,
// for files in the watched directory D:
//   fsync(file)  → its content at that moment becomes the durable content of its inode;
//   fsync(D)     → the names in D at that moment (name → inode) become the durable directory.
// The model lives in files of a shadow directory, so it survives the SIGKILL of the process that
// updates it. "Power cut" = the signer is SIGKILLed, then D is rebuilt from the model: only
// durable names, each with its inode's durable content (empty if never synced). Unsynced
// writes, renames and creations are lost.
// The signer is killed at each step of reservation and signing in turn (as in test_lms_state),
// with a power cut after each; over every signature released: no index twice.
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pqsig/lms.hpp"
#include "support/kill_at_step.hpp"

using namespace pqsig;
namespace fs = std::filesystem;

namespace {
bool g_model_on = false;
std::string g_watch;   // D
std::string g_shadow;  // S

using FsyncFn = int (*)(int);
FsyncFn real_fsync() {
  static FsyncFn f = reinterpret_cast<FsyncFn>(::dlsym(RTLD_NEXT, "fsync"));
  return f;
}

// Writes a shadow file atomically (real fsync not needed: the shadow is not under the model).
void shadow_write(const std::string& name, const std::string& content) {
  const std::string tmp = g_shadow + "/.tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << content;
  }
  ::rename(tmp.c_str(), (g_shadow + "/" + name).c_str());
}

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void model_record_dir() {
  std::string names;
  for (const auto& e : fs::directory_iterator(g_watch)) {
    struct stat sb {};
    if (::stat(e.path().c_str(), &sb) == 0 && S_ISREG(sb.st_mode))
      names += e.path().filename().string() + " " + std::to_string(sb.st_ino) + "\n";
  }
  shadow_write("names", names);
}

void model_on_fsync(int fd) {
  char buf[4096];
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
  if (n <= 0) return;
  const std::string path(buf, static_cast<std::size_t>(n));
  if (path == g_watch) {
    model_record_dir();
  } else if (path.rfind(g_watch + "/", 0) == 0) {
    struct stat sb {};
    if (::fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) shadow_write("ino_" + std::to_string(sb.st_ino), slurp(path));
  }
}

// After a power cut: D holds exactly the durable names with their durable contents.
void power_cut_restore() {
  std::map<std::string, std::string> durable;
  std::istringstream in(slurp(g_shadow + "/names"));
  std::string name, ino;
  while (in >> name >> ino) {
    const std::string p = g_shadow + "/ino_" + ino;
    durable[name] = fs::exists(p) ? slurp(p) : std::string();
  }
  for (const auto& e : fs::directory_iterator(g_watch)) fs::remove(e.path());
  for (const auto& [n, c] : durable) {
    std::ofstream f(g_watch + "/" + n, std::ios::binary);
    f << c;
  }
}

// Declares everything now in D durable (after a restore, or after setup outside the model).
void model_reset() {
  for (const auto& e : fs::directory_iterator(g_shadow)) fs::remove(e.path());
  for (const auto& e : fs::directory_iterator(g_watch)) {
    struct stat sb {};
    if (::stat(e.path().c_str(), &sb) == 0 && S_ISREG(sb.st_mode))
      shadow_write("ino_" + std::to_string(sb.st_ino), slurp(e.path().string()));
  }
  model_record_dir();
}
}  // namespace

// The interposed fsync: updates the model (when on), then the real one.
extern "C" int fsync(int fd) {
  if (g_model_on) model_on_fsync(fd);
  return real_fsync()(fd);
}

namespace {

struct Dirs {
  fs::path root, d, s;
  Dirs() {
    char tmpl[] = "/tmp/pqsig_lms_powercut_XXXXXX";
    root = ::mkdtemp(tmpl);
    d = root / "d";
    s = root / "s";
    fs::create_directories(d);
    fs::create_directories(s);
    g_watch = fs::canonical(d).string();
    g_shadow = fs::canonical(s).string();
  }
  ~Dirs() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

lms::HssPrivateKey key() {
  auto lv = lms::parse_levels("hss-sha256-m24-h5-w4-h5-w4");
  auto k = lms::HssPrivateKey::from_seed(*lv, bytes(16, 0x51), bytes(24, 0x52));
  return std::move(k.value());
}

}  // namespace

// The model itself: without fsync nothing survives; a synced file survives only once its
// directory entry is synced; writes after the last fsync are lost.
TEST(LmsPowerCut, ModelDropsUnsyncedWrites) {
  Dirs dirs;
  model_reset();
  g_model_on = true;
  auto write_file = [&](const std::string& n, const std::string& c, bool sync) {
    const int fd = ::open((g_watch + "/" + n).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, c.data(), c.size()), static_cast<ssize_t>(c.size()));
    if (sync) {
      ASSERT_EQ(::fsync(fd), 0);
    }
    ::close(fd);
  };
  write_file("a", "synced", true);
  write_file("b", "never synced", false);
  const int dfd = ::open(g_watch.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_EQ(::fsync(dfd), 0);
  write_file("c", "synced but its name not", true);
  {
    std::ofstream f(g_watch + "/a", std::ios::app);
    f << " and lost";
  }
  g_model_on = false;
  power_cut_restore();
  EXPECT_EQ(slurp(g_watch + "/a"), "synced");
  EXPECT_TRUE(fs::exists(g_watch + "/b"));
  EXPECT_EQ(slurp(g_watch + "/b"), "");
  EXPECT_FALSE(fs::exists(g_watch + "/c"));
  ::close(dfd);
}

TEST(LmsPowerCut, PowerCutAtEveryStepNeverReusesAnIndex) {
  Dirs dirs;
  const std::string state = g_watch + "/key.state";
  bytes pk;
  {
    auto s = lms::HssSigner::create(key(), 1);
    ASSERT_TRUE(s.ok());
    pk = s->public_key();
  }
  ASSERT_TRUE(lms::StateStore::create(state, pk, 1024).ok());
  model_reset();
  const fs::path released = dirs.root / "released";  // outside D: what left the machine
  int cuts = 0, completed = 0;
  for (int k = 1; k <= 40 && completed < 2; ++k) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      g_model_on = true;
      pqsig::test::arm_kill_at_step(k);
      auto signer = lms::StatefulSigner::open(key(), state, 3, 1);
      if (!signer) _exit(3);
      const int out = ::open(released.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
      for (int i = 0; i < 5; ++i) {
        const std::string msg = "k" + std::to_string(k) + " m" + std::to_string(i);
        auto r = signer->sign(as_bytes(msg));
        if (!r) _exit(4);
        const std::string line = std::to_string(r->index) + " " + msg + " " + to_hex(r->signature) + "\n";
        if (::write(out, line.data(), line.size()) != static_cast<ssize_t>(line.size())) _exit(5);
      }
      _exit(0);
    }
    int ws = 0;
    ASSERT_EQ(::waitpid(pid, &ws, 0), pid);
    if (WIFSIGNALED(ws)) {
      ++cuts;
    } else {
      ASSERT_TRUE(WIFEXITED(ws));
      ASSERT_EQ(WEXITSTATUS(ws), 0) << "run " << k;
      ++completed;
    }
    power_cut_restore();  // every run ends in a power cut, killed or not
    model_reset();
    auto st = lms::StateStore::open(state, pk);
    ASSERT_TRUE(st.ok()) << "after the power cut of run " << k << ": " << st.error().what();
  }
  EXPECT_GE(cuts, 20);
  EXPECT_EQ(completed, 2);
  std::ifstream in(released);
  std::map<std::uint64_t, std::string> seen;
  std::uint64_t index;
  std::string m1, m2, sighex;
  std::size_t n = 0;
  while (in >> index >> m1 >> m2 >> sighex) {
    const std::string msg = m1 + " " + m2;
    auto [it, fresh] = seen.emplace(index, msg);
    EXPECT_TRUE(fresh) << "INDEX REUSED after a power cut: " << index << " ('" << it->second << "', '" << msg << "')";
    auto sig = from_hex(sighex);
    ASSERT_TRUE(sig.ok());
    EXPECT_TRUE(lms::hss_verify(pk, as_bytes(msg), *sig).ok()) << index;
    ++n;
  }
  EXPECT_GT(n, 0u);
  EXPECT_EQ(seen.size(), n);
}
