// Files (base/files.h): read_file refuses what is not a regular file or is
// over its cap; write_file replaces a file whole, never through a link.
#include "support/test_support.h"

#include <filesystem>
#include <string>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "base/files.h"

namespace fs = std::filesystem;
using namespace attnmark;

TEST_CASE("read_file refuses a pipe without waiting on it, and a file over the cap before reading it") {
  const fs::path dir = scratch() / "file_io";
  fs::create_directories(dir);
  const std::string fifo = (dir / "pipe.yaml").string();
  fs::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_file(fifo, 100), fifo + ": is not a regular file (a pipe, socket or device)");
  CHECK_THROWS_WITH(read_file(dir.string(), 100), dir.string() + ": is a folder, not a file");
  write_file((dir / "big.yaml").string(), std::string(101, 'x'));
  CHECK_THROWS_WITH(read_file((dir / "big.yaml").string(), 100),
                    (dir / "big.yaml").string() + ": file is 101 bytes; the limit is 100");
  CHECK(read_file((dir / "big.yaml").string(), 101).size() == 101);
}

TEST_CASE("write_file never writes through a link planted at its temporary name, and leaves no temporary") {
  const fs::path dir = scratch() / "write_file";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_file((dir / "gradebook.csv").string(), "old\n");
  write_file((dir / "gradebook.csv").string(), "new\n");
  CHECK(read_file((dir / "gradebook.csv").string(), 100) == "new\n");
  CHECK(listing(dir) == std::vector<std::string>{"gradebook.csv 4"});
  // A link where a writer might put its temporary is left alone.
  fs::create_symlink("/etc/passwd", dir / ".attnmark-0000000000000000.tmp");
  write_file((dir / "gradebook.csv").string(), "newer\n");
  CHECK(read_file((dir / "gradebook.csv").string(), 100) == "newer\n");
  CHECK(fs::is_symlink(dir / ".attnmark-0000000000000000.tmp"));
}

TEST_CASE("a file name of 255 bytes, the most a disk allows, is written: the temporary's name does not grow with it") {
  const fs::path dir = scratch() / "long_name";
  fs::remove_all(dir);
  const std::string name = std::string(252, 'w') + ".md";
  write_file((dir / name).string(), "worksheet\n");
  CHECK(listing(dir) == std::vector<std::string>{name + " 10"});
  NewFolder folder((dir / (std::string(255, 'f'))).string());
  folder.write(name, "x");
  folder.commit();
  CHECK(read_file((dir / std::string(255, 'f') / name).string(), 10) == "x");
}

TEST_CASE("temporaries of a run that died are removed, and a live run's are kept") {
  const fs::path dir = scratch() / "stale";
  fs::remove_all(dir);
  // What a run killed by SIGKILL leaves: a temporary folder and file no one holds.
  fs::create_directories(dir / ".attnmark-0123456789abcdef.tmp/feedback");
  write_file((dir / ".attnmark-0123456789abcdef.tmp/feedback/s1.md").string(), "x");
  write_file((dir / "x/y").string(), "y");
  fs::rename(dir / "x/y", dir / ".attnmark-fedcba9876543210.tmp");
  // Not ours: kept.
  write_file((dir / ".attnmark-notes.tmp").string(), "teacher's");
  write_file((dir / "gradebook.csv.tmp-attnmark-7-0").string(), "older attnmark's");
  // One being made (".new", not locked yet) is taken only when a minute old: its run died making it.
  write_file((dir / "x/new").string(), "y");
  fs::rename(dir / "x/new", dir / ".attnmark-1111111111111111.new");
  write_file((dir / "x/old").string(), "y");
  fs::rename(dir / "x/old", dir / ".attnmark-2222222222222222.new");
  fs::last_write_time(dir / ".attnmark-2222222222222222.new",
                      fs::last_write_time(dir / ".attnmark-2222222222222222.new") - std::chrono::minutes(2));
  NewFolder live((dir / "out").string());
  NewFile live_file((dir / "gradebook.csv").string());
  remove_stale_temporaries(dir.string());
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  CHECK(left.size() == 6);
  CHECK(std::count(left.begin(), left.end(), ".attnmark-1111111111111111.new") == 1);
  CHECK(std::count(left.begin(), left.end(), ".attnmark-2222222222222222.new") == 0);
  CHECK(std::count(left.begin(), left.end(), ".attnmark-0123456789abcdef.tmp") == 0);
  CHECK(std::count(left.begin(), left.end(), ".attnmark-fedcba9876543210.tmp") == 0);
  CHECK(std::count(left.begin(), left.end(), ".attnmark-notes.tmp") == 1);
  CHECK(std::count(left.begin(), left.end(), fs::path(live.temporary()).filename().string()) == 1);
  live.commit();
  live_file.commit();
}

