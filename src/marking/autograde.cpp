#include "marking/autograde.h"

#include "marking/inputs.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <system_error>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "attnmark/lesson/variant.h"
#include "marking/judge.h"
#include "readers/answer_reader.h"

namespace attnmark {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t max_listed = 10;  // file names a message lists, then a count

bool is_hidden(const fs::path& place) {
  for (const fs::path& part : place) {
    const std::string name = part.string();
    if ((!name.empty() && name[0] == '.' && name != "." && name != "..") || name == "__MACOSX") return true;
  }
  return false;
}

bool answer_extension(const std::string& place) {
  const std::string ext = lower(fs::path(place).extension().string());
  return ext == ".yaml" || ext == ".yml" || ext == ".json" || ext == ".ipynb";
}

// "a.yaml, b.pdf", at most max_listed names, then "and N more".
std::string listed(const std::vector<std::string>& places) {
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < places.size() && i < max_listed; ++i) shown.push_back(quoted_printable(places[i]));
  if (places.size() > max_listed) shown.push_back(fmt::format("and {} more", places.size() - max_listed));
  return fmt::format("{}", fmt::join(shown, ", "));
}

Submission unreadable(const std::string& source, std::string why) {
  Submission s;
  s.source = source;
  s.unreadable = std::move(why);
  return s;
}

Submission read_one(const std::string& folder, const std::string& place) {
  const ReadLimits limits;
  const std::string shown = printable(place, 200);
  try {
    return read_submission_file(read_file((fs::path(folder) / place).string(), limits.max_file_bytes, false), place, shown,
                                limits);
  } catch (const Error& e) {
    return unreadable(shown, e.message());
  }
}

bool has_answers(const Submission& s) {
  for (const auto& [question, parts] : s.answers)
    for (const auto& [part, answer] : parts)
      for (const auto& row : answer.rows)
        for (const std::string& cell : row)
          if (!is_blank(cell)) return true;
  return false;
}

// The submission read from the folder's answer file (see autograde()).
Submission choose(const Rubric& rubric, const std::string& folder, Autograded& a) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return unreadable("", "no file was handed in; submit your answer file (.yaml, .json or .ipynb)");
  FolderContents contents;
  try {
    contents = walk_folder(folder, {});
  } catch (const Error& e) {
    return unreadable("", "the submission could not be read: " + e.message());
  }
  std::vector<std::string> files;
  for (const std::string& path : contents.files) {
    const fs::path place = fs::path(path).lexically_relative(folder);
    if (!is_hidden(place)) files.push_back(place.string());
  }
  std::sort(files.begin(), files.end());
  const auto others = [&](const std::string& chosen) {
    std::vector<std::string> rest;
    for (const std::string& f : files)
      if (f != chosen) rest.push_back(f);
    return rest;
  };
  if (files.empty()) return unreadable("", "no file was handed in; submit your answer file (.yaml, .json or .ipynb)");
  if (files.size() == 1) {
    a.file = files[0];
    return read_one(folder, files[0]);
  }
  std::vector<std::string> candidates;
  for (const std::string& f : files)
    if (answer_extension(f)) candidates.push_back(f);
  if (candidates.empty())
    return unreadable("", fmt::format("none of the {} files handed in is an answer file (.yaml, .yml, .json or .ipynb): {}",
                                      files.size(), listed(files)));
  if (candidates.size() == 1) {
    a.file = candidates[0];
    a.notes.push_back(fmt::format("Marked {}, the one answer file handed in; not marked: {}.",
                                  quoted_printable(a.file), listed(others(a.file))));
    return read_one(folder, a.file);
  }
  // Several: the one that reads as answers for this rubric, if only one does.
  std::vector<std::string> fitting;
  std::optional<Submission> chosen;
  for (const std::string& f : candidates) {
    if (fitting.size() > 1 || &f - candidates.data() >= 100) break;
    Submission s = read_one(folder, f);
    if (s.unreadable.empty() && (s.rubric.empty() || s.rubric == rubric.name) && has_answers(s)) {
      fitting.push_back(f);
      chosen = std::move(s);
    }
  }
  if (fitting.size() == 1) {
    a.file = fitting[0];
    a.notes.push_back(fmt::format("Marked {}, the one file handed in that holds answers for {}; not marked: {}.",
                                  quoted_printable(a.file), quoted_printable(rubric.name), listed(others(a.file))));
    return std::move(*chosen);
  }
  return unreadable("", fmt::format("{} answer files were handed in ({}); {}; submit only your one answer file",
                                    candidates.size(), listed(candidates),
                                    fitting.empty() ? fmt::format("none of them holds answers for {}",
                                                                  quoted_printable(rubric.name))
                                                    : "more than one of them holds answers"));
}

