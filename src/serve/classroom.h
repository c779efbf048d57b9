// serve/classroom.h: a served class in memory (its rubric, seed, roster and
// secret, as the store holds them) and what is done with its attempts:
// checking one, and choosing each student's attempt that counts.
//
//   Classroom room = Classroom::from_record(store.load_class());
//   std::optional<Checked> c = room.check("s001", answers_from_form("s001", fields, attempt_source), problem);
//   std::vector<GradedSubmission> rows = room.gradebook(store.all_attempts(), ScoreRule::best);
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/submission.h"
#include "attnmark/lesson/variant.h"
#include "readers/roster.h"
#include "readers/served_answers.h"
#include "serve/score_rule.h"
#include "serve/store.h"

namespace attnmark {

// The `source` of every attempt's feedback: attempts are judged again, for
// the teacher's reports, to the same bytes.
inline constexpr const char* attempt_source = "attnmark serve";

// One attempt checked: the student's feedback and what is stored.
struct Checked {
  GradedSubmission graded;
  std::string answers;   // the answer file (JSON) the attempt is judged from, as stored
  std::string feedback;  // exactly feedback/<student>.json of mark
};

class Classroom {
 public:
  // Reads the stored rubric and roster. Throws Error when they no longer read
  // (a rubric stored by an attnmark with other rules).
  static Classroom from_record(const ClassRecord& record);

  const Rubric& rubric() const { return rubric_; }
  std::uint64_t seed() const { return seed_; }
  const std::string& secret() const { return secret_; }
  const std::vector<RosterEntry>& roster() const { return roster_; }
  // The roster entry of `student`, or null.
  const RosterEntry* find(const std::string& student) const;
  // The student's access code.
  std::string code_of(const std::string& student) const;

  // Judges the answers a roster student sent (readers/served_answers.h: read
  // by the same reader, limits and number reader as an answer file). Returns
  // std::nullopt and sets `problem` when the answers cannot be read at all
  // ("answers: ..."). Thread-safe.
  std::optional<Checked> check(const std::string& student, SentAnswers sent, std::string& problem) const;

  // The student's variant, as generate makes it.
  Variant variant_of(const std::string& student) const;

  // A submission of roster student `student` judged, with the roster's name;
  // against `made` (variant_of(student)) when given, so it is not made again.
  // Thread-safe.
  GradedSubmission judge(const Submission& submission, const std::string& student, const Variant* made = nullptr) const;

  // An attempt as stored, judged again (the same feedback as when it was checked).
  GradedSubmission judge_stored(const AttemptRecord& attempt) const;

  // Every roster student's row of the gradebook, in roster order: the
  // attempt that counts by `rule` (counts_over), judged; a student without
  // attempts is `missing`. `attempts` in stored order.
  std::vector<GradedSubmission> gradebook(const std::vector<AttemptRecord>& attempts, ScoreRule rule) const;

 private:
  Rubric rubric_;
  std::uint64_t seed_ = 0;
  std::string secret_;
  std::vector<RosterEntry> roster_;
  std::map<std::string, std::size_t> index_;  // student → roster_ position
};

// The reports `mark` writes (marking/report_set.h), from a served class's
// attempts: gradebook.csv, summary.md, summary.html and
// feedback/<student>.json|md|html, into `out` (new, empty, or an earlier
// run's reports with `force`). Returns how many students have an attempt
// that counts.
std::size_t write_class_reports(const Classroom& room, const std::vector<AttemptRecord>& attempts, ScoreRule rule,
                                const std::string& out, bool force, const struct HtmlStyle& style);

}  // namespace attnmark