TEST_CASE("NewFolder::commit swaps a folder out whole with replace, and never replaces one that appeared meanwhile") {
  const fs::path dir = scratch() / "swap";
  fs::remove_all(dir);
  write_file((dir / "out/old.md").string(), "old");
  {
    NewFolder fresh((dir / "out").string());
    fresh.write("new.md", "new");
    fresh.commit(true);
  }
  CHECK(listing(dir) == std::vector<std::string>{"out", "out/new.md 3"});
  NewFolder late((dir / "out").string());
  late.write("late.md", "late");
  CHECK_THROWS_WITH(late.commit(), (dir / "out").string() +
                                       ": cannot rename into place (another run made it meanwhile?): File exists");
  CHECK(listing(dir).size() == 4);  // out, out/new.md and the late one's temporary and file, removed when it goes
}

TEST_CASE("walk_folder lists files, links (not followed), pipes and folders it cannot read, however deep") {
  const fs::path dir = scratch() / "walk";
  fs::remove_all(dir);
  write_file((dir / "in/a.yaml").string(), "a");
  write_file((dir / "in/sub/b.yaml").string(), "b");
  write_file((dir / "in/out/gradebook.csv").string(), "g");
  fs::create_symlink("/etc/passwd", dir / "in/link.yaml");
  fs::create_directory_symlink("/etc", dir / "in/etc");
  REQUIRE(mkfifo((dir / "in/pipe.yaml").c_str(), 0600) == 0);
  // 1,100 folders deep, with a file at the bottom, under a limit of 64 open
  // files: the walk holds one folder open at a time.
  fs::path deep = dir / "in";
  int fd = ::open(deep.c_str(), O_RDONLY | O_DIRECTORY);
  for (int i = 0; i < 1100; ++i) {
    REQUIRE(::mkdirat(fd, "d", 0755) == 0);
    const int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = next;
    deep /= "d";
  }
  const int file = ::openat(fd, "c.yaml", O_WRONLY | O_CREAT, 0644);
  REQUIRE(file >= 0);
  ::close(file);
  ::close(fd);
  rlimit before{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &before) == 0);
  rlimit low = before;
  low.rlim_cur = 64;
  REQUIRE(setrlimit(RLIMIT_NOFILE, &low) == 0);
  const FolderContents c = walk_folder((dir / "in").string(), {(dir / "in/out").string(), (dir / "nowhere").string()});
  REQUIRE(setrlimit(RLIMIT_NOFILE, &before) == 0);
  const std::string in = (dir / "in").string();
  CHECK(c.files == std::vector<std::string>{in + "/a.yaml", deep.string() + "/c.yaml", in + "/sub/b.yaml"});
  CHECK(c.links == std::vector<std::string>{in + "/etc", in + "/link.yaml"});
  CHECK(c.special == std::vector<std::string>{in + "/pipe.yaml"});
  CHECK(c.skipped == std::vector<std::string>{in + "/out"});
  CHECK(c.unreadable.empty());
  CHECK_THROWS_WITH(walk_folder((dir / "missing").string(), {}),
                    (dir / "missing").string() + ": cannot read folder: No such file or directory");
  if (geteuid() != 0) {  // (root reads any folder)
    fs::permissions(dir / "in/sub", fs::perms::none);
    const FolderContents locked = walk_folder(in, {});
    fs::permissions(dir / "in/sub", fs::perms::owner_all);
    CHECK(locked.unreadable ==
          std::vector<std::pair<std::string, std::string>>{{in + "/sub", "cannot read folder: Permission denied"}});
  }
  fs::remove_all(dir);
}

