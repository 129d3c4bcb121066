// kill -9 at every step: a forked child arms lms::StateStore's step hook to raise SIGKILL at its
// k-th call (the reservation and signing steps of the LMS/HSS and XMSS state stores, and the
// named steps a test adds with run_step_hook). Shared by the LMS, XMSS, delegate and power-cut
// crash tests.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

#include "pqsig/common.hpp"
#include "pqsig/lms.hpp"

namespace pqsig::test {

inline int g_kill_at_step = -1;
inline int g_kill_steps_seen = 0;
inline void kill_at_step_hook(const char*) {
  if (++g_kill_steps_seen == g_kill_at_step) ::raise(SIGKILL);
}

/// In a child process: from now on, die by SIGKILL at the k-th step hook call.
inline void arm_kill_at_step(int k) {
  g_kill_at_step = k;
  g_kill_steps_seen = 0;
  lms::StateStore::set_step_hook(&kill_at_step_hook);
}

/// Forks a child armed to die at its k-th step that runs `body` (which ends the child with _exit;
/// returning counts as exit 0), waits for it and counts it: killed (by SIGKILL) or completed
/// (exit 0; any other exit fails the test).
inline void fork_killed_at_step(int k, const std::function<void()>& body, int& killed, int& completed) {
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    arm_kill_at_step(k);
    body();
    _exit(0);
  }
  int ws = 0;
  ASSERT_EQ(::waitpid(pid, &ws, 0), pid);
  if (WIFSIGNALED(ws)) {
    EXPECT_EQ(WTERMSIG(ws), SIGKILL);
    ++killed;
  } else {
    ASSERT_TRUE(WIFEXITED(ws));
    ASSERT_EQ(WEXITSTATUS(ws), 0) << "run " << k;
    ++completed;
  }
}

/// The signing crash loop: run k = 1, 2, ... (at most max_runs) forks sign_run(k, fd), with fd the
/// `released` file open for append, killed at its k-th step, until two runs sign to the end (k
/// went past the last step of a run: every step was hit). After every crash the state must still
/// open under `pk` (a crash never makes it untrustworthy).
inline void sign_killed_at_every_step(const std::string& state, const bytes& pk, const std::string& released,
                                      int max_runs, const std::function<void(int k, int fd)>& sign_run,
                                      int& killed, int& completed) {
  for (int k = 1; k <= max_runs; ++k) {
    const int fd = ::open(released.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    ASSERT_GE(fd, 0);
    fork_killed_at_step(k, [&] { sign_run(k, fd); }, killed, completed);
    ::close(fd);
    if (::testing::Test::HasFatalFailure()) return;
    if (completed >= 2) break;
    auto st = lms::StateStore::open(state, pk);
    ASSERT_TRUE(st.ok()) << "after kill at step " << k << ": " << st.error().what();
  }
}

}  // namespace pqsig::test
