// The state of a stateful (LMS/HSS) key: a reservation high-water mark that only grows, written
// to disk and synced before any index under it is used, and an append-only audit log.
//
// Files (beside each other):
//   <state>        "pqsig-hbs-state 1" / key / reserved / limit / generation / check lines,
//                  replaced atomically: write <state>.tmp.<pid>, fsync it, rename, fsync the dir.
//   <state>.log    append-only: "K <key id>" once, then "R <generation> <first> <end>" per
//                  reservation and "S <index> <SHA-256(message)>" per signature, each fsynced.
//   <state>.lock   flock(LOCK_EX) around every read-modify-write of <state>: several processes
//                  share a key, each with its own disjoint reservations.
// Invariant: every index a signature was ever made at is below <state>'s `reserved`. A state
// file whose `reserved` or `generation` is below what its log records has been rolled back
// (restored from a backup, copied from another machine ...) and is refused.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <string>

#include "lms/stateful_sign.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/lms.hpp"

namespace pqsig::lms {
namespace {

std::atomic<StateStore::StepHook> g_hook{nullptr};
void step(const char* name) {
  if (auto h = g_hook.load()) h(name);
}

Error io_error(const std::string& what, const std::string& path) {
  return Error{Errc::io, "hbs state: " + what + " " + path + ": " + std::strerror(errno)};
}

std::string dir_of(const std::string& path) {
  const auto s = path.rfind('/');
  if (s == std::string::npos) return ".";
  if (s == 0) return "/";
  return path.substr(0, s);
}

Status write_all(int fd, const std::string& data, const std::string& path) {
  std::size_t off = 0;
  while (off < data.size()) {
    const ssize_t w = ::write(fd, data.data() + off, data.size() - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      return io_error("write", path);
    }
    off += static_cast<std::size_t>(w);
  }
  return {};
}

Status fsync_dir(const std::string& path) {
  const std::string d = dir_of(path);
  const int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return io_error("open directory", d);
  // A filesystem that cannot sync a directory cannot make a rename durable: refuse to go on.
  const int r = ::fsync(fd);
  const int e = errno;
  ::close(fd);
  if (r != 0) {
    errno = e;
    return io_error("fsync directory (the filesystem must honour it)", d);
  }
  return {};
}

Result<std::string> read_whole(const std::string& path, bool& missing) {
  missing = false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      missing = true;
      return std::string();
    }
    return io_error("open", path);
  }
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      const Error e = io_error("read", path);
      ::close(fd);
      return e;
    }
    if (r == 0) break;
    out.append(buf, static_cast<std::size_t>(r));
    if (out.size() > (std::size_t{1} << 32)) {
      ::close(fd);
      return Error{Errc::state_rejected, "hbs state: " + path + " is implausibly large"};
    }
  }
  ::close(fd);
  return out;
}

// The state file body without its check line, and the check over it.
std::string body_of(const StateInfo& s) {
  std::ostringstream o;
  o << "pqsig-hbs-state 1\nkey " << s.key_id << "\nreserved " << s.reserved_end << "\nlimit " << s.limit
    << "\ngeneration " << s.generation << "\n";
  return o.str();
}
std::string encode_state(const StateInfo& s) {
  const std::string body = body_of(s);
  return body + "check " + to_hex(hash::sha256(as_bytes(body))) + "\n";
}

bool parse_u64(const std::string& s, std::uint64_t& v) {
  if (s.empty() || s.size() > 20) return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  return true;
}

Result<StateInfo> decode_state(const std::string& text, const std::string& path) {
  auto bad = [&](const char* why) { return Error{Errc::state_rejected, "hbs state: " + path + ": " + why}; };
  std::istringstream in(text);
  std::string line, key, val;
  StateInfo s;
  if (!std::getline(in, line) || line != "pqsig-hbs-state 1") return bad("not a pqsig-hbs-state 1 file");
  const char* names[4] = {"key", "reserved", "limit", "generation"};
  for (int i = 0; i < 4; ++i) {
    if (!std::getline(in, line)) return bad("truncated");
    const auto sp = line.find(' ');
    if (sp == std::string::npos || line.substr(0, sp) != names[i]) return bad("unexpected line");
    val = line.substr(sp + 1);
    if (i == 0) {
      if (val.size() != 64) return bad("bad key id");
      s.key_id = val;
    } else if (!parse_u64(val, i == 1 ? s.reserved_end : i == 2 ? s.limit : s.generation)) {
      return bad("bad number");
    }
  }
  if (!std::getline(in, line) || line.rfind("check ", 0) != 0) return bad("no check line");
  if (line.substr(6) != to_hex(hash::sha256(as_bytes(body_of(s))))) return bad("check value wrong (corrupt)");
  if (std::getline(in, line)) return bad("trailing data");
  if (s.reserved_end > s.limit) return bad("reserved beyond the key's limit");
  return s;
}

