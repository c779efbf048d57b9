// Fuzzes what `mark` makes of a submissions folder: the bytes build a folder
// tree (folders, answer files, sheets, hidden files, symbolic links to a
// secret file outside it and to folders, named pipes, --out inside it), which
// input_files and read_inputs then walk and read. Invariants: every file the
// tree holds is one submission, once, except hidden ones and those under
// --out; links and pipes are submissions refused unread; nothing outside the
// tree is read (no submission quotes the secret); every notice is one
// printable line; a student's counted submission is theirs.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "fuzz_check.h"
#include "marking/inputs.h"

namespace fs = std::filesystem;
using attnmark::fuzz::one_printable_line;
using attnmark::fuzz::require;

namespace {

constexpr std::string_view secret = "SECRET-MARKER-7f3a";

// Names a tree can hold: what LMS downloads and zips hold, and worse.
const char* const names[] = {"s01",        "s02",      "answers.yaml", "notes.csv", ".DS_Store", "__MACOSX",
                             "out",        "x.json",   "a b.yml",      "CON.yaml",  "\xE9.yaml", "._s01.yaml",
                             "s01.yaml",   "s02.yaml", ".hidden",      "d",         "gradebook.csv",
                             "Smith John_s02_final.yaml"};

// A small answer file for `student`, or junk, chosen by `kind`.
std::string content(std::uint8_t kind) {
  static const char* const students[] = {"s01", "s02", "s03", "alice"};
  switch (kind % 5) {
    case 0: return std::string("student: ") + students[kind / 5 % 4] + "\nanswers:\n  q1:\n    scores: [2, 0, 1]\n";
    case 1: return "student,q1.scores.1\ns01,2\ns02,2\n";
    case 2: return std::string("student: ") + students[kind / 5 % 4] + "\n";
    case 3: return std::string("\0\1binary", 8);
    default: return "not: [yaml";
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fs::path base = fs::temp_directory_path() / ("attnmark-fuzz-folder-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove_all(base, ec);
  fs::create_directories(base / "in", ec);
  const fs::path root = base / "in", out = root / "out";
  {
    const int fd = ::open((base / "secret.yaml").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      (void)!::write(fd, secret.data(), secret.size());
      ::close(fd);
    }
  }
  // Build the tree, remembering what a careful walker must find.
  std::set<std::string> files, refused;  // every regular file (not hidden, not in out/); links and pipes
  std::vector<fs::path> stack{root};
  auto hidden = [&](const fs::path& p) {
    for (const fs::path& part : p.lexically_relative(root)) {
      const std::string n = part.string();
      if ((!n.empty() && n[0] == '.') || n == "__MACOSX") return true;
    }
    return false;
  };
  auto in_out = [&](const fs::path& p) { return p.lexically_relative(root).string().starts_with("out/"); };
  for (std::size_t i = 0; i + 2 < size && i < 3 * 64; i += 3) {
    const std::uint8_t op = data[i], pick = data[i + 1], arg = data[i + 2];
    const fs::path here = stack.back();
    const fs::path path = here / names[pick % std::size(names)];
    switch (op % 6) {
      case 0:
        if (stack.size() < 24 && ::mkdir(path.c_str(), 0755) == 0) stack.push_back(path);
        break;
      case 1:
        if (stack.size() > 1) stack.pop_back();
        break;
      case 2: {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
        if (fd < 0) break;
        const std::string text = content(arg);
        (void)!::write(fd, text.data(), text.size());
        ::close(fd);
        if (!hidden(path) && !in_out(path)) files.insert(path.string());
        break;
      }
      case 3: {
        const std::string target = arg % 3 == 0 ? (base / "secret.yaml").string() : arg % 3 == 1 ? ".." : base.string();
        if (::symlink(target.c_str(), path.c_str()) == 0 && !hidden(path) && !in_out(path))
          refused.insert(path.string());
        break;
      }
      case 4:
        if (::mkfifo(path.c_str(), 0600) == 0 && !hidden(path) && !in_out(path)) refused.insert(path.string());
        break;
      default:
        break;
    }
  }

  attnmark::InputList list;
  try {
    list = attnmark::input_files({root.string()}, out.string());
  } catch (const attnmark::Error& e) {
    // Only when --out is a link to a folder that holds the inputs (out -> ..).
    require(fs::is_symlink(out), "input_files refuses only an input inside --out");
    require(one_printable_line(e.what()), "the error is one printable line");
    fs::remove_all(base, ec);
    return 0;
  }
  for (const attnmark::InputNotice& n : list.notices) require(one_printable_line(n.text), "a notice is one printable line");
  std::map<std::string, int> seen;
  for (const attnmark::InputFile& f : list.files) {
    ++seen[f.path];
    require(!f.sheet, "a sheet in a folder is never a class sheet");
    require(files.count(f.path) + refused.count(f.path) == 1, "only what the tree holds is an input");
    if (refused.count(f.path)) require(!f.refused.empty(), "links and pipes are refused unread");
    if (f.path.ends_with(".csv")) require(!f.refused.empty(), "a CSV in a folder is refused");
  }
  for (const std::string& f : files) require(seen[f] == 1, "every file is an input once");
  for (const std::string& f : refused) require(seen[f] == 1, "every link and pipe is an input once");

  attnmark::Inputs in = attnmark::read_inputs(list, 1);
  require(in.submissions.size() == list.files.size(), "one submission per file");
  for (std::size_t k = 0; k < in.submissions.size(); ++k) {
    const std::size_t counted = in.superseding[k];
    if (counted != attnmark::Inputs::counts)
      require(counted != k && in.students[counted] == in.students[k] && in.superseding[counted] == attnmark::Inputs::counts,
              "a superseded submission points at its student's counted one");
    require(one_printable_line(in.superseded_reason(k)), "why a submission does not count is one printable line");
    attnmark::Submission s;
    in.take(k, s);
    require(s.unreadable.find(secret) == std::string::npos && s.student.find(secret) == std::string::npos,
            "nothing outside the tree is read");
    for (const std::string& note : s.notes) require(note.find(secret) == std::string::npos, "nothing outside is quoted");
    require(one_printable_line(s.source), "a source is one printable line");
  }
  fs::remove_all(base, ec);
  return 0;
}
