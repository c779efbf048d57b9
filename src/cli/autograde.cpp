// attnmark autograde PLATFORM RUBRIC: one submission marked as the autograder
// of Gradescope or PrairieLearn, and the zip that sets attnmark up on
// Gradescope. docs/autograders.md is the teacher's guide.
#include "cli/autograde.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <system_error>
#include <unistd.h>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "cli/options.h"
#include "marking/autograde.h"
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

// attnmark's own sources, to put in the zip: ATTNMARK_SOURCE_DIR, else the
// current folder, else the source folder of the build the program sits in.
fs::path source_tree() {
  const auto is_tree = [](const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_regular_file(dir / "src" / "cli" / "main.cpp", ec) || !fs::is_regular_file(dir / "CMakeLists.txt", ec))
      return false;
    try {
      return read_file((dir / "CMakeLists.txt").string(), 1 << 20).find("project(attnmark ") != std::string::npos;
    } catch (const Error&) {
      return false;
    }
  };
  std::vector<fs::path> tried;
  if (const char* env = std::getenv("ATTNMARK_SOURCE_DIR"); env && *env) tried.emplace_back(env);
  tried.push_back(fs::current_path());
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    try {
      const std::string cache = read_file((exe.parent_path() / "CMakeCache.txt").string(), 16 << 20);
      const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
      if (const std::size_t at = cache.find(key); at != std::string::npos)
        tried.emplace_back(cache.substr(at + key.size(), cache.find('\n', at) - at - key.size()));
    } catch (const Error&) {
    }
  }
  for (const fs::path& dir : tried)
    if (is_tree(dir)) return dir;
  throw Error("autograde gradescope-pack: cannot find attnmark's sources to put in the zip; run it from attnmark's "
              "folder, or set ATTNMARK_SOURCE_DIR to it");
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
# (the zip is unpacked in /autograder/source). It installs the packages
# attnmark builds with, when missing, and builds attnmark from the sources in
# attnmark/. Needs a base image with CMake 3.25 and nlohmann-json 3.11 or
# later: Ubuntu 24.04 (or Debian 12).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# 1. Packages: only those not installed yet, so a machine that has them all
#    never touches apt.
packages=(g++ cmake make pkg-config libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev libcpp-httplib-dev libsqlite3-dev libssl-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "attnmark setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
version="$(cmake --version | sed -n 's/^cmake version \([0-9][0-9.]*\).*/\1/p')"
if ! printf '3.25\n%s\n' "$version" | sort -V -C; then
  echo "attnmark setup: CMake $version is too old (attnmark needs 3.25, and nlohmann-json 3.11);" \
       "choose the Ubuntu 24.04 base image under Configure Autograder" >&2
  exit 1
fi

# 2. Build attnmark (the program only, no tests) into attnmark/build, then
#    check the rubric with it so a broken one fails here, not per student.
#    It marks one student a run, so glibc's malloc does (no mimalloc to install).
cmake -S "$here/attnmark" -B "$here/attnmark/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DATTNMARK_MIMALLOC=OFF >&2
cmake --build "$here/attnmark/build" --target attnmark -j "$(nproc)" >&2
"$here/attnmark/build/attnmark" validate "$here/"@RUBRIC@
)SH";
  script.replace(script.find("@RUBRIC@"), 8, shell_quoted(rubric_file));
  return script;
}

std::string run_script(const std::string& rubric_file, std::uint64_t seed) {
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
"$source_dir/attnmark/build/attnmark" autograde gradescope "$source_dir/"@RUBRIC@ --seed @SEED@ --root "$root"
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
  return script;
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
  if (rubric_file == "setup.sh" || rubric_file == "run_autograder" || rubric_file == "attnmark")
    throw Error(fmt::format("autograde gradescope-pack: rename the rubric; {} is a name the zip uses",
                            quoted_printable(rubric_file)));
  const fs::path tree = source_tree();
  ZipWriter zip;
  zip.add("setup.sh", setup_script(rubric_file), 0755);
  zip.add("run_autograder", run_script(rubric_file, *seed), 0755);
  zip.add(rubric_file, read_file(rubric_path, 16 << 20));
  zip.add("attnmark/CMakeLists.txt", read_file((tree / "CMakeLists.txt").string(), 16 << 20));
  std::size_t files = 0;
  for (const char* folder : {"include", "src"})
    for (const std::string& path : walk_folder((tree / folder).string(), {}).files) {
      const fs::path place = fs::path(path).lexically_relative(tree);
      bool hidden = false;
      for (const fs::path& part : place) hidden = hidden || part.string().starts_with(".");
      if (hidden) continue;
      zip.add("attnmark/" + place.generic_string(), read_file(path, 16 << 20));
      ++files;
    }
  write_file(options.output, zip.finish());
  err << fmt::format("attnmark: wrote {}: setup.sh, run_autograder, {} and attnmark's sources ({} files); upload it "
                     "under Configure Autograder (base image Ubuntu 24.04)\n",
                     printable(options.output, 1000), printable(rubric_file, 200), files + 1);
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
  if (platform == "gradescope") {
    const std::string root = root_of(options, "/autograder");
    AutogradeSubmission in{(fs::path(root) / "submission").string(), "", "Gradescope", student};
    std::string problem;
    try {
      const SubmitterId who =
          gradescope_submitter(read_file((fs::path(root) / "submission_metadata.json").string(), 16 << 20));
      in.platform_student = who.id;
      problem = who.problem;
    } catch (const Error& e) {
      problem = "submission_metadata.json: " + e.message();
    }
    if (!problem.empty()) err << "attnmark: " << printable(problem, 1000) << "; the student id is taken from the file\n";
    const Autograded a = autograde(rubric, seed, in);
    return finish(root, gradescope_results(rubric, a.graded, a.notes), a, rubric, out, err);
  }
  const std::string root = root_of(options, "/grade");
  const Autograded a = autograde(rubric, seed, {(fs::path(root) / "student").string(), "", "PrairieLearn", student});
  return finish(root, prairielearn_results(rubric, a.graded, a.notes), a, rubric, out, err);
}

}  // namespace attnmark
