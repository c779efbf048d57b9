// attnmark autograde PLATFORM RUBRIC: one submission marked as the autograder
// of Gradescope or PrairieLearn, and the zip that sets attnmark up on
// Gradescope. docs/autograders.md is the teacher's guide.
#include "cli/autograde.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ostream>
#include <system_error>
#include <unistd.h>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "cli/options.h"
#include "marking/autograde.h"
#include "marking/class_roster.h"
#include "readers/elf_linkage.h"
#include "readers/roster.h"
#include "readers/rubric_loader.h"
#include "readers/submission_metadata.h"
#include "writers/autograder_results.h"
#include "writers/report_words.h"
#include "writers/zip_writer.h"

namespace attnmark {

namespace {

namespace fs = std::filesystem;

// The folder the platform mounts: --root, else its default; it must exist.
std::string root_of(const AutogradeOptions& options, const char* fallback) {
  const std::string root = options.root.empty() ? fallback : options.root;
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    throw Error(fmt::format("autograde {}: --root {} is not a folder", options.platform, quoted_printable(root)));
  return root;
}

// Writes root/results/results.json and says so; the table goes to standard
// output, which both platforms keep for the teacher.
int finish(const std::string& root, const std::string& json, const Autograded& a, const Rubric& rubric,
           std::ostream& out, std::ostream& err) {
  const std::string path = (fs::path(root) / "results" / "results.json").string();
  write_file(path, json);
  out << autograder_output(rubric, a.graded, a.notes);
  err << fmt::format("attnmark: wrote {}: {} / {} ({}{})\n", printable(path, 1000),
                     a.graded.marked ? score_text(a.graded.marked->score) : "0", score_text(max_score(rubric)),
                     status_name(a.graded.status), a.file.empty() ? "" : ", " + printable(a.file, 200));
  return 0;
}

std::optional<std::uint64_t> seed_of(const AutogradeOptions& options, const Rubric& rubric) {
  return options.seed ? std::optional<std::uint64_t>(parse_seed(*options.seed)) : rubric.seed;
}

// ---- gradescope-pack ----

constexpr const char* static_build_command = "cmake --preset static && cmake --build build-static --target attnmark";

// The source folder of the build this program sits in (its CMakeCache.txt's
// CMAKE_HOME_DIRECTORY), or "".
fs::path build_source_dir(const fs::path& exe) {
  try {
    const std::string cache = read_file((exe.parent_path() / "CMakeCache.txt").string(), 16 << 20);
    const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    if (const std::size_t at = cache.find(key); at != std::string::npos)
      return cache.substr(at + key.size(), cache.find('\n', at) - at - key.size());
  } catch (const Error&) {
  }
  return {};
}

// The program the zip ships, checked to be static; see docs/autograders.md.
// --binary, else this program when it is static, else build-static/attnmark
// (the static preset's) of the sources this program was built from, else of
// the current folder.
std::string static_binary(const AutogradeOptions& options, const char* command) {
  const auto linkage_of = [](const std::string& path) {
    try {
      return elf_linkage(read_file(path, max_program_bytes));
    } catch (const Error& e) {
      return ElfLinkage{e.message(), "", {}};
    }
  };
  if (!options.binary.empty()) {
    const ElfLinkage e = linkage_of(options.binary);
    if (e.is_static()) return options.binary;
    std::string why = e.problem;
    if (why.empty()) {
      std::vector<std::string> needs;
      if (!e.interpreter.empty()) needs.push_back(quoted_printable(e.interpreter));
      for (const std::string& n : e.needed) needs.push_back(quoted_printable(n));
      why = fmt::format("it is not static: it needs {}", fmt::join(needs, ", "));
    }
    throw Error(fmt::format("autograde {}: --binary {}: {}; build the static one in attnmark's folder with `{}`",
                            command, quoted_printable(options.binary), printable(why, 1000), static_build_command));
  }
  std::vector<fs::path> tried;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    tried.push_back(exe);
    if (const fs::path tree = build_source_dir(exe); !tree.empty()) tried.push_back(tree / "build-static" / "attnmark");
  }
  tried.push_back(fs::current_path() / "build-static" / "attnmark");
  for (const fs::path& path : tried)
    if (fs::is_regular_file(path, ec) && linkage_of(path.string()).is_static()) return path.string();
  throw Error(fmt::format("autograde {}: no static attnmark to ship (this one is linked to shared libraries); build "
                          "it in attnmark's folder with `{}`, or give one with --binary FILE",
                          command, static_build_command));
}

// `text` quoted for a POSIX shell.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string setup_script(const std::string& rubric_file) {
  std::string script =
R"SH(#!/usr/bin/env bash
# attnmark's autograder for Gradescope, made by `attnmark autograde gradescope-pack`.
# Gradescope runs this once, as root, when it builds the autograder's image
# (the zip is unpacked in /autograder/source). attnmark is the static
# program beside this script (no shared library, no dynamic loader), so
# nothing is installed: this only checks that it runs on this image and
# that the rubric is sound, so a broken one fails here, not per student.
# Any x86-64 base image does: Ubuntu 22.04 and 24.04 alike.
set -euo pipefail
here="${BASH_SOURCE[0]%/*}"
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
"$here/attnmark" --version
"$here/attnmark" validate "$here/"@RUBRIC@
)SH";
  script.replace(script.find("@RUBRIC@"), 8, shell_quoted(rubric_file));
  return script;
}

