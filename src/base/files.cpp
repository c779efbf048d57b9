#include "base/files.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ctime>
#include <utility>

#include "attnmark/base/error.h"

namespace attnmark {
namespace {

// Closes a POSIX file descriptor when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now, reporting failure (a delayed write error shows here).
  bool close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }

 private:
  int fd_;
};

std::string reason(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

mode_t file_mode(Access access) { return access == Access::owner_only ? 0600 : 0644; }
mode_t folder_mode(Access access) { return access == Access::owner_only ? 0700 : 0755; }

std::string size_message(std::uintmax_t size, std::size_t max_bytes) {
  return "file is " + std::to_string(size) + " bytes; the limit is " + std::to_string(max_bytes);
}

}  // namespace

std::string read_file(const std::string& path, std::size_t max_bytes, bool follow_links) {
  // O_NONBLOCK: opening a named pipe must not wait for a writer; it is
  // refused below as not a regular file.
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | (follow_links ? 0 : O_NOFOLLOW)));
  if (fd.get() < 0) {
    if (errno == EISDIR) throw Error(path, 0, 0, "is a folder, not a file");
    if (errno == ELOOP && !follow_links) throw Error(path, 0, 0, "is a symbolic link; links are not followed");
    throw Error(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) throw Error(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw Error(path, 0, 0, "is a folder, not a file");
  if (!S_ISREG(info.st_mode)) throw Error(path, 0, 0, "is not a regular file (a pipe, socket or device)");
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes)
    throw Error(path, 0, 0, size_message(static_cast<std::uintmax_t>(info.st_size), max_bytes));
  // Read straight into the string, one byte more than the size, to see
  // whether the file grew while it was read (then stop at the cap all the same).
  std::string bytes(static_cast<std::size_t>(info.st_size) + 1, '\0');
  std::size_t have = 0;
  for (;;) {
    if (have == bytes.size()) bytes.resize(std::min(bytes.size() * 2, max_bytes + 1));
    const ssize_t got = ::read(fd.get(), bytes.data() + have, bytes.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error(path, 0, 0, std::string("read failed: ") + std::strerror(errno));
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
    if (have > max_bytes) throw Error(path, 0, 0, size_message(have, max_bytes) + " (or more)");
  }
  bytes.resize(have);
  return bytes;
}

namespace {

constexpr std::string_view temporary_prefix = ".attnmark-", temporary_suffix = ".tmp";

// A fresh temporary name beside `path`: ".attnmark-<16 random hex>.tmp" in
// its folder. Random, not the process id: after a crash in a container the
// next run has the same process id.
std::string temporary_name(const std::string& path) {
  unsigned char random[8];
  std::size_t have = 0;
  while (have < sizeof random) {
    const ssize_t got = ::getrandom(random + have, sizeof random - have, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) throw Error(path, 0, 0, reason("cannot make a temporary name"));
    have += static_cast<std::size_t>(got);
  }
  std::string name(temporary_prefix);
  constexpr char hex[] = "0123456789abcdef";
  for (unsigned char c : random) {
    name += hex[c >> 4];
    name += hex[c & 15];
  }
  name += temporary_suffix;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? name : (parent / name).string();
}

// True for a name temporary_name makes.
bool is_temporary_name(std::string_view name, std::string_view suffix = temporary_suffix) {
  if (name.size() != temporary_prefix.size() + 16 + suffix.size() || !name.starts_with(temporary_prefix) ||
      !name.ends_with(suffix))
    return false;
  const std::string_view digits = name.substr(temporary_prefix.size(), 16);
  return std::all_of(digits.begin(), digits.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Makes a fresh temporary beside `path` and locks it; returns its name and
// sets fd, or returns "" (errno says why). `make(name)` creates it and
// returns its open descriptor, or -1 (errno EEXIST on a clash: another name
// is tried). It is made as ".attnmark-<hex>.new" and renamed to ".tmp" only
// once locked, so remove_stale_temporaries, which looks at ".tmp" names
// whose lock is free, never takes one that is being made.
template <typename Make>
std::string make_temporary(const std::string& path, int& fd, Make make) {
  for (int attempt = 0;; ++attempt) {
    const std::string name = temporary_name(path);
    const std::string fresh = name.substr(0, name.size() - temporary_suffix.size()) + ".new";
    fd = make(fresh);
    if (fd < 0) {
      if (errno != EEXIST || attempt == 16) return std::string();
      continue;
    }
    ::flock(fd, LOCK_EX | LOCK_NB);  // held while this run lives: not stale
    if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, name.c_str(), RENAME_NOREPLACE) == 0) return name;
    const int saved = errno;
    ::close(fd);
    fd = -1;
    std::error_code ignored;
    std::filesystem::remove_all(fresh, ignored);
    errno = saved;
    if (saved != EEXIST || attempt == 16) return std::string();
  }
}

// Writes all of `bytes` to fd; false on failure (errno says why).
bool write_all(int fd, std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    done += static_cast<std::size_t>(wrote);
  }
  return true;
}

}  // namespace

