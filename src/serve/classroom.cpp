#include "serve/classroom.h"

#include <filesystem>
#include <fmt/format.h>

#include "attnmark/base/error.h"
#include "base/file_names.h"
#include "base/files.h"
#include "base/text.h"
#include "marking/judge.h"
#include "marking/report_set.h"
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
  c.feedback += '\n';  // as in the feedback files mark writes
  return c;
}

Variant Classroom::variant_of(const std::string& student) const { return make_variant(rubric_, seed_, student); }

GradedSubmission Classroom::judge(const Submission& submission, const std::string& student, const Variant* made) const {
  GradedSubmission g = attnmark::judge(rubric_, seed_, submission, "", nullptr, made);
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
    rows.push_back(missing_submission(roster_[i]));
  }
  return rows;
}

std::size_t write_class_reports(const Classroom& room, const std::vector<AttemptRecord>& attempts, ScoreRule rule,
                                const std::string& out, bool force, const HtmlStyle& style) {
  MarkSettings settings;
  settings.out_dir = report_folder(out);
  settings.force = force;
  settings.style = style;
  const bool replace = check_out_folder(settings);
  // Each roster student's attempt that counts, judged, in roster order.
  const ClassRoster roster(room.roster());
  RosterOrder order;
  std::vector<GradedSubmission> counted;
  std::vector<StemSource> stems;
  for (GradedSubmission& g : room.gradebook(attempts, rule)) {
    if (g.status == SubmissionStatus::missing) {
      order.of_student.push_back(RosterOrder::none);
      continue;
    }
    order.of_student.push_back(counted.size());
    stems.push_back({g.student, true, {}});
    counted.push_back(std::move(g));
  }
  ReportWriter writer(room.rubric(), settings, feedback_stems(stems), replace, &roster, &order);
  writer.set_roster_note([&](const ClassMarked& so_far) {
    const std::size_t n = roster.students().size();
    return fmt::format("Roster: {} student{}, {} with an attempt, {} missing.", n, n == 1 ? "" : "s", n - so_far.missing,
                       so_far.missing);
  });
  ReportChunk chunk;
  chunk.begin(room.rubric(), settings, 0, counted.size());
  for (const GradedSubmission& g : counted) chunk.add(g, true);
  chunk.end(writer.stems());
  writer.add(chunk);
  writer.finish({}, std::vector<std::string>(counted.size()));
  return counted.size();
}

}  // namespace attnmark
