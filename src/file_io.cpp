#include "file_io.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "attnmark/error.h"

namespace attnmark {

std::string read_file(const std::string& path, std::size_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(path, 0, 0, "is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string bytes;
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    bytes.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > max_bytes)
      throw Error(path, 0, 0, "file is larger than the limit of " + std::to_string(max_bytes) + " bytes");
  }
  if (in.bad()) throw Error(path, 0, 0, "read failed");
  return bytes;
}

void write_file(const std::string& path, const std::string& bytes) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) throw Error(path, 0, 0, "cannot create folder: " + ec.message());
  const std::string temporary = path + ".tmp-attnmark";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(path, 0, 0, std::string("cannot write: ") + std::strerror(errno));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      fs::remove(temporary, ec);
      throw Error(path, 0, 0, "write failed (disk full?)");
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw Error(path, 0, 0, "cannot rename into place: " + ec.message());
  }
}

}  // namespace attnmark