// What the audit log says: the furthest reservation, its generation, the highest signed index.
struct LogFacts {
  bool has_key = false;
  std::string key_id;
  std::uint64_t max_end = 0, max_gen = 0;
  bool any_sig = false;
  std::uint64_t max_sig = 0;
  bool fleet = false;  // an "F" line: indices come from a fleet lease store only
};

struct LogDetail {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;  // R [first, end)
  std::vector<std::uint64_t> sigs;                              // S indices
};

Result<LogFacts> read_log(const std::string& path, bool& missing, LogDetail* detail = nullptr) {
  auto text = read_whole(path, missing);
  if (!text) return text.error();
  LogFacts f;
  std::size_t pos = 0;
  const std::string& t = *text;
  while (pos < t.size()) {
    const auto nl = t.find('\n', pos);
    if (nl == std::string::npos) break;  // a torn last line (crash mid-append): its index is burnt anyway
    const std::string line = t.substr(pos, nl - pos);
    pos = nl + 1;
    std::istringstream in(line);
    std::string kind, a, b, c;
    in >> kind >> a >> b >> c;
    std::uint64_t x = 0, y = 0, z = 0;
    if (kind == "K" && a.size() == 64) {
      if (f.has_key && f.key_id != a)
        return Error{Errc::state_rejected, "hbs state: " + path + " names two keys"};
      f.has_key = true;
      f.key_id = a;
    } else if (kind == "R" && parse_u64(a, x) && parse_u64(b, y) && parse_u64(c, z) && y <= z) {
      f.max_gen = std::max(f.max_gen, x);
      f.max_end = std::max(f.max_end, z);
      if (detail) detail->ranges.emplace_back(y, z);
    } else if (kind == "F" && a.empty()) {
      f.fleet = true;
    } else if (kind == "S" && parse_u64(a, x) && b.size() == 64) {
      f.max_sig = f.any_sig ? std::max(f.max_sig, x) : x;
      f.any_sig = true;
      if (detail) detail->sigs.push_back(x);
    } else {
      return Error{Errc::state_rejected, "hbs state: " + path + ": malformed log line"};
    }
  }
  return f;
}

// Appends one line and syncs it (O_APPEND: several processes may append at once).
Status append_line(const std::string& path, const std::string& line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return io_error("open", path);
  Status st = write_all(fd, line, path);
  if (st && ::fsync(fd) != 0) st = io_error("fsync", path);
  ::close(fd);
  return st;
}

// Replaces the state file: temp file, fsync, rename, fsync of the directory.
Status write_state(const std::string& path, const StateInfo& s) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return io_error("create", tmp);
  Status st = write_all(fd, encode_state(s), tmp);
  step("reserve:tmp_written");
  if (st && ::fsync(fd) != 0) st = io_error("fsync", tmp);
  ::close(fd);
  if (!st) {
    ::unlink(tmp.c_str());
    return st;
  }
  step("reserve:tmp_synced");
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const Error e = io_error("rename to", path);
    ::unlink(tmp.c_str());
    return e;
  }
  step("reserve:renamed");
  if (auto d = fsync_dir(path); !d) return d;
  step("reserve:dir_synced");
  return {};
}

// An exclusive flock on <state>.lock for the lifetime of the object.
class FileLock {
 public:
  explicit FileLock(const std::string& state_path) : path_(state_path + ".lock") {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0) {
      err_ = io_error("open lock", path_);
      return;
    }
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      err_ = io_error("flock", path_);
      ::close(fd_);
      fd_ = -1;
      return;
    }
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  Status status() const { return fd_ >= 0 ? Status{} : Status{err_}; }

 private:
  std::string path_;
  int fd_ = -1;
  Error err_;
};

