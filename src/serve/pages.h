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
// each roster student's count of attempts and best score (counts_over).
TeacherPage teacher_page(const Classroom& room, const std::vector<AttemptRecord>& attempts, bool closed, ScoreRule rule,
                         const HtmlStyle& style);

// The teacher's page of one student from their attempts (oldest first), each judged again.
TeacherStudentPage teacher_student_page(const Classroom& room, const std::string& student,
                                        const std::vector<AttemptRecord>& attempts, const HtmlStyle& style);

}  // namespace attnmark