std::string run_script(const std::string& rubric_file, std::uint64_t seed, bool roster) {
  std::string script = R"SH(#!/usr/bin/env bash
# attnmark's autograder for Gradescope: Gradescope runs this for each
# submission. It marks the answer file in /autograder/submission/ and writes
# /autograder/results/results.json. Gradescope copies it to /autograder/, so
# the rest is in /autograder/source, unless setup.sh is beside it (a copy of
# the zip unpacked elsewhere; the root is then the first argument).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dir=/autograder/source
[ -f "$here/setup.sh" ] && source_dir="$here"
root="${1:-/autograder}"
"$source_dir/attnmark" autograde gradescope "$source_dir/"@RUBRIC@ --seed @SEED@@ROSTER@ --root "$root"
status=$?
if [ ! -f "$root/results/results.json" ]; then
  # attnmark itself failed: the student sees that, not a missing file.
  mkdir -p "$root/results"
  printf '%s\n' '{"score": 0, "output": "The autograder failed to run (attnmark exit status '"$status"'); please tell your teacher.", "visibility": "visible"}' \
    >"$root/results/results.json"
fi
exit 0
)SH";
  script.replace(script.find("@RUBRIC@"), 8, shell_quoted(rubric_file));
  script.replace(script.find("@SEED@"), 6, std::to_string(seed));
  script.replace(script.find("@ROSTER@"), 8, roster ? " --roster \"$source_dir/roster.csv\"" : "");
  return script;
}

// The roster read as `mark --roster` reads it; its notes said.
std::vector<RosterEntry> read_roster_option(const std::string& path, std::ostream& err) {
  std::vector<std::string> notes;
  std::vector<RosterEntry> students = read_roster(read_file(path, max_roster_bytes), path, {}, &notes);
  for (const std::string& note : notes) err << "attnmark: " << note << "\n";
  return students;
}

int run_pack(const AutogradeOptions& options, const std::string& rubric_path, const Rubric& rubric, std::ostream& err) {
  if (options.output.empty()) throw Error("autograde gradescope-pack: -o FILE (the zip to write) is required");
  refuse_to_replace(options.output, options.force);
  const std::optional<std::uint64_t> seed = seed_of(options, rubric);
  if (!seed)
    throw Error(fmt::format("autograde gradescope-pack: {} has no seed: and no --seed was given; give the seed the "
                            "worksheets were made with",
                            printable(rubric_path, 1000)));
  // The rubric keeps its file name: a rubric without name: is named by it.
  const std::string rubric_file = fs::path(rubric_path).filename().string();
  if (rubric_file == "setup.sh" || rubric_file == "run_autograder" || rubric_file == "attnmark" ||
      rubric_file == "roster.csv")
    throw Error(fmt::format("autograde gradescope-pack: rename the rubric; {} is a name the zip uses",
                            quoted_printable(rubric_file)));
  const std::string binary = static_binary(options, "gradescope-pack");
  std::size_t students = 0;
  if (!options.roster.empty()) students = read_roster_option(options.roster, err).size();
  ZipWriter zip;
  zip.add("setup.sh", setup_script(rubric_file), 0755);
  zip.add("run_autograder", run_script(rubric_file, *seed, !options.roster.empty()), 0755);
  zip.add(rubric_file, read_file(rubric_path, 16 << 20));
  if (!options.roster.empty()) zip.add("roster.csv", read_file(options.roster, max_roster_bytes));
  zip.add("attnmark", read_file(binary, max_program_bytes), 0755);
  write_file(options.output, zip.finish());
  err << fmt::format("attnmark: wrote {}: setup.sh, run_autograder, {}{}, attnmark (static, from {}); upload it under "
                     "Configure Autograder (base image Ubuntu 22.04 or 24.04)\n",
                     printable(options.output, 1000), printable(rubric_file, 200),
                     options.roster.empty() ? "" : fmt::format(", roster.csv ({} student{})", students, students == 1 ? "" : "s"),
                     printable(binary, 1000));
  return 0;
}

}  // namespace