// The id the platform's metadata gives, looked up in the roster (see
// autograde()): the roster id, or "" with `notes` saying what was not found.
std::string roster_student(const ClassRoster& roster, const AutogradeSubmission& in, std::vector<std::string>& notes) {
  const SubmitterId& who = in.submitter;
  for (const auto& [label, value] : {std::pair<const char*, const std::string&>{"Student ID", who.sid},
                                     std::pair<const char*, const std::string&>{"email", who.email}}) {
    if (value.empty()) continue;
    if (const std::size_t at = roster.identify(value); at != ClassRoster::npos) return roster.students()[at].student;
    notes.push_back(fmt::format("{}'s {} {} {} the class roster.", in.platform, label, quoted_printable(value),
                                roster.ambiguous(value) ? "is held by several students of" : "is not on"));
  }
  if (!who.user_id.empty()) {
    std::vector<std::size_t> holders;
    bool column = false;
    for (std::size_t i = 0; i < roster.students().size(); ++i) {
      const auto& fields = roster.students()[i].fields;
      const auto it = fields.find(gradescope_id_column);
      if (it == fields.end()) continue;
      column = true;
      if (trim(it->second) == who.user_id) holders.push_back(i);
    }
    if (holders.size() == 1) return roster.students()[holders[0]].student;
    if (column)
      notes.push_back(fmt::format("{}'s user id {} {} the class roster.", in.platform, quoted_printable(who.user_id),
                                  holders.empty() ? "is not on" : "is held by several students of"));
  }
  return "";
}

}  // namespace

Autograded autograde(const Rubric& rubric, std::optional<std::uint64_t> seed, const AutogradeSubmission& in) {
  Autograded a;
  Submission s = choose(rubric, in.folder, a);
  std::string platform = in.submitter.id;
  if (in.roster) {
    std::vector<std::string> missed;
    if (std::string found = roster_student(*in.roster, in, missed); !found.empty()) {
      platform = std::move(found);
    } else if (s.unreadable.empty() && !s.student.empty()) {
      if (const std::size_t at = in.roster->identify(s.student); at != ClassRoster::npos) {
        // Nothing of the platform's is on the roster: the file's student is.
        const std::string& id = in.roster->students()[at].student;
        const SubmitterId& who = in.submitter;
        if (!who.sid.empty() || !who.email.empty() || !who.user_id.empty())
          missed.push_back(fmt::format("Marked as {}, the student your file names.", quoted_printable(id)));
        s.student = id;
        platform.clear();
      } else {
        missed.push_back(fmt::format("Your file's student {} is not on the class roster either.",
                                     quoted_printable(s.student)));
      }
    }
    a.notes.insert(a.notes.end(), missed.begin(), missed.end());
  } else if (in.submitter.from == "email" && s.unreadable.empty() && !s.student.empty() &&
             (s.student.find('@') == std::string::npos || lower(s.student) == lower(in.submitter.email))) {
    // An email says nothing against an id that is not one: the file's stands.
    platform.clear();
  }
  if (s.unreadable.empty()) {
    if (!platform.empty() && s.student != platform) {
      const std::optional<std::uint64_t> marking_seed = seed ? seed : s.seed;
      const std::optional<std::uint64_t> recorded = parse_variant_id(s.variant);
      const bool same_in_case = !s.student.empty() && lower(s.student) == lower(platform);
      if (same_in_case && marking_seed && recorded && *recorded == variant_id(*marking_seed, s.student)) {
        a.notes.push_back(fmt::format("Your file says student {}, which {} writes {}; marked as {}, the id your "
                                      "worksheet was made for.",
                                      quoted_printable(s.student), in.platform, quoted_printable(platform),
                                      quoted_printable(s.student)));
      } else {
        if (!s.student.empty())
          a.notes.push_back(fmt::format("Your file says student {}, but {} says {} handed it in; marked as {}.",
                                        quoted_printable(s.student), in.platform, quoted_printable(platform),
                                        quoted_printable(platform)));
        s.student = platform;
      }
    } else if (s.student.empty() && !in.fallback_student.empty()) {
      s.student = in.fallback_student;
    }
  }
  if (s.student.empty()) s.student = !platform.empty() ? platform : in.fallback_student;
  try {
    a.graded = judge(rubric, seed, s, "");
  } catch (const Error& e) {
    a.graded = GradedSubmission{};
    a.graded.source = s.source;
    a.graded.student = s.student;
    a.graded.status = SubmissionStatus::unreadable;
    a.graded.reason = "cannot make the variant this file is for: " + e.message();
  }
  return a;
}

}  // namespace attnmark
