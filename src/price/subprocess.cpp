// `pqsig price --engine`: running a local engine driver as a subprocess (no shell, no PATH
// lookup), bounded in time and in output, killed with its whole process group on timeout or
// Ctrl-C. Local processes only: the price library opens no socket.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cstring>
#include <tuple>

#include "pqsig/price_engines.hpp"

namespace pqsig::price::detail {

namespace {

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

bool make_pipe(Fd& r, Fd& w) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return false;
  r.fd = p[0];
  w.fd = p[1];
  return true;
}

// SIGPIPE would kill pqsig when a driver exits before reading its request: ignored while a
// subprocess runs, the previous disposition restored after.
struct IgnoreSigpipe {
  struct sigaction old {};
  IgnoreSigpipe() {
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, &old);
  }
  ~IgnoreSigpipe() { sigaction(SIGPIPE, &old, nullptr); }
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;
};

}  // namespace

Result<ProcessResult> run_process(const std::vector<std::string>& argv, std::string_view stdin_data, double timeout_s,
                                  std::size_t max_output, const std::atomic<bool>* cancel) {
  if (argv.empty()) return Error{Errc::invalid_argument, "run_process: empty command"};
  Fd in_r, in_w, out_r, out_w, err_r, err_w;
  if (!make_pipe(in_r, in_w) || !make_pipe(out_r, out_w) || !make_pipe(err_r, err_w))
    return Error{Errc::internal, std::string("pipe: ") + std::strerror(errno)};
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  IgnoreSigpipe guard;
  const pid_t pid = ::fork();
  if (pid < 0) return Error{Errc::internal, std::string("fork: ") + std::strerror(errno)};
  if (pid == 0) {
    // Child: its own process group (Ctrl-C reaches pqsig only; a timeout kills the whole group).
    ::setpgid(0, 0);
    ::dup2(in_r.fd, 0);
    ::dup2(out_w.fd, 1);
    ::dup2(err_w.fd, 2);
    struct sigaction sa {};
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, nullptr);
    ::execv(args[0], args.data());
    const char msg[] = "exec failed\n";
    [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent: no race with the kill below
  in_r.reset();
  out_w.reset();
  err_w.reset();
  ::fcntl(in_w.fd, F_SETFL, O_NONBLOCK);

  ProcessResult res;
  std::size_t written = 0;
  if (stdin_data.empty()) in_w.reset();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool killed = false;
  char buf[65536];
  while (out_r.fd >= 0 || err_r.fd >= 0) {
    if (!killed && cancel && cancel->load(std::memory_order_relaxed)) {
      res.cancelled = killed = true;
      ::kill(-pid, SIGKILL);
    }
    if (!killed && std::chrono::steady_clock::now() > deadline) {
      res.timed_out = killed = true;
      ::kill(-pid, SIGKILL);
    }
    pollfd fds[3];
    nfds_t n = 0;
    int io = -1, oo = -1, eo = -1;
    if (in_w.fd >= 0) io = static_cast<int>(n), fds[n++] = {in_w.fd, POLLOUT, 0};
    if (out_r.fd >= 0) oo = static_cast<int>(n), fds[n++] = {out_r.fd, POLLIN, 0};
    if (err_r.fd >= 0) eo = static_cast<int>(n), fds[n++] = {err_r.fd, POLLIN, 0};
    const int pr = ::poll(fds, n, 100);
    if (pr < 0 && errno != EINTR) break;
    if (pr <= 0) continue;
    if (io >= 0 && (fds[io].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t w = ::write(in_w.fd, stdin_data.data() + written, stdin_data.size() - written);
      if (w > 0) written += static_cast<std::size_t>(w);
      if (w < 0 && errno != EAGAIN && errno != EINTR) in_w.reset();  // the child closed its stdin
      else if (written == stdin_data.size()) in_w.reset();
    }
    for (auto [idx, fd, sink] : {std::tuple{oo, &out_r, &res.out}, std::tuple{eo, &err_r, &res.err}}) {
      if (idx < 0 || !(fds[idx].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t r = ::read(fd->fd, buf, sizeof buf);
      if (r > 0) {
        const std::size_t room = max_output > sink->size() ? max_output - sink->size() : 0;
        sink->append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(r)));
        if (static_cast<std::size_t>(r) > room) res.truncated = true;
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        fd->reset();
      }
    }
  }
  // Both pipes are closed: the driver is done. Give it 2 s to exit, then kill what is left of
  // its process group (e.g. a workerd its crashed driver left behind) before reaping it: while it
  // is unreaped, its group id cannot be reused.
  int status = 0;
  pid_t w = 0;
  for (int i = 0; i < 200 && (w = ::waitpid(pid, &status, WNOHANG)) == 0; ++i) ::usleep(10000);
  ::kill(-pid, SIGKILL);
  if (w == 0 || (w < 0 && errno == EINTR))
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  return res;
}

}  // namespace pqsig::price::detail
