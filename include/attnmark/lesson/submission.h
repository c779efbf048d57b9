// attnmark/lesson/submission.h: one student's submission as read, before marking.
//
// Readers (readers/answer_reader.h) fill it from an answer file or a sheet row; the
// grader (lesson/grader.h) marks it. Cells keep the text the student wrote, so
// feedback can quote it back.
//
//   Submission s;
//   s.student = "s001";
//   s.answers["q1"]["weights"].rows = {{"0.665", ".09", "24.5%"}};
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnmark {

// The cells of one part as written: a row per query (a one-token part or a
// single value is one row). A blank or missing cell is "".
struct PartAnswer {
  std::vector<std::vector<std::string>> rows;
  // True when the columns of a class sheet gave the shape, not the student,
  // so the count of cells says nothing of what the student wrote.
  bool shaped_by_sheet = false;
  // Non-empty when the part's value could not be taken from the file at all
  // (a notebook's computed answer without output): every cell of the part is
  // unreadable with this sentence, whatever `rows` holds.
  std::string unreadable{};
  // The cells as the student meant them, when a reader knows its format may
  // have split what was written (readers/answer_reader.h says when): one row,
  // and a sentence saying how it was read. The grader marks this row instead
  // of `rows` when it holds exactly the values of a one-row part, and gives
  // the note as the part's first hint.
  struct OtherReading {
    std::vector<std::string> row;
    std::string note;  // starts with the part's label: "weights: ..."
  };
  std::optional<OtherReading> other_reading{};
};

// One student's answers and what the file said about itself.
struct Submission {
  std::string source;   // where it came from: "answers/s001.yaml", "class.csv:12"
  std::string student;  // may be empty when the file does not say
  std::string name;     // the student's name, when a sheet has a name column
  std::string rubric;   // the rubric name recorded in the file, or empty
  std::optional<std::uint64_t> seed;  // recorded in the file
  std::string variant;                // recorded in the file (16 hex digits), or empty
  // When the file or sheet row says it was handed in, as written (trimmed):
  // an answer file's `submitted:`, a form's Timestamp; empty when it does not
  // say. Read by the rule of which submission counts, never by the grader.
  std::string submitted;
  // question id → part name ("scores", "most_attended") → cells.
  std::map<std::string, std::map<std::string, PartAnswer>> answers;
  // Things read past that the student or teacher should know ("unknown question 'q9'").
  std::vector<std::string> notes;
  // Non-empty when nothing could be read: why (a syntax error, a binary file).
  std::string unreadable;
};

}  // namespace attnmark
