#include "base/files.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include "base/error.h"

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

std::string size_message(std::uintmax_t size, std::size_t max_bytes) {
  return "file is " + std::to_string(size) + " bytes; the limit is " + std::to_string(max_bytes);
}

}  // namespace

std::string read_file(const std::string& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a named pipe must not wait for a writer; it is
  // refused below as not a regular file.
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) {
    if (errno == EISDIR) throw Error(path, 0, 0, "is a folder, not a file");
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

// A name of this process and call alone, for a file or folder about to be made.
std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp-attnmark-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
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

std::string reason(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

NewFile::NewFile(std::string path) : path_(std::move(path)), temporary_(temporary_name(path_)) {
  // Created fresh (O_EXCL), never through a symbolic link planted there (O_NOFOLLOW).
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
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

void write_file(const std::string& path, const std::string& bytes) {
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) throw Error(path, 0, 0, "cannot create folder: " + ec.message());
  NewFile file(path);
  file.append(bytes);
  file.commit();
}

NewFolder::NewFolder(std::string path) : path_(std::move(path)), temporary_(temporary_name(path_)) {
  if (::mkdir(temporary_.c_str(), 0755) != 0) throw Error(path_, 0, 0, reason("cannot create folder"));
  fd_ = ::open(temporary_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd_ < 0) {
    const int saved = errno;
    ::rmdir(temporary_.c_str());
    throw Error(path_, 0, 0, std::string("cannot open folder: ") + std::strerror(saved));
  }
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
  Descriptor fd(::openat(fd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw Error(shown, 0, 0, reason("cannot write"));
  if (!write_all(fd.get(), bytes) || !fd.close()) throw Error(shown, 0, 0, reason("write failed"));
}

void NewFolder::commit() {
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) throw Error(path_, 0, 0, reason("cannot rename into place"));
  committed_ = true;
}

}  // namespace attnmark
