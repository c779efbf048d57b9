#include "serve/classroom.h"

#include <filesystem>
#include <fmt/format.h>

#include "base/error.h"
#include "base/file_names.h"
#include "base/files.h"
#include "base/text.h"
#include "marking/judge.h"
#include "marking/summary.h"
#include "readers/answer_reader.h"
#include "readers/rubric_loader.h"
#include "serve/codes.h"
#include "writers/feedback.h"
#include "writers/gradebook.h"
#include "writers/theme.h"

namespace attnmark {

Classroom Classroom::from_record(const ClassRecord& record) {
  Classroom room;
  room.rubric_ = load_rubric(record.rubric_text, record.rubric_file);
  room.seed_ = record.seed;
  room.secret_ = record.secret;
  room.roster_ = read_roster(record.roster_text, record.roster_file);
  for (std::size_t i = 0; i < room.roster_.size(); ++i) room.index_[room.roster_[i].student] = i;
  return room;
}

const RosterEntry* Classroom::find(const std::string& student) const {
  const auto it = index_.find(student);
  return it == index_.end() ? nullptr : &roster_[it->second];
}

std::string Classroom::code_of(const std::string& student) const { return access_code(secret_, student); }

std::optional<Checked> Classroom::check(const std::string& student, SentAnswers sent, std::string& problem) const {
  if (!sent.submission.unreadable.empty()) {
    problem = "answers: " + sent.submission.unreadable;
    return std::nullopt;
  }
  Checked c;
  c.graded = judge(sent.submission, student);
  c.answers = std::move(sent.file);
  append_feedback_json(c.feedback, c.graded);
  return c;
}

GradedSubmission Classroom::judge(const Submission& submission, const std::string& student) const {
  GradedSubmission g = attnmark::judge(rubric_, seed_, submission, "");
  if (const RosterEntry* entry = find(student)) g.name = entry->name;
  return g;
}

GradedSubmission Classroom::judge_stored(const AttemptRecord& attempt) const {
  const ReadLimits limits;
  return judge(read_answer_file(attempt.answers, attempt_source, limits), attempt.student);
}

std::vector<GradedSubmission> Classroom::gradebook(const std::vector<AttemptRecord>& attempts, ScoreRule rule) const {
  std::vector<const AttemptRecord*> counts(roster_.size(), nullptr);
  for (const AttemptRecord& a : attempts) {
    const auto it = index_.find(a.student);
    if (it == index_.end()) continue;
    const AttemptRecord*& chosen = counts[it->second];
    if (!chosen || counts_over(a, *chosen, rule)) chosen = &a;
  }
  std::vector<GradedSubmission> rows;
  rows.reserve(roster_.size());
  for (std::size_t i = 0; i < roster_.size(); ++i) {
    if (counts[i]) {
      rows.push_back(judge_stored(*counts[i]));
      continue;
    }
    GradedSubmission missing;
    missing.student = roster_[i].student;
    missing.name = roster_[i].name;
    missing.status = SubmissionStatus::missing;
    missing.reason = "no attempt";
    rows.push_back(std::move(missing));
  }
  return rows;
}

std::size_t write_class_reports(const Classroom& room, const std::vector<AttemptRecord>& attempts, ScoreRule rule,
                                const std::string& out, bool force, bool reveal, const HtmlStyle& style) {
  const Rubric& rubric = room.rubric();
  std::filesystem::path target = std::filesystem::absolute(out);
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(target, ec)) && !force)
    throw Error(out, 0, 0, "already exists; pass --force to replace an earlier run's reports");
  std::filesystem::create_directories(target.parent_path(), ec);
  NewFolder folder(target.string());
  folder.make_folder("feedback");
  std::string gradebook = gradebook_header(rubric);
  ClassSummary summary(rubric);
  FileStems stems({"gradebook", "summary"});
  std::size_t counted = 0;
  for (GradedSubmission& g : room.gradebook(attempts, rule)) {
    append_gradebook_row(gradebook, rubric, g);
    if (g.status != SubmissionStatus::missing) {
      ++counted;
      g.file_stem = stems.take(g.student);
      std::string json;
      append_feedback_json(json, g);
      folder.write("feedback/" + g.file_stem + ".json", json);
      folder.write("feedback/" + g.file_stem + ".md", feedback_markdown(rubric, g, reveal));
      folder.write("feedback/" + g.file_stem + ".html", feedback_html(rubric, g, reveal, style));
    }
    summary.add(g);
  }
  const std::size_t n = room.roster().size();
  summary.set_roster_note(fmt::format("Roster: {} student{}, {} with an attempt, {} missing.", n, n == 1 ? "" : "s",
                                      counted, n - counted));
  folder.write("gradebook.csv", gradebook);
  folder.write("summary.md", summary_markdown(rubric, summary));
  folder.write("summary.html", summary_html(rubric, summary, style));
  folder.commit(force);
  return counted;
}

}  // namespace attnmark