NewFile::NewFile(std::string path, Access access) : path_(std::move(path)) {
  // Created fresh (O_EXCL), never through a symbolic link planted there
  // (O_NOFOLLOW), and locked while this run lives. Its mode from the start:
  // an owner_only file is never readable by others, not even half written.
  const mode_t mode = file_mode(access);
  temporary_ = make_temporary(path_, fd_, [mode](const std::string& name) {
    return ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  });
  if (fd_ < 0) throw Error(path_, 0, 0, reason("cannot write"));
}

NewFile::~NewFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temporary_.c_str());
}

void NewFile::append(std::string_view bytes) {
  if (!write_all(fd_, bytes)) throw Error(path_, 0, 0, reason("write failed"));
}

void NewFile::commit() {
  // No fsync: the rename makes the write atomic for any reader and for a run
  // that is interrupted (Ctrl-C, a crash of attnmark), which is the promise;
  // surviving a power cut is not, and 100,000 feedback files would each
  // wait for the disk.
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw Error(path_, 0, 0, reason("write failed"));
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) throw Error(path_, 0, 0, reason("cannot rename into place"));
  committed_ = true;
}

void write_file(const std::string& path, const std::string& bytes, Access access) {
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) throw Error(path, 0, 0, "cannot create folder: " + ec.message());
  NewFile file(path, access);
  file.append(bytes);
  file.commit();
}

void create_private_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::close(fd);
    return;
  }
  if (errno != EEXIST) throw Error(path, 0, 0, reason("cannot create"));
}

std::optional<unsigned> make_owner_only(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) || (info.st_mode & 077) == 0) return std::nullopt;
  if (::chmod(path.c_str(), 0600) != 0) throw Error(path, 0, 0, reason("cannot make it private (chmod 600)"));
  return static_cast<unsigned>(info.st_mode & 07777);
}

std::optional<unsigned> open_to_others(const std::string& folder) {
  std::error_code ec;
  const std::filesystem::path path = std::filesystem::absolute(folder.empty() ? "." : folder, ec);
  struct stat info {};
  if (ec || ::stat(path.c_str(), &info) != 0 || (info.st_mode & (S_IROTH | S_IXOTH)) == 0) return std::nullopt;
  // Others reach it only through folders they may enter: a home folder of
  // 0700 or 0750 keeps everything under it from them.
  for (std::filesystem::path above = path.parent_path(); ; above = above.parent_path()) {
    struct stat up {};
    if (::stat(above.c_str(), &up) != 0 || (up.st_mode & S_IXOTH) == 0) return std::nullopt;
    if (above == above.root_path()) break;
  }
  return static_cast<unsigned>(info.st_mode & 07777);
}

NewFolder::NewFolder(std::string path, Access access) : path_(std::move(path)), access_(access) {
  const mode_t mode = folder_mode(access);
  temporary_ = make_temporary(path_, fd_, [mode](const std::string& name) {
    if (::mkdir(name.c_str(), mode) != 0) return -1;
    const int fd = ::open(name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      const int saved = errno;
      ::rmdir(name.c_str());
      errno = saved;
    }
    return fd;
  });
  if (fd_ < 0) throw Error(path_, 0, 0, reason("cannot create folder"));
}

NewFolder::~NewFolder() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove_all(temporary_, ignored);
  }
}

void NewFolder::write(const std::string& name, std::string_view bytes) {
  const std::string shown = path_ + "/" + name;
  Descriptor fd(::openat(fd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, file_mode(access_)));
  if (fd.get() < 0) throw Error(shown, 0, 0, reason("cannot write"));
  if (!write_all(fd.get(), bytes) || !fd.close()) throw Error(shown, 0, 0, reason("write failed"));
}

void NewFolder::make_folder(const std::string& name) {
  if (::mkdirat(fd_, name.c_str(), folder_mode(access_)) != 0 && errno != EEXIST)
    throw Error(path_ + "/" + name, 0, 0, reason("cannot create folder"));
}

