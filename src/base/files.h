// base/files.h: reading and writing whole files, with sizes capped and writes
// atomic; walking a folder a student may have filled.
//
// Temporary files and folders are named ".attnmark-<16 random hex>.tmp" beside
// their target: the name does not grow with the target's (any name that fits
// has a temporary that fits), cannot collide with another run's (O_EXCL and
// mkdir, with a fresh name on the rare clash), and is locked (flock) while its
// run lives, so remove_stale_temporaries can tell a dead run's from a live one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnmark {

// The bytes of a file. Throws Error naming the path when it cannot be read:
//   "is a folder, not a file"
//   "is not a regular file (a pipe, socket or device)"  (never waits on a pipe)
//   "file is N bytes; the limit is M"                   (checked before reading)
//   "cannot open: <reason>", "read failed: <reason>"
// With follow_links false, a symbolic link at `path` itself is refused
// ("is a symbolic link; links are not followed") instead of read through.
std::string read_file(const std::string& path, std::size_t max_bytes, bool follow_links = true);

// Everything under a folder, found without following symbolic links and
// without holding a descriptor per level (so any depth can be walked).
//
//   FolderContents c = walk_folder("answers/", {"answers/out"});
//   for (const std::string& f : c.files) mark(f);          // "answers/s01.yaml", sorted
//   for (const auto& [place, why] : c.unreadable) warn(place, why);
struct FolderContents {
  std::vector<std::string> files;    // regular files, sorted
  std::vector<std::string> links;    // symbolic links, not followed, sorted
  std::vector<std::string> special;  // pipes, sockets and devices, sorted
  std::vector<std::string> skipped;  // folders of `skip` met on the way
  std::vector<std::pair<std::string, std::string>> unreadable;  // a folder that could not be read, and why
};

// Walks `root` (followed when it is itself a link: it was named). Folders
// that are one of `skip` (the same folder, however named; those that do not
// exist are ignored) are not entered. Never throws for what is under root;
// throws Error when root itself cannot be read.
FolderContents walk_folder(const std::string& root, const std::vector<std::string>& skip);

// Removes the temporary files and folders of runs that have died (killed,
// or their machine restarted) from `folder`: those whose lock no one holds.
// A live run's are left alone. Best effort; never throws.
void remove_stale_temporaries(const std::string& folder);

// Who may read a file attnmark writes. The one home of file modes: a file
// holding access codes, keys, the class's secret or its attempts is
// owner_only; other outputs are for everyone the umask lets read them.
enum class Access {
  everyone,    // files 0644, folders 0755 (less the umask)
  owner_only,  // files 0600, folders 0700: no other user of the machine reads them
};

// Writes `bytes` to a fresh temporary name beside `path` (created with
// O_EXCL | O_NOFOLLOW, so never through a planted link), then renames it
// over `path`: a reader, or a run that is interrupted, sees the old file or
// the new one, never half a file (not synced: a power cut may lose it). Creates missing parent
// folders. Throws Error naming the path on failure; the temporary is removed.
void write_file(const std::string& path, const std::string& bytes, Access access = Access::everyone);

// Creates an empty file at `path` that only its owner may read and write
// (0600), unless something is there already (then left as it is). Never
// through a link planted there. Throws Error naming the path when it
// cannot ("cannot create: <reason>").
void create_private_file(const std::string& path);

// Makes the file at `path` 0600 when its group or others may read or write
// it, and returns the mode it had (0644); nothing when it was private
// already or nothing is there. A symbolic link is left alone. Throws Error
// naming the path when its mode cannot be changed.
std::optional<unsigned> make_owner_only(const std::string& path);

// The mode of `folder` when users other than its owner and group may list
// or enter it (S_IROTH or S_IXOTH: 0755, 0705, 0701...) and may reach it
// (every folder above it has S_IXOTH), else nothing (also when it cannot be
// read: the caller's own open of a file in it then says why).
std::optional<unsigned> open_to_others(const std::string& folder);

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
  explicit NewFile(std::string path, Access access = Access::everyone);  // throws Error naming the path
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
  // REQUIRES: the parent of `path` exists. `access` is the folder's, its
  // folders' and its files' alike.
  explicit NewFolder(std::string path, Access access = Access::everyone);
  NewFolder(const NewFolder&) = delete;
  NewFolder& operator=(const NewFolder&) = delete;
  // Removes the temporary folder, unless committed.
  ~NewFolder();

  // Writes a new file `name` inside; created with O_EXCL | O_NOFOLLOW. `name`
  // is a file name, or "folder/file" with a folder made by make_folder.
  void write(const std::string& name, std::string_view bytes);
  // Makes a folder `name` (no '/') inside, for write("name/file", ...).
  void make_folder(const std::string& name);
  // The temporary folder, for files written inside it by other means.
  const std::string& temporary() const { return temporary_; }
  // Renames the folder to `path`. When nothing is at `path`, fails (throws)
  // if something appears there meanwhile: another run's folder is never
  // replaced by accident. With `replace`, a folder already at `path` is
  // swapped out in one step (renameat2 RENAME_EXCHANGE: a reader sees the old
  // folder or the new one, whole) and then removed.
  void commit(bool replace = false);

 private:
  std::string path_, temporary_;
  Access access_;
  int fd_ = -1;  // the temporary folder, open
  bool committed_ = false;
};

}  // namespace attnmark
