// serve/pages.h: what each page of attnmark serve shows, filled in from the
// class, the rules at the time of the request and what one read of the store
// gave (writers/served_pages lays the pages out). Nothing here reads the
// store: each page is made of the records it is handed.
//
//   std::vector<AttemptRecord> attempts = store.attempts_of(s.student);   // the page's one read
//   StudentPage page = attempts.empty() ? student_page(room, rules, s, attempts, {}, std::nullopt, "")
//                                       : attempt_page(room, rules, s, attempts, attempts.back(), "");
//   std::string html = student_page_html(page);
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "serve/classroom.h"
#include "serve/limits.h"
#include "serve/live_view.h"
#include "serve/score_rule.h"
#include "serve/sessions.h"
#include "serve/store.h"
#include "writers/served_pages.h"

namespace attnmark {

// The class's rules as they stand at a request.
struct RulesNow {
  bool closed = false;                   // past --close
  bool reveal = false;                   // right answers may be shown now
  std::optional<std::int64_t> attempts;  // --attempts
};

// Unix seconds as the pages and the rules line write them, UTC: "2026-12-24T17:00:00Z".
std::string utc_date_time(std::int64_t seconds);

// The rules of one start (attnmark serve's options; they are not kept in the database).
struct ClassRules {
  std::optional<std::int64_t> attempts;      // --attempts
  std::optional<std::int64_t> close_at;      // --close, Unix seconds
  std::optional<std::int64_t> reveal_after;  // --reveal-after, Unix seconds
  ScoreRule score = ScoreRule::best;         // --score
  ClassLimits limits;                        // --checks-per-minute, --storage-per-student, --db-max
};

// The class's rules as the start's rules: line and the teacher's page say
// them. `reveals`: the rubric says reveal_answers: true.
//   class_rules_text(ClassRules{}, false) ==
//       "any number of checks; a check with every box blank or unreadable, or the same as the last, is answered, "
//       "not stored; the gradebook counts each student's best attempt; right answers never shown; "
//       "at most 30 checks a minute per student; up to 2 MiB of attempts stored per student and 1 GiB in all "
//       "(later checks are answered, not stored)"
std::string class_rules_text(const ClassRules& rules, bool reveals);

// What the student page says of a check answered but not stored because it
// changes nothing; `why`: "every box is blank or unreadable".
//   nothing_new_notice("the same answers as your last check", true) ==
//       "Checked, not kept: the same answers as your last check; this check used no attempt."
std::string nothing_new_notice(const std::string& why, bool counts_attempts);

// The teacher page's section on limits at `now_ms` (serve/limits.h's
// steady milliseconds): students refused checks for the minute, students
// whose attempts met their storage cap (`at_cap`, store.students_at_storage_cap()),
// slowed sign-in addresses and ids, the database's size (store.database_bytes())
// against its cap; `csrf` the teacher's form token, `cleared` what the last
// clear did (clear_limit's sentence) or "".
TeacherLimits teacher_limits(CheckRate& checks, SignInLimits& sign_ins, const std::vector<StorageUse>& at_cap,
                             std::int64_t database_bytes, const ClassRules& rules, bool reveals, std::int64_t now_ms,
                             std::string csrf, std::string cleared);

// The student's page of signed-in `session`: their worksheet with `values` in
// its inputs, `shown`'s marks and feedback, `notice`, and `attempts` (theirs,
// oldest first: the attempts left are counted from them). Makes the
// student's variant, unless it is given as `variant` (room.variant_of).
StudentPage student_page(const Classroom& room, const RulesNow& rules, const Session& session,
                         const std::vector<AttemptRecord>& attempts, std::map<std::string, std::string> values,
                         std::optional<GradedSubmission> shown, std::string notice,
                         std::optional<Variant> variant = std::nullopt);

// The student's page showing their stored attempt `shown` (one of
// `attempts`): its answers in the inputs, its marks and its feedback. Its
// answer file is parsed once (readers/served_answers.h's read_stored_answers),
// and the variant made once for its marks and the page.
StudentPage attempt_page(const Classroom& room, const RulesNow& rules, const Session& session,
                         const std::vector<AttemptRecord>& attempts, const AttemptRecord& shown, std::string notice);

// The teacher's page of the class from every stored attempt (oldest first):
// the counts, and the live table (serve/live_view.h's live_view, `paused`
// when it is not to reload itself; `cache` the server's, or null).
TeacherPage teacher_page(const Classroom& room, const std::vector<AttemptRecord>& attempts, bool closed, ScoreRule rule,
                         const HtmlStyle& style, bool paused = false, LiveCache* cache = nullptr);

// The teacher's page of one student from their attempts (oldest first), each judged again.
TeacherStudentPage teacher_student_page(const Classroom& room, const std::string& student,
                                        const std::vector<AttemptRecord>& attempts, const HtmlStyle& style);

}  // namespace attnmark