namespace {
unsigned mode_of(const std::string& path) {
  struct stat info {};
  REQUIRE(::lstat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}
}  // namespace

TEST_CASE("files holding secrets are written 0600 (folders 0700), others 0644, under a umask of 022") {
  const mode_t before = ::umask(022);
  const std::filesystem::path dir = scratch() / "files-modes";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string codes = (dir / "codes.csv").string(), shared = (dir / "sheet.md").string();
  attnmark::write_file(codes, "student,code\r\n", attnmark::Access::owner_only);
  attnmark::write_file(shared, "# sheet\n");
  CHECK(mode_of(codes) == 0600);
  CHECK(mode_of(shared) == 0644);
  // Written over a file that was 0644: the new one is 0600 (a new file takes the old one's place).
  attnmark::write_file(shared, "student,code\r\n", attnmark::Access::owner_only);
  CHECK(mode_of(shared) == 0600);
  {
    attnmark::NewFolder keys((dir / "keys").string(), attnmark::Access::owner_only);
    keys.make_folder("more");
    keys.write("s001.key.md", "key");
    keys.write("more/s002.key.md", "key");
    keys.commit();
  }
  CHECK(mode_of((dir / "keys").string()) == 0700);
  CHECK(mode_of((dir / "keys/more").string()) == 0700);
  CHECK(mode_of((dir / "keys/s001.key.md").string()) == 0600);
  CHECK(mode_of((dir / "keys/more/s002.key.md").string()) == 0600);
  {
    attnmark::NewFolder sheets((dir / "sheets").string());
    sheets.write("s001.md", "sheet");
    sheets.commit();
  }
  CHECK(mode_of((dir / "sheets").string()) == 0755);
  CHECK(mode_of((dir / "sheets/s001.md").string()) == 0644);
  ::umask(before);
}

TEST_CASE("create_private_file makes an empty 0600 file, and leaves one already there as it is") {
  const mode_t before = ::umask(0);
  const std::filesystem::path dir = scratch() / "files-private";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string db = (dir / "class.sqlite").string();
  attnmark::create_private_file(db);
  CHECK(mode_of(db) == 0600);
  CHECK(attnmark::read_file(db, 10).empty());
  attnmark::write_file(db, "kept");
  attnmark::create_private_file(db);
  CHECK(attnmark::read_file(db, 10) == "kept");
  CHECK(mode_of(db) == 0644);
  CHECK_THROWS_WITH(attnmark::create_private_file((dir / "no/such.sqlite").string()),
                    (dir / "no/such.sqlite").string() + ": cannot create: No such file or directory");
  // make_owner_only: the mode it had, or nothing when private already, missing or a link.
  CHECK(attnmark::make_owner_only(db) == 0644u);
  CHECK(mode_of(db) == 0600);
  CHECK_FALSE(attnmark::make_owner_only(db));
  CHECK_FALSE(attnmark::make_owner_only((dir / "missing").string()));
  std::filesystem::create_symlink(db, dir / "link");
  ::chmod(db.c_str(), 0666);
  CHECK_FALSE(attnmark::make_owner_only((dir / "link").string()));
  CHECK(mode_of(db) == 0666);
  ::umask(before);
}

TEST_CASE("open_to_others: a folder others may list or enter, and reach through the folders above it") {
  // Outside scratch(), which is 0700: this one others can reach.
  const std::filesystem::path open = std::filesystem::temp_directory_path() / ("attnmark-open-" + std::to_string(getpid()));
  std::filesystem::remove_all(open);
  std::filesystem::create_directories(open / "inner");
  ::chmod(open.c_str(), 0755);
  for (const auto& [mode, shown] : std::vector<std::pair<unsigned, bool>>{
           {0755, true}, {0701, true}, {0704, true}, {0750, false}, {0700, false}}) {
    INFO(mode);
    ::chmod((open / "inner").c_str(), mode);
    CHECK(attnmark::open_to_others((open / "inner").string()) == (shown ? std::optional<unsigned>(mode) : std::nullopt));
  }
  // Behind a folder others cannot enter (a home folder of 0750): out of their reach.
  ::chmod((open / "inner").c_str(), 0755);
  ::chmod(open.c_str(), 0754);
  CHECK_FALSE(attnmark::open_to_others((open / "inner").string()));
  CHECK(attnmark::open_to_others(open.string()) == 0754u);  // itself listed, though not entered
  ::chmod(open.c_str(), 0700);
  CHECK_FALSE(attnmark::open_to_others((scratch() / "no-such-folder").string()));
  std::filesystem::remove_all(open);
}