// Reads the state, checks it belongs to key_id and is not older than its log.
Result<StateInfo> load_checked(const std::string& path, const std::string& key_id, bool* fleet = nullptr) {
  bool missing = false;
  auto text = read_whole(path, missing);
  if (!text) return text.error();
  if (missing) return Error{Errc::state_rejected, "hbs state: " + path + " does not exist (refusing to guess)"};
  auto s = decode_state(*text, path);
  if (!s) return s.error();
  if (s->key_id != key_id) return Error{Errc::state_rejected, "hbs state: " + path + " belongs to another key"};
  bool log_missing = false;
  auto log = read_log(path + ".log", log_missing);
  if (!log) return log.error();
  if (log_missing) return Error{Errc::state_rejected, "hbs state: audit log " + path + ".log is missing"};
  if (log->has_key && log->key_id != key_id)
    return Error{Errc::state_rejected, "hbs state: audit log " + path + ".log belongs to another key"};
  if (s->reserved_end < log->max_end || s->generation < log->max_gen ||
      (log->any_sig && log->max_sig >= s->reserved_end))
    return Error{Errc::state_rejected, "hbs state: " + path +
                                           " is older than its audit log (rolled back?) — refusing to sign"};
  if (fleet) *fleet = log->fleet;
  return s;
}

// The one way a reservation or a lease becomes durable: the state file (temp, fsync, rename,
// directory fsync) with the new end and the next generation, then the R line of the audit log.
// The caller may use an index of r only after this returns ok.
Status commit_reservation(const std::string& path, const StateInfo& s, const Reservation& r) {
  StateInfo n = s;
  n.reserved_end = r.end;
  n.generation = s.generation + 1;
  if (auto w = write_state(path, n); !w) return w;
  return append_line(path + ".log", "R " + std::to_string(n.generation) + " " + std::to_string(r.first) + " " +
                                        std::to_string(r.end) + "\n");
}

Error exhausted_error(std::uint64_t limit) {
  return Error{Errc::key_exhausted,
               "hbs: the key has no one-time signature left (" + std::to_string(limit) + " used or reserved)"};
}

// The one locked reservation path (reserve, reserve_range, reserve_lease): under the state's lock,
// load and check the state, let `choose(state, fleet)` pick the range (or refuse; `fleet`: the log
// says the state takes its indices from a fleet lease store), and commit it. `locked` and `logged`
// name the step hooks around it.
template <class Choose>
Result<Reservation> reserve_under_lock(const std::string& path, const std::string& key_id, const char* locked,
                                       const char* logged, Choose&& choose) {
  FileLock lock(path);
  if (auto l = lock.status(); !l) return l.error();
  step(locked);
  bool fleet = false;
  auto s = load_checked(path, key_id, &fleet);
  if (!s) return s.error();
  Result<Reservation> r = choose(*s, fleet);
  if (!r) return r.error();
  if (auto c = commit_reservation(path, *s, *r); !c) return c.error();
  step(logged);
  return r;
}

// A local reservation refused because the state belongs to a fleet.
Error fleet_state_refusal(const std::string& path, const char* why) {
  return Error{Errc::policy,
               "hbs state: " + path + " takes its indices from a fleet lease store (its log says F): " + why};
}

}  // namespace

std::string key_id(byte_span public_key) { return to_hex(hash::sha256(public_key)); }

void StateStore::set_step_hook(StepHook hook) noexcept { g_hook.store(hook); }
void StateStore::run_step_hook(const char* name) noexcept { step(name); }

Status StateStore::create(const std::string& path, byte_span pub, std::uint64_t limit, std::uint64_t first) {
  if (first > limit) return Error{Errc::invalid_argument, "hbs state: first index beyond the limit"};
  FileLock lock(path);
  if (auto st = lock.status(); !st) return st;
  struct stat sb{};
  if (::stat(path.c_str(), &sb) == 0)
    return Error{Errc::state_rejected, "hbs state: " + path + " already exists (refusing to overwrite)"};
  if (::stat((path + ".log").c_str(), &sb) == 0)
    return Error{Errc::state_rejected, "hbs state: " + path + ".log already exists (refusing to overwrite)"};
  StateInfo s;
  s.key_id = key_id(pub);
  s.limit = limit;
  s.reserved_end = first;  // a delegate: the indices below its range are never its own
  if (auto st = append_line(path + ".log", "K " + s.key_id + "\n"); !st) return st;
  return write_state(path, s);
}

