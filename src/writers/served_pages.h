// writers/served_pages.h: the pages of attnmark serve, laid out from what
// the server fills in (a struct per page): the sign-in page, the student's
// page (their worksheet as a form, the marks of a check or an attempt, its
// feedback and their attempts), the teacher's page of the class and of one
// student, and the pages of one message. Each is a complete page
// (html_page): inline CSS, nothing fetched, no script but the student
// page's one (served_script), which the server's Content-Security-Policy
// allows by its hash; every text the server gives is escaped here.
//
//   SignInPage p{"How attention works", csrf, "", "", style};
//   std::string html = signin_page_html(p);
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"
#include "writers/teacher_pages.h"
#include "writers/theme.h"

namespace attnmark {

// GET / before signing in, and a refused sign-in.
struct SignInPage {
  std::string title;    // the class's (display_title)
  std::string csrf;     // the session's token, in the form
  std::string message;  // why the last sign-in was refused, or ""
  std::string student;  // the id typed last, to type again
  HtmlStyle style;
};
std::string signin_page_html(const SignInPage& page);

// One stored attempt, as the student's page lists it.
struct AttemptLine {
  std::int64_t id = 0;  // its id in the store: /attempt?n=ID opens it
  std::string at;       // when, UTC
  double score = 0, max_score = 0;
};

// A signed-in student's page: GET /, POST /check and GET /attempt.
struct StudentPage {
  const Rubric* rubric = nullptr;  // REQUIRES: not null
  Variant variant;                 // the student's: the worksheet the form is
  std::string student, name;       // name: the roster's, or ""
  std::string csrf;
  HtmlStyle style;
  std::map<std::string, std::string> values;  // the inputs' values by answer_field_name (lesson/rubric.h)
  std::optional<GradedSubmission> shown;      // the check or attempt whose marks and feedback are shown
  bool reveal = false;                        // right answers beside the marks and in the feedback
  std::string summary_title = "Checked";       // the summary's heading before the score: "Checked", "Attempt 2"
  std::string notice;                         // a sentence above the form (in the summary with `shown`), or ""
  bool closed = false;                        // the class is closed: checks are not kept
  std::optional<std::int64_t> attempts_left;  // with --attempts
  std::vector<AttemptLine> attempts;          // the student's, oldest first
};
std::string student_page_html(const StudentPage& page);

// The student page's script: Enter in an answer box moves to the next box,
// from the last to Check. The page works without it (Enter then does nothing).
const std::string& served_script();
// served_script() as a Content-Security-Policy source: "'sha256-…'".
std::string served_script_source();

// One limit holding a student or an address, with its form to clear it.
struct LimitRow {
  std::string kind;  // the form's `kind`: "checks", "storage", "address" or "id"
  std::string key;   // the form's `key`: the student id or the address
  std::string who;   // how the row names it: "s001", "10.0.0.7"
  std::string what;  // the limit in words: "30 checks in the last minute; free in 12 seconds"
};
// The teacher page's section on limits: each row's form posts `csrf`,
// `kind` and `key` to /teacher/clear.
struct TeacherLimits {
  std::string csrf;      // the teacher's form token
  std::string rules;     // the caps of this start, as the rules line says them
  std::string database;  // "2.5 MiB of 1 GiB"
  bool database_full = false;  // checks are answered, not kept
  std::string cleared;   // what the last clear did, or ""
  std::vector<LimitRow> rows;
};

// GET /teacher.
struct TeacherPage {
  std::string title;  // the class's (display_title)
  HtmlStyle style;
  std::size_t attempts = 0;                // stored, every student's
  std::size_t students_with_attempts = 0;
  std::size_t roster = 0;                  // students on the roster
  bool closed = false;
  bool counts_best = true;                 // the gradebook counts each student's best attempt, else the last
  LiveView live;                           // the live table of the class (writers/teacher_pages.h)
  std::optional<TeacherLimits> limits;     // the section on limits, after the roster
  std::string warning;                     // said first, when not empty: plain HTTP on the network
};
std::string teacher_page_html(const TeacherPage& page);

// One attempt on the teacher's page of a student.
struct TeacherAttempt {
  std::string at;  // when, UTC
  double score = 0, max_score = 0;
  GradedSubmission graded;
};
// GET /teacher/student?id=: every attempt's feedback, right answers shown.
struct TeacherStudentPage {
  const Rubric* rubric = nullptr;  // REQUIRES: not null
  std::string student;
  HtmlStyle style;
  std::vector<TeacherAttempt> attempts;  // oldest first
};
std::string teacher_student_page_html(const TeacherStudentPage& page);

// The pages that say one thing.
enum class ServedMessage {
  form_expired,     // a form without its session's CSRF token (403)
  no_such_attempt,  // /attempt?n= of no attempt of the student's (404)
  unknown_style,    // /settings with a theme or text size there is not (400)
  teacher_token,    // /teacher without the teacher's token (401)
};
std::string served_message_page(ServedMessage message, const HtmlStyle& style);
// A page titled `title` holding `notice` (text): a request the server could not answer.
std::string served_notice_page(std::string_view title, std::string_view notice, const HtmlStyle& style);

}  // namespace attnmark
