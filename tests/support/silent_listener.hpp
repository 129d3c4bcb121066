// A TCP socket that listens and never accepts: a connect succeeds, then nothing is ever answered —
// how the serve tests stand in for a stranger whose directory hangs.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace pqsig::test {

struct SilentListener {
  int fd = -1;    ///< -1 when the address could not be bound
  int port = 0;
  std::string origin;  ///< "http://IP:PORT"
};

/// Binds IP (port chosen by the kernel) and listens with a backlog of 64; never accepts.
inline SilentListener listen_silently(const std::string& ip = "127.0.0.1") {
  SilentListener s;
  s.fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  if (s.fd < 0 || inet_pton(AF_INET, ip.c_str(), &a.sin_addr) != 1 ||
      bind(s.fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(s.fd, 64) != 0) {
    if (s.fd >= 0) close(s.fd);
    s.fd = -1;
    return s;
  }
  socklen_t len = sizeof a;
  getsockname(s.fd, reinterpret_cast<sockaddr*>(&a), &len);
  s.port = ntohs(a.sin_port);
  s.origin = "http://" + ip + ":" + std::to_string(s.port);
  return s;
}

}  // namespace pqsig::test