Result<StateStore> StateStore::open(const std::string& path, byte_span pub) {
  StateStore st;
  st.path_ = path;
  st.key_id_ = key_id(pub);
  FileLock lock(path);
  if (auto l = lock.status(); !l) return l.error();
  auto s = load_checked(path, st.key_id_);
  if (!s) return s.error();
  // Verify on start that the directory can be synced (a rename must be durable before we sign).
  if (auto d = fsync_dir(path); !d) return d.error();
  return st;
}

Result<StateInfo> StateStore::info() {
  FileLock lock(path_);
  if (auto l = lock.status(); !l) return l.error();
  return load_checked(path_, key_id_);
}

Result<AuditReport> StateStore::audit() {
  FileLock lock(path_);
  if (auto l = lock.status(); !l) return l.error();
  if (auto s = load_checked(path_, key_id_); !s) return s.error();
  bool missing = false;
  LogDetail d;
  auto f = read_log(path_ + ".log", missing, &d);
  if (!f) return f.error();
  AuditReport r;
  r.signatures = d.sigs.size();
  r.reservations = d.ranges.size();
  std::sort(d.ranges.begin(), d.ranges.end());
  for (std::size_t i = 1; i < d.ranges.size(); ++i)
    if (d.ranges[i].first < d.ranges[i - 1].second) ++r.overlapping_reservations;
  std::sort(d.sigs.begin(), d.sigs.end());
  for (std::size_t i = 0; i < d.sigs.size(); ++i) {
    const std::uint64_t x = d.sigs[i];
    if (i > 0 && d.sigs[i - 1] == x) {
      if (r.reused.empty() || r.reused.back() != x) r.reused.push_back(x);
      continue;
    }
    // The last range starting at or before x must contain it.
    auto it = std::upper_bound(d.ranges.begin(), d.ranges.end(), std::make_pair(x, UINT64_MAX));
    if (it == d.ranges.begin() || std::prev(it)->second <= x) r.unreserved.push_back(x);
  }
  return r;
}

Result<Reservation> StateStore::reserve(std::uint64_t count) {
  if (count == 0) return Error{Errc::invalid_argument, "hbs state: reserve 0 indices"};
  return reserve_under_lock(
      path_, key_id_, "reserve:locked", "reserve:logged", [&](const StateInfo& s, bool fleet) -> Result<Reservation> {
        if (fleet)
          return fleet_state_refusal(
              path_, "a local reservation could collide with other signers' leases — use the lease store");
        if (s.reserved_end >= s.limit) return exhausted_error(s.limit);
        Reservation r;
        r.first = s.reserved_end;
        r.end = s.limit - s.reserved_end < count ? s.limit : s.reserved_end + count;
        return r;
      });
}

Result<Reservation> StateStore::reserve_lease(LeaseSource& source, const std::string& signer, std::uint64_t count,
                                              std::uint64_t align) {
  if (count == 0) return Error{Errc::invalid_argument, "hbs fleet: lease 0 indices"};
  if (align == 0) return Error{Errc::invalid_argument, "hbs fleet: alignment must be at least 1"};
  if (signer.empty() || signer.size() > 200)
    return Error{Errc::invalid_argument, "hbs fleet: the signer name must be 1..200 bytes"};
  return reserve_under_lock(
      path_, key_id_, "lease:locked", "lease:logged", [&](const StateInfo& s, bool fleet) -> Result<Reservation> {
        // From the first lease on, this state never reserves locally again.
        if (!fleet) {
          if (auto m = append_line(path_ + ".log", "F\n"); !m) return m.error();
        }
        if (s.reserved_end >= s.limit) return exhausted_error(s.limit);
        LeaseRequest req;
        req.key_id = key_id_;
        req.signer = signer;
        req.count = count;
        req.align = align;
        req.local_end = s.reserved_end;
        req.local_generation = s.generation;
        req.limit = s.limit;
        auto got = source.lease(req);
        if (!got) return got.error();
        step("lease:granted");
        const Reservation r = *got;
        // The store's answer is checked, never trusted: a lease that overlaps what this state
        // already reserved (a store restored from a backup), runs past the key, is larger than
        // asked or misaligned is refused, and nothing is written.
        const std::uint64_t whole = align > 1 ? ((count + align - 1) / align) * align : count;
        auto bad = [&](const std::string& why) {
          return Error{Errc::state_rejected, std::string("hbs fleet: the lease store granted [") +
                                                 std::to_string(r.first) + ", " + std::to_string(r.end) +
                                                 "): " + why + " — refusing it"};
        };
        if (r.first >= r.end) return bad("an empty or inverted range");
        if (r.first < s.reserved_end)
          return bad("below this state's reserved end " + std::to_string(s.reserved_end) +
                     " (the store is older than the local state: restored or rolled back?)");
        if (r.end > s.limit) return bad("beyond the key's last index");
        if (r.end - r.first > whole) return bad("more than was asked for");
        if (align > 1 && r.first % align != 0) return bad("not aligned to the requested subtree size");
        return r;
      });
}

