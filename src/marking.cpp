#include "marking.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <ostream>

#include "answer_reader.h"
#include "attnmark/error.h"
#include "attnmark/grader.h"
#include "attnmark/variant.h"
#include "file_io.h"

namespace attnmark {
namespace fs = std::filesystem;
namespace {

bool is_sheet(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".csv";
}

// Every regular file under a folder, in a stable order.
std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) out.push_back(it->path().string());
  std::sort(out.begin(), out.end());
  return out;
}

Submission unreadable(const std::string& source, const std::string& reason) {
  Submission s;
  s.source = source;
  s.unreadable = reason;
  return s;
}

// Reads every input into submissions, in input order.
std::vector<Submission> read_inputs(const std::vector<std::string>& inputs, std::ostream& err) {
  std::vector<Submission> out;
  const ReadLimits limits;
  auto read_one = [&](const std::string& path) {
    std::string text;
    try {
      text = read_file(path, is_sheet(path) ? std::size_t{256} << 20 : limits.max_file_bytes);
    } catch (const Error& e) {
      out.push_back(unreadable(path, e.message()));
      return;
    }
    if (!is_sheet(path)) {
      out.push_back(read_answer_file(text, path, limits));
      return;
    }
    try {
      const SheetInfo info = read_sheet(text, path, limits, [&](Submission&& s) { out.push_back(std::move(s)); });
      for (const std::string& column : info.unknown_columns)
        err << fmt::format("attnmark: {}: column '{}' is not a cell of any question; it was not marked\n", path, column);
    } catch (const Error& e) {
      out.push_back(unreadable(path, e.what()));
    }
  };
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      const std::vector<std::string> files = files_in(input);
      if (files.empty()) err << fmt::format("attnmark: {}: folder has no files\n", input);
      for (const std::string& f : files) read_one(f);
    } else {
      read_one(input);
    }
  }
  return out;
}

}  // namespace

std::string safe_file_stem(const std::string& id, std::vector<std::string>& taken) {
  std::string stem;
  for (unsigned char c : id) stem += std::isalnum(c) || c == '-' || c == '_' || c == '.' ? static_cast<char>(c) : '_';
  while (!stem.empty() && stem[0] == '.') stem[0] = '_';
  if (stem.size() > 64) stem.resize(64);
  if (stem.empty()) stem = "submission";
  std::string name = stem;
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  // Case-insensitive, so two names never collide on a case-insensitive disk.
  for (int n = 2; std::find(taken.begin(), taken.end(), lower(name)) != taken.end(); ++n)
    name = stem + "-" + std::to_string(n);
  taken.push_back(lower(name));
  return name;
}

std::vector<GradedSubmission> mark_inputs(const Rubric& rubric, const SeedChoice& seed,
                                          const std::vector<std::string>& inputs, std::ostream& err) {
  std::vector<Submission> submissions = read_inputs(inputs, err);
  // The last submission of a student counts (a resubmission replaces the first).
  std::map<std::string, std::size_t> last;
  for (std::size_t i = 0; i < submissions.size(); ++i)
    if (submissions[i].unreadable.empty() && !submissions[i].student.empty()) last[submissions[i].student] = i;

  std::vector<GradedSubmission> rows;
  std::vector<std::string> taken;
  for (std::size_t i = 0; i < submissions.size(); ++i) {
    const Submission& s = submissions[i];
    GradedSubmission g;
    g.source = s.source;
    g.student = s.student;
    g.variant = s.variant;
    g.file_stem = safe_file_stem(s.student.empty() ? fs::path(s.source).filename().string() : s.student, taken);
    rows.push_back(g);
    GradedSubmission& row = rows.back();
    if (!s.unreadable.empty()) {
      row.status = "unreadable";
      row.reason = s.unreadable;
      continue;
    }
    if (!s.student.empty() && last[s.student] != i) {
      row.status = "duplicate";
      row.reason = fmt::format("superseded by the later submission {}", submissions[last[s.student]].source);
      continue;
    }
    if (!s.rubric.empty() && s.rubric != rubric.name) {
      row.status = "wrong-rubric";
      row.reason = fmt::format("answers are for rubric '{}', not '{}'", s.rubric, rubric.name);
      continue;
    }
    const std::optional<std::uint64_t> marking_seed = seed.given ? seed.given : s.seed;
    if (!marking_seed) {
      row.status = "wrong-variant";
      row.reason = "no seed: the file records none and none was given (--seed)";
      continue;
    }
    const std::optional<std::uint64_t> recorded = parse_variant_id(s.variant);
    std::vector<std::string> why;
    Variant variant;
    if (s.student.empty()) {
      if (!recorded) {
        row.status = "unknown-student";
        row.reason = "no student id and no variant in the submission";
        continue;
      }
      row.status = "unknown-student";
      why.push_back("no student id; marked against the variant recorded in the file");
      variant = make_variant_with_id(rubric, *marking_seed, *recorded, s.student);
    } else {
      variant = make_variant(rubric, *marking_seed, s.student);
      row.variant = variant.id_text();
      if (recorded && *recorded != variant.id) {
        row.status = "wrong-variant";
        why.push_back(fmt::format("the file is for variant {}, but {}'s variant (seed {}) is {}; marked against {}'s own",
                                  s.variant, s.student, *marking_seed, variant.id_text(), s.student));
      }
    }
    if (seed.given && s.seed && *s.seed != *seed.given)
      why.push_back(fmt::format("the file records seed {}; marked with seed {}", *s.seed, *seed.given));
    for (const std::string& n : s.notes) why.push_back(n);
    row.marked = grade(variant, s);
    for (const std::string& n : row.marked->notes) why.push_back(n);
    if (row.status.empty()) row.status = row.marked->answered == 0 ? "unanswered" : "graded";
    if (row.status == "unanswered") why.insert(why.begin(), "no answers given");
    row.reason = fmt::format("{}", fmt::join(why, "; "));
  }
  return rows;
}

void write_reports(const Rubric& rubric, const std::vector<GradedSubmission>& rows, const std::string& dir,
                   bool force) {
  const fs::path root(dir);
  std::error_code ec;
  for (const char* name : {"gradebook.csv", "summary.md", "feedback"})
    if (fs::exists(root / name, ec) && !force)
      throw Error(dir, 0, 0,
                  fmt::format("already holds '{}' from an earlier run; pass --force to replace it, or choose another --out",
                              name));
  if (force) fs::remove_all(root / "feedback", ec);
  for (const GradedSubmission& g : rows) {
    write_file((root / "feedback" / (g.file_stem + ".json")).string(), feedback_json(g));
    write_file((root / "feedback" / (g.file_stem + ".md")).string(), feedback_markdown(rubric, g, rubric.reveal_in_feedback));
  }
  ClassSummary summary(rubric);
  for (const GradedSubmission& g : rows) summary.add(g);
  write_file((root / "summary.md").string(), summary_markdown(rubric, summary));
  // The gradebook last: its presence means the run finished.
  write_file((root / "gradebook.csv").string(), gradebook_csv(rubric, rows));
}

}  // namespace attnmark
