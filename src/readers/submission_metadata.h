// readers/submission_metadata.h: who submitted, as Gradescope says in
// /autograder/submission_metadata.json (gradescope/autograder_samples,
// docs/submission_metadata.md): `users` lists the submitters, each with
// `email`, `id`, `name` and `sid` (the course roster's student id).
//
//   SubmitterId who = gradescope_submitter(read_file(".../submission_metadata.json", ...));
//   who.id == "s001";  who.from == "sid";  who.email == "ada@example.org";  who.user_id == "4567"
#pragma once

#include <string>
#include <string_view>

namespace attnmark {

// The student id of a submission, and where it came from; and users[0]'s
// fields as given, for a roster to be searched with (marking/autograde).
struct SubmitterId {
  std::string id;       // trimmed; "" when the metadata gives none that can be used
  std::string from;     // "sid" or "email" (of users[0]); "" when id is ""
  std::string problem;  // why no id could be taken, one printable line, or ""
  int submitters = 0;   // how many users the submission lists (a group submission has several)
  // users[0]'s sid, email, id (Gradescope's own number for the user, not
  // the course's) and name: trimmed, a whole number as its digits, "" when
  // absent, null, blank, of another type, refused by student_id_problem or
  // longer than 200 bytes.
  std::string sid, email, user_id, name;
};

// users[0].sid when it is a non-blank string (or a number), else
// users[0].email. An id that student_id_problem refuses is not used (the
// problem says why), nor is one of more than 200 bytes. Never throws: JSON
// that cannot be read is a problem ("submission_metadata.json: JSON syntax: ...").
SubmitterId gradescope_submitter(std::string_view json_text);

}  // namespace attnmark