void NewFolder::commit(bool replace) {
  struct stat info {};
  const bool occupied = ::lstat(path_.c_str(), &info) == 0;
  if (occupied && replace && S_ISDIR(info.st_mode)) {
    if (::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, path_.c_str(), RENAME_EXCHANGE) != 0) {
      // A file system without the exchange (some network ones): move the old
      // folder aside, then the new one in; a reader may find nothing between.
      if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) throw Error(path_, 0, 0, reason("cannot swap into place"));
      const std::string aside = temporary_name(path_);  // 64 random bits: free
      if (::rename(path_.c_str(), aside.c_str()) != 0) throw Error(path_, 0, 0, reason("cannot move the old folder aside"));
      if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
        const std::string why = reason("cannot rename into place");
        ::rename(aside.c_str(), path_.c_str());
        throw Error(path_, 0, 0, why);
      }
      temporary_ = aside;
    }
    // temporary_ now names the old folder, which goes.
    committed_ = true;
    std::error_code ignored;
    std::filesystem::remove_all(temporary_, ignored);
    return;
  }
  if (occupied) {
    errno = EEXIST;
    throw Error(path_, 0, 0, reason("cannot rename into place (another run made it meanwhile?)"));
  }
  if (::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, path_.c_str(), RENAME_NOREPLACE) != 0 &&
      (errno != EINVAL || ::rename(temporary_.c_str(), path_.c_str()) != 0))
    throw Error(path_, 0, 0, reason(errno == EEXIST ? "cannot rename into place (another run made it meanwhile?)"
                                                    : "cannot rename into place"));
  committed_ = true;
}

void remove_stale_temporaries(const std::string& folder) {
  Descriptor dir(::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return;
  std::vector<std::string> stale;
  if (DIR* d = ::fdopendir(::dup(dir.get()))) {
    while (const dirent* entry = ::readdir(d)) {
      // A ".new" one is being made and not locked yet: stale only when a
      // run died making it, a minute ago or more.
      const bool made = is_temporary_name(entry->d_name), making = is_temporary_name(entry->d_name, ".new");
      if (!made && !making) continue;
      // Its lock is free only when the run that made it has ended.
      Descriptor fd(::openat(dir.get(), entry->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
      struct stat info {};
      if (fd.get() < 0 || ::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) continue;
      if (making && (::fstat(fd.get(), &info) != 0 || info.st_mtime > ::time(nullptr) - 60)) continue;
      stale.emplace_back(entry->d_name);
    }
    ::closedir(d);
  }
  for (const std::string& name : stale) {
    std::error_code ignored;
    std::filesystem::remove_all(std::filesystem::path(folder.empty() ? "." : folder) / name, ignored);
  }
}

FolderContents walk_folder(const std::string& root, const std::vector<std::string>& skip) {
  namespace fs = std::filesystem;
  std::vector<std::pair<dev_t, ino_t>> skip_ids;
  for (const std::string& s : skip)
    if (struct stat info {}; ::stat(s.c_str(), &info) == 0) skip_ids.emplace_back(info.st_dev, info.st_ino);
  FolderContents out;
  // Folders still to read. Each is opened, read whole and closed before the
  // next: one descriptor at a time, however deep the tree.
  std::vector<std::string> pending{root};
  bool first = true;
  while (!pending.empty()) {
    const std::string folder = std::move(pending.back());
    pending.pop_back();
    Descriptor fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (first ? 0 : O_NOFOLLOW)));
    if (fd.get() < 0) {
      if (first) throw Error(root, 0, 0, reason("cannot read folder"));
      out.unreadable.emplace_back(folder, reason("cannot read folder"));
      continue;
    }
    first = false;
    DIR* d = ::fdopendir(::dup(fd.get()));
    if (!d) {
      out.unreadable.emplace_back(folder, reason("cannot read folder"));
      continue;
    }
    errno = 0;
    while (const dirent* entry = ::readdir(d)) {
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") continue;
      const std::string path = (fs::path(folder) / entry->d_name).string();
      struct stat info {};
      if (::fstatat(fd.get(), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) {
        out.unreadable.emplace_back(path, reason("cannot read"));
        continue;
      }
      if (S_ISLNK(info.st_mode)) out.links.push_back(path);
      else if (S_ISREG(info.st_mode)) out.files.push_back(path);
      else if (!S_ISDIR(info.st_mode)) out.special.push_back(path);
      else if (std::find(skip_ids.begin(), skip_ids.end(), std::make_pair(info.st_dev, info.st_ino)) != skip_ids.end())
        out.skipped.push_back(path);
      else pending.push_back(path);
      errno = 0;
    }
    if (errno != 0) out.unreadable.emplace_back(folder, reason("cannot read folder"));
    ::closedir(d);
  }
  for (auto* list : {&out.files, &out.links, &out.special, &out.skipped}) std::sort(list->begin(), list->end());
  std::sort(out.unreadable.begin(), out.unreadable.end());
  return out;
}

}  // namespace attnmark
