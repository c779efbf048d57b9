#include "serve/pages.h"

#include <algorithm>
#include <utility>

#include "attnmark/lesson/variant.h"
#include "readers/served_answers.h"
#include "serve/http.h"
#include "serve/score_rule.h"

namespace attnmark {

StudentPage student_page(const Classroom& room, const RulesNow& rules, const Session& session,
                         const std::vector<AttemptRecord>& attempts, std::map<std::string, std::string> values,
                         std::optional<GradedSubmission> shown, std::string notice, std::optional<Variant> variant) {
  StudentPage p;
  p.rubric = &room.rubric();
  p.variant = variant ? std::move(*variant) : room.variant_of(session.student);
  p.student = session.student;
  if (const RosterEntry* entry = room.find(session.student)) p.name = entry->name;
  p.csrf = session.csrf;
  p.style = session.style;
  p.values = std::move(values);
  p.shown = std::move(shown);
  p.reveal = rules.reveal;
  p.notice = std::move(notice);
  p.closed = rules.closed;
  if (rules.attempts)
    p.attempts_left = std::max<std::int64_t>(0, *rules.attempts - static_cast<std::int64_t>(attempts.size()));
  p.attempts.reserve(attempts.size());
  for (const AttemptRecord& a : attempts) p.attempts.push_back({a.id, a.at, a.score, a.max_score});
  return p;
}

StudentPage attempt_page(const Classroom& room, const RulesNow& rules, const Session& session,
                         const std::vector<AttemptRecord>& attempts, const AttemptRecord& shown, std::string notice) {
  StoredAnswers stored = read_stored_answers(shown.answers, attempt_source);
  Variant variant = room.variant_of(session.student);
  GradedSubmission graded = room.judge(stored.submission, shown.student, &variant);
  return student_page(room, rules, session, attempts, std::move(stored.fields), std::move(graded), std::move(notice),
                      std::move(variant));
}

TeacherPage teacher_page(const Classroom& room, const std::vector<AttemptRecord>& attempts, bool closed, ScoreRule rule,
                         const HtmlStyle& style) {
  struct Tally {
    std::size_t attempts = 0;
    const AttemptRecord* best = nullptr;
  };
  std::map<std::string, Tally> per_student;
  for (const AttemptRecord& a : attempts) {
    Tally& t = per_student[a.student];
    if (!t.best || counts_over(a, *t.best, ScoreRule::best)) t.best = &a;
    ++t.attempts;
  }
  TeacherPage p;
  p.title = display_title(room.rubric());
  p.style = style;
  p.attempts = attempts.size();
  p.students_with_attempts = per_student.size();
  p.roster = room.roster().size();
  p.closed = closed;
  p.counts_best = rule == ScoreRule::best;
  for (const RosterEntry& e : room.roster()) {
    TeacherRow row{e.student, e.name, encode_query_value(e.student), 0, std::nullopt};
    if (const auto it = per_student.find(e.student); it != per_student.end()) {
      row.attempts = it->second.attempts;
      row.best = it->second.best->score;
    }
    p.rows.push_back(std::move(row));
  }
  return p;
}

TeacherStudentPage teacher_student_page(const Classroom& room, const std::string& student,
                                        const std::vector<AttemptRecord>& attempts, const HtmlStyle& style) {
  TeacherStudentPage p;
  p.rubric = &room.rubric();
  p.student = student;
  p.style = style;
  for (const AttemptRecord& a : attempts) p.attempts.push_back({a.at, a.score, a.max_score, room.judge_stored(a)});
  return p;
}

}  // namespace attnmark
