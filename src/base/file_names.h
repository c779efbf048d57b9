// base/file_names.h: the one maker of file names from student ids, for every
// file named after a student (feedback files, roster worksheets and keys).
//
//   FileStems stems({"class-pack", "class-key"});  // names never handed out
//   stems.take("s001") == "s001";   stems.take("S001") == "S001-2"
//   stems.take("../../etc/x") == "_._.._etc_x"     // stays inside its folder
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

// Gives each id a file stem that is safe on Linux, macOS and Windows:
// letters, digits, '-', '_' and '.' only (any other byte becomes '_'), never
// starting with '.' (not hidden) nor ending with one (Windows drops it),
// never a Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9, whatever
// follows the first '.'; such a stem gets a leading '_'), at most 64 bytes,
// "submission" for an id with nothing left, and unique without regard to
// case, so names never collide on a case-insensitive disk: a repeat gets
// "-2", "-3", ..., its stem cut so the whole stays within 64 bytes.
class FileStems {
 public:
  // Stems in `reserved` (compared without case) are never handed out.
  explicit FileStems(const std::vector<std::string>& reserved = {});

  // The stem for `id`, different from every stem handed out before. Takes
  // time in proportion to the id, however many ids share its stem.
  std::string take(std::string_view id);

  // The safe stem of `id` before it is made unique: stem("a/b") == "a_b".
  static std::string stem(std::string_view id);

 private:
  std::unordered_set<std::string> taken_;           // lower-case stems handed out or reserved
  std::unordered_map<std::string, int> next_suffix_;  // lower-case stem → the suffix number to try next
};

}  // namespace attnmark
