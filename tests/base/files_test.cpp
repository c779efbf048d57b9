// Files (base/files.h): read_file refuses what is not a regular file or is
// over its cap; write_file replaces a file whole, never through a link.
#include "support/test_support.h"

#include <filesystem>
#include <string>
#include <sys/stat.h>
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
  fs::create_symlink("/etc/passwd", dir / "gradebook.csv.tmp-attnmark");
  write_file((dir / "gradebook.csv").string(), "newer\n");
  CHECK(read_file((dir / "gradebook.csv").string(), 100) == "newer\n");
  CHECK(fs::is_symlink(dir / "gradebook.csv.tmp-attnmark"));
}