Result<Reservation> StateStore::reserve_range(std::uint64_t first, std::uint64_t end) {
  if (first >= end) return Error{Errc::invalid_argument, "hbs state: reserve an empty range"};
  return reserve_under_lock(
      path_, key_id_, "reserve:locked", "reserve:logged", [&](const StateInfo& s, bool fleet) -> Result<Reservation> {
        if (fleet) return fleet_state_refusal(path_, "it cannot give a range away locally");
        if (end > s.limit) return Error{Errc::invalid_argument, "hbs state: range past the key's last index"};
        if (first < s.reserved_end)
          return Error{Errc::policy, "hbs state: [" + std::to_string(first) + ", " + std::to_string(end) +
                                         ") starts below " + path_ + "'s reserved end " +
                                         std::to_string(s.reserved_end) + " (those indices may have been used here)"};
        return Reservation{first, end};
      });
}

Status StateStore::join_fleet() {
  FileLock lock(path_);
  if (auto l = lock.status(); !l) return l;
  bool fleet = false;
  auto s = load_checked(path_, key_id_, &fleet);
  if (!s) return s.error();
  if (fleet) return {};
  return append_line(path_ + ".log", "F\n");
}

Status StateStore::log_signature(std::uint64_t index, byte_span message) {
  return append_line(path_ + ".log",
                     "S " + std::to_string(index) + " " + to_hex(hash::sha256(message)) + "\n");
}

Result<StatefulSigner> StatefulSigner::open(HssPrivateKey key, const std::string& state_path, std::uint64_t block,
                                            unsigned threads) {
  if (block == 0) return Error{Errc::invalid_argument, "hbs: reservation block must be at least 1"};
  const std::uint64_t limit = key.max_signatures();
  auto signer = HssSigner::create(std::move(key), threads, state_path + ".tree");
  if (!signer) return signer.error();
  auto st = StateStore::open(state_path, signer->public_key());
  if (!st) return st.error();
  auto inf = st->info();
  if (!inf) return inf.error();
  if (inf->limit != limit) return Error{Errc::state_rejected, "hbs state: limit does not match the key"};
  return StatefulSigner(std::move(*signer), std::move(*st), block);
}

Result<StatefulSigner> StatefulSigner::open(DelegatedKey key, const std::string& state_path, std::uint64_t block,
                                            unsigned threads) {
  if (block == 0) return Error{Errc::invalid_argument, "hbs: reservation block must be at least 1"};
  const std::uint64_t limit = key.end_index();
  const bytes identity = key.state_identity();
  auto signer = HssSigner::create(std::move(key), threads);
  if (!signer) return signer.error();
  auto st = StateStore::open(state_path, identity);
  if (!st) return st.error();
  auto inf = st->info();
  if (!inf) return inf.error();
  if (inf->limit != limit) return Error{Errc::state_rejected, "hbs state: limit does not match the delegated key"};
  return StatefulSigner(std::move(*signer), std::move(*st), block);
}

Status StatefulSigner::create_delegate_state(const DelegatedKey& key, const std::string& state_path) {
  return StateStore::create(state_path, key.state_identity(), key.end_index(), key.first_index());
}

Result<StatefulSigner::Signed> StatefulSigner::sign(byte_span message) {
  // In fleet mode the indices are leased from the shared store; either way persisted (synced)
  // before the first is used.
  return detail::sign_next_index<Signed>(
      store_, cur_, lease_source_.get(), lease_signer_, block_, lease_align_, "hbs", message,
      [&](std::uint64_t index) { return signer_.sign_at(index, message); },
      [&](const bytes& sig) { return hss_verify(signer_.public_key(), message, sig); });
}

}  // namespace pqsig::lms
