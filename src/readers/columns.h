// readers/columns.h: which column of a roster's or sheet's header holds the
// student ids and which their names. One home for the headers attnmark
// recognises, so rosters and sheets read the same way.
//
//   const ClassColumns c = class_columns({"First name", "Surname", "ID number"}, {});
//   *c.id == 2; c.first_name == 0; c.last_name == 1
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/base/error.h"

namespace attnmark {

// A header without the id column asked for or recognised: the teacher's to
// fix (--id-column), so `mark` stops on it (exit 2) rather than marking the
// sheet as one unreadable row.
class ColumnError : public Error {
 public:
  using Error::Error;
};

// A form question's title and the sheet column it stands for: a cell name
// (`q1.scores.2`) or `student` (the id). `mark --columns MAP.csv` gives
// these, and so do the titles `template --format form` writes for the rubric
// (writers/form_template).
struct TitledColumn {
  std::string title;
  std::string column;
  bool operator==(const TitledColumn&) const = default;
};

// The headers asked for on the command line (--id-column, --name-column);
// empty means "recognise one". `titles`: a sheet column headed by one of
// these titles (compared as column_title_key does) is read as the column it
// stands for; of two entries with one title, the first counts.
struct ColumnChoice {
  std::string id;
  std::string name;
  std::vector<TitledColumn> titles = {};  // (a default, so {"id", "name"} leaves it empty without a warning)
  // The cells of the rubric being marked (`q1.scores.2`), when known: a
  // column that reads as a cell but names none of them is not marked (it is
  // one of the sheet's unused columns). Empty: every cell column is read.
  std::vector<std::string> cells = {};
};

// A header as compared with the titles attnmark knows: lower case (ASCII),
// runs of whitespace one space, trimmed. "  Start   Time " is "start time".
std::string column_title_key(std::string_view header);

// True for a header (compared as column_title_key does) that a form, quiz
// or LMS export writes about a response rather than as a question, which a
// sheet may hold without saying so: Microsoft Forms' ID, Start time,
// Completion time, Email, Name, Last modified time, Total points, Quiz
// feedback, and "Points - Q" and "Feedback - Q" for each question; Google
// Forms' Timestamp, Email address and Score; Canvas's Student, ID, SIS User
// ID, SIS Login ID, Integration ID, Section; Moodle's First name, Surname,
// ID number, Institution, Department, Email address, State, Started on,
// Completed, Time taken; and every id, name and submitted header below.
bool is_known_metadata(std::string_view header);

// Where the ids and names are in a header.
struct ClassColumns {
  std::optional<std::size_t> id;          // the student ids; none found: the caller's error
  std::optional<std::size_t> name;        // the names, whole ("Lovelace, Ada")
  std::optional<std::size_t> first_name;  // or in two parts (Moodle: "First name", "Surname")
  std::optional<std::size_t> last_name;
  // A Canvas gradebook export: Student (a name) or LastName and FirstName,
  // ID (Canvas's own), SIS Login ID, Section, and SIS User ID when the
  // exporting teacher may see it.
  bool canvas = false;
  // A Microsoft Forms export: ID (the response's number), Start time,
  // Completion time, Email, Name, then a column per question.
  bool microsoft_forms = false;
  // The other columns whose titles id_column_titles lists (a form's "Email
  // address" beside its "Student ID"), in header order: what identifies a
  // student whose id is blank or not on the roster (is_identity_title).
  std::vector<std::size_t> identities;
};

// The headers recognised as the id column, in the order they are preferred,
// compared without regard to case or spaces around: student, student id, id,
// id number, sis user id, sis login id, username, login, email, email address.
const std::vector<std::string>& id_column_titles();

// True for a title (small letters) of id_column_titles but `id`: a column
// that names a student beside the id column (an email, a login, an SIS id).
// A column headed ID is an LMS's or a form's own number (Canvas's user ID, a
// Microsoft Forms response), so it names no one but as the id column.
bool is_identity_title(std::string_view title);

// The first column of `header` titled `title` (small letters), compared as
// every header is: any case, spaces around. find_column({" Roles "}, "roles") == 0.
std::optional<std::size_t> find_column(const std::vector<std::string>& header, std::string_view title);

// Finds the columns in `header`. A chosen header that is missing is a
// ColumnError naming the headers there are. In a Microsoft Forms export the
// ID column is the response's number, not an id: a Student ID question is
// the id, else the respondent's Email. In a Canvas export the id is the SIS
// User ID (else the SIS Login ID) and the name the Student column (else
// FirstName with LastName). Names: `name`, `full name`,
// `student name`, `display name`, else `first name` with `last name` or
// `surname`.
ClassColumns class_columns(const std::vector<std::string>& header, const ColumnChoice& choice,
                           const std::string& file = std::string(), int line = 0);

// "expected a student id column in the header (student, student id, ...),
// or name it with --id-column; got 'a', 'b'": the message for a header
// without one.
std::string no_id_column_message(const std::vector<std::string>& header);

// The headers recognised as the time a row was handed in, in the order they
// are preferred, compared as id_column_titles are: submitted, submitted at,
// submission time, timestamp (Google Forms), completion time (Microsoft
// Forms; its "Start time" is when the student opened the form), completed
// (Moodle's quiz responses).
const std::vector<std::string>& submitted_column_titles();

// The column of `header` that holds when each row was handed in, if any.
std::optional<std::size_t> submitted_column(const std::vector<std::string>& header);

// The name in a row, from whole or two-part name columns ("" when none).
std::string name_in(const std::vector<std::string>& fields, const ClassColumns& columns);

}  // namespace attnmark