void declare_autograde(CLI::App& sub, AutogradeOptions& options) {
  sub.add_option("platform", options.platform, "gradescope, prairielearn or gradescope-pack")
      ->required()
      ->type_name("PLATFORM");
  sub.add_option("rubric", options.rubrics, "Rubric file (YAML)")->required()->type_name("FILE");
  add_seed_option(sub, options.seed, "Seed (a whole number); default: the rubric's seed:");
  sub.add_option("--root", options.root, "The grader's folder (default /autograder, or /grade for PrairieLearn)")
      ->type_name("DIR");
  sub.add_option("--student", options.student, "Student id, when the submission does not say")->type_name("ID");
  add_roster_option(sub, options.roster,
                    "Class roster (CSV): Gradescope's sid, email or id is looked up in it; gradescope-pack puts it "
                    "in the zip");
  sub.add_option("--binary", options.binary,
                 "gradescope-pack: the static attnmark to ship (default: this one if static, else build-static/attnmark)")
      ->type_name("FILE");
  add_output_option(sub, options.output, "gradescope-pack: the zip to write");
  sub.add_flag("--force", options.force, "gradescope-pack: replace the zip if it exists");
}

int run_autograde(const AutogradeOptions& options, std::ostream& out, std::ostream& err) {
  const std::string& platform = options.platform;
  if (platform != "gradescope" && platform != "prairielearn" && platform != "gradescope-pack")
    throw Error(fmt::format("autograde: expected gradescope, prairielearn or gradescope-pack; got {}",
                            quoted_printable(platform)));
  if (options.rubrics.size() != 1) throw Error("autograde: expected one rubric file");
  const std::string student(trim(options.student));
  if (const std::string problem = student_id_problem(student); !problem.empty())
    throw Error(fmt::format("--student: {} {}", quoted_printable(options.student), problem));
  if (platform != "gradescope-pack" && !options.output.empty())
    throw Error(fmt::format("autograde {}: -o is for gradescope-pack; results go to ROOT/results/results.json", platform));
  const Rubric rubric = load_rubric_argument(options.rubrics[0], "autograde");
  if (platform == "gradescope-pack") return run_pack(options, options.rubrics[0], rubric, err);
  const std::optional<std::uint64_t> seed = seed_of(options, rubric);
  if (!options.binary.empty())
    throw Error(fmt::format("autograde {}: --binary is for gradescope-pack", platform));
  std::optional<ClassRoster> roster;
  if (!options.roster.empty()) roster.emplace(read_roster_option(options.roster, err));
  if (platform == "gradescope") {
    const std::string root = root_of(options, "/autograder");
    AutogradeSubmission in{(fs::path(root) / "submission").string(), {}, "Gradescope", student};
    in.roster = roster ? &*roster : nullptr;
    std::string problem;
    try {
      in.submitter = gradescope_submitter(read_file((fs::path(root) / "submission_metadata.json").string(), 16 << 20));
      problem = in.submitter.problem;
    } catch (const Error& e) {
      problem = "submission_metadata.json: " + e.message();
    }
    if (!problem.empty()) err << "attnmark: " << printable(problem, 1000) << "; the student id is taken from the file\n";
    const Autograded a = autograde(rubric, seed, in);
    return finish(root, gradescope_results(rubric, a.graded, a.notes), a, rubric, out, err);
  }
  const std::string root = root_of(options, "/grade");
  AutogradeSubmission in{(fs::path(root) / "student").string(), {}, "PrairieLearn", student};
  in.roster = roster ? &*roster : nullptr;
  const Autograded a = autograde(rubric, seed, in);
  return finish(root, prairielearn_results(rubric, a.graded, a.notes), a, rubric, out, err);
}

}  // namespace attnmark
