// base/files.h: reading and writing whole files, with sizes capped and writes atomic.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace attnmark {

// The bytes of a file. Throws Error naming the path when it cannot be read:
//   "is a folder, not a file"
//   "is not a regular file (a pipe, socket or device)"  (never waits on a pipe)
//   "file is N bytes; the limit is M"                   (checked before reading)
//   "cannot open: <reason>", "read failed: <reason>"
std::string read_file(const std::string& path, std::size_t max_bytes);

// Writes `bytes` to a fresh temporary name beside `path` (created with
// O_EXCL | O_NOFOLLOW, so never through a planted link), then renames it
// over `path`: a reader, or a run that is interrupted, sees the old file or
// the new one, never half a file (not synced: a power cut may lose it). Creates missing parent
// folders. Throws Error naming the path on failure; the temporary is removed.
void write_file(const std::string& path, const std::string& bytes);

// A file written in pieces that appears whole: the pieces go to a fresh
// temporary name beside `path` (O_EXCL | O_NOFOLLOW, so never through a
// planted link), which commit() renames over `path`. Destroyed uncommitted
// (a run that failed), the temporary is removed. write_file is this in one
// piece.
//
//   NewFile gradebook("out/gradebook.csv");
//   gradebook.append(header);
//   gradebook.append(rows);   // written at once: give it large pieces
//   gradebook.commit();
class NewFile {
 public:
  explicit NewFile(std::string path);  // throws Error naming the path
  NewFile(const NewFile&) = delete;
  NewFile& operator=(const NewFile&) = delete;
  ~NewFile();

  void append(std::string_view bytes);  // throws Error naming the path
  void commit();                        // throws Error naming the path

 private:
  std::string path_, temporary_;
  int fd_ = -1;
  bool committed_ = false;
};

// A folder of many new files that appears whole or not at all: the files
// are written straight into a fresh temporary folder beside `path` (made by
// mkdir, so no one else's), which commit() renames to `path`. One directory
// operation a file instead of a temporary name and a rename each, which is
// most of the time when a class's feedback is 30,000 files.
//
//   NewFolder feedback("out/feedback");
//   feedback.write("s001.md", text);
//   feedback.commit();  // out/feedback now holds every file
//
// write() may be called from several threads at once; commit() only when
// they are done. Throws Error naming the path on failure.
class NewFolder {
 public:
  // REQUIRES: the parent of `path` exists.
  explicit NewFolder(std::string path);
  NewFolder(const NewFolder&) = delete;
  NewFolder& operator=(const NewFolder&) = delete;
  // Removes the temporary folder, unless committed.
  ~NewFolder();

  // Writes a new file `name` (no '/') inside; created with O_EXCL | O_NOFOLLOW.
  void write(const std::string& name, std::string_view bytes);
  // Renames the folder to `path`. REQUIRES: nothing exists at `path`.
  void commit();

 private:
  std::string path_, temporary_;
  int fd_ = -1;  // the temporary folder, open
  bool committed_ = false;
};

}  // namespace attnmark
