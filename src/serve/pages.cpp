#include "serve/pages.h"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>
#include <set>
#include <utility>

#include "attnmark/lesson/variant.h"
#include "readers/served_answers.h"
#include "serve/http.h"
#include "serve/score_rule.h"

namespace attnmark {

std::string utc_date_time(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string class_rules_text(const ClassRules& rules, bool reveals) {
  std::string out = rules.attempts ? fmt::format("{} stored check{} per student", *rules.attempts,
                                                 *rules.attempts == 1 ? "" : "s")
                                   : "any number of checks";
  out += rules.attempts ? "; a check with every box blank or unreadable, or the same as the last, is answered, not stored, "
                          "and uses no attempt"
                        : "; a check with every box blank or unreadable, or the same as the last, is answered, not stored";
  if (rules.close_at) out += fmt::format("; closes {} (later checks are answered, not stored)", utc_date_time(*rules.close_at));
  out += rules.score == ScoreRule::best ? "; the gradebook counts each student's best attempt"
                                        : "; the gradebook counts each student's last attempt";
  out += !reveals ? "; right answers never shown"
         : rules.reveal_after ? fmt::format("; right answers shown from {}", utc_date_time(*rules.reveal_after))
                              : "; right answers shown with each check";
  return out + "; " + limits_rules_text(rules.limits);
}

std::string nothing_new_notice(const std::string& why, bool counts_attempts) {
  return fmt::format("Checked, not kept: {}{}.", why, counts_attempts ? "; this check used no attempt" : "");
}

namespace {
// "40 seconds", "14 minutes" (rounded up): how long until a limit lets go.
std::string wait_text(std::int64_t seconds) {
  if (seconds < 60) return fmt::format("{} second{}", seconds, seconds == 1 ? "" : "s");
  const std::int64_t minutes = (seconds + 59) / 60;
  return fmt::format("{} minute{}", minutes, minutes == 1 ? "" : "s");
}
}  // namespace

TeacherLimits teacher_limits(CheckRate& checks, SignInLimits& sign_ins, const std::vector<StorageUse>& at_cap,
                             std::int64_t database_bytes, const ClassRules& rules, bool reveals, std::int64_t now_ms,
                             std::string csrf, std::string cleared) {
  const ClassLimits& caps = rules.limits;
  TeacherLimits l;
  l.csrf = std::move(csrf);
  l.rules = class_rules_text(rules, reveals);
  l.database = byte_size_text(database_bytes) + " of " + byte_size_text(caps.database_max);
  l.database_full = database_bytes >= caps.database_max;
  l.cleared = std::move(cleared);
  for (const auto& [student, seconds] : checks.limited(now_ms))
    l.rows.push_back({"checks", student, student,
                      fmt::format("{} checks in the last minute, as many as allowed; free in {}",
                                  checks.per_minute(), wait_text(seconds))});
  for (const StorageUse& u : at_cap)
    l.rows.push_back({"storage", u.student, u.student,
                      fmt::format("{} of attempts stored ({} allowed); later checks are answered, not kept",
                                  byte_size_text(u.bytes), byte_size_text(caps.storage_per_student))});
  for (const Slowed& s : sign_ins.slowed(now_ms))
    l.rows.push_back({s.kind, s.key, s.kind == "address" ? "from " + s.key : "as " + s.key,
                      fmt::format("{} failed sign-ins in 15 minutes; {}; free in {}", s.failures,
                                  s.queued ? "its sign-ins wait their turn, one a second" : "wrong codes answered slowly",
                                  wait_text(s.seconds_left))});
  return l;
}

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
  StudentPage page = student_page(room, rules, session, attempts, std::move(stored.fields), std::move(graded),
                                  std::move(notice), std::move(variant));
  for (std::size_t i = 0; i < attempts.size(); ++i)
    if (attempts[i].id == shown.id) page.summary_title = fmt::format("Attempt {}", i + 1);
  return page;
}

TeacherPage teacher_page(const Classroom& room, const std::vector<AttemptRecord>& attempts, bool closed, ScoreRule rule,
                         const HtmlStyle& style, bool paused, LiveCache* cache) {
  std::set<std::string> per_student;
  for (const AttemptRecord& a : attempts) per_student.insert(a.student);
  TeacherPage p;
  p.title = display_title(room.rubric());
  p.style = style;
  p.attempts = attempts.size();
  p.students_with_attempts = per_student.size();
  p.roster = room.roster().size();
  p.closed = closed;
  p.counts_best = rule == ScoreRule::best;
  p.live = live_view(room, attempts, rule, paused, cache);
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
