#include "attnmark/lesson/graded_submission.h"

namespace attnmark {

const char* status_name(SubmissionStatus status) {
  switch (status) {
    case SubmissionStatus::duplicate: return "duplicate";
    case SubmissionStatus::graded: return "graded";
    case SubmissionStatus::missing: return "missing";
    case SubmissionStatus::not_on_roster: return "not-on-roster";
    case SubmissionStatus::unanswered: return "unanswered";
    case SubmissionStatus::unknown_student: return "unknown-student";
    case SubmissionStatus::unreadable: return "unreadable";
    case SubmissionStatus::wrong_rubric: return "wrong-rubric";
    case SubmissionStatus::wrong_variant: return "wrong-variant";
  }
  return "?";
}

}  // namespace attnmark
