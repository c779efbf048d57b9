// readers/served_answers.h: the answers students send to attnmark serve,
// read: the page's form fields and the JSON body of POST /api/check, each as
// the answer file it is stored as and the Submission it is judged as; and a
// stored answer file read back, with the fields that fill the form again.
//
//   SentAnswers sent = answers_from_form("s001", {{"q1.weights.1.2", " 0.5"}}, "attnmark serve");
//   sent.file == R"({"student":"s001","answers":{"q1":{"weights":[[null,"0.5"]]}}})"
//   sent.submission.answers["q1"]["weights"].rows == {{"", "0.5"}}
//   read_stored_answers(sent.file, "attnmark serve").fields == {{"q1.weights.1.1", ""}, {"q1.weights.1.2", "0.5"}}
//
// Each is parsed once. The Submission is read from a tree built out of the
// form, or out of the body's own tree, not by parsing `file` again, and it is
// exactly what read_answer_file(file, source, limits) reads, reasons and
// notes included (tests/readers/served_answers_test.cpp and fuzz/fuzz_form.cpp
// check it). Only an answer file that might break a cap of that reading
// (its size, nesting or count of values), or a stored one that attnmark did
// not write as it writes them, is read from its text instead.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "attnmark/lesson/submission.h"
#include "readers/answer_reader.h"

namespace attnmark {

// Answers as the answer file they are stored as and the Submission they are judged as.
struct SentAnswers {
  // {"student":ID,"answers":{...}}: compact JSON, keys in byte order, and
  // numbers as the body's JSON reader spells them (0.670 is 0.67).
  std::string file;
  Submission submission;  // == read_answer_file(file, source, limits)
};

// The answers of the page's form, sent by `student`. A field counts when its
// name is an answer cell (parse_answer_field in lesson/rubric.h) and its
// name and value are UTF-8 text without NUL (encoding_problem); every other
// field is left out. A value is trimmed of ASCII white space. Cells of a part
// make a list of rows; the cells no field gives are null. Of two names for
// one cell ("q1.weights.01.1" and "q1.weights.1.1"), the later in byte order counts.
SentAnswers answers_from_form(const std::string& student, const std::map<std::string, std::string>& fields,
                              const std::string& source, const ReadLimits& limits = {});

// The body of POST /api/check, one of:
//   {"student": ID, "code": CODE, "answers": {...}}   (an answer file's answers)
//   {"student": ID, "code": CODE, "cells": [{"part": "q1.weights", "source": TEXT, "outputs": [...]}, ...]}
// The second is a notebook's answer cells as its self-check sends them: each
// cell's source and its nbformat outputs (stream stdout, execute_result
// text/plain, error). They are read by read_notebook, as `mark` reads the
// saved notebook, and the answers it reads become the answer file: each
// part a list of rows of strings (null for a blank cell; a part read_notebook
// could not read, as a computed cell without output, null). When both keys
// are given, "cells" counts.
struct CheckRequest {
  std::string student, code;  // as sent
  SentAnswers answers;        // the file names `student`
};
// Reads the body; other keys are ignored, and of a key given twice the last
// counts. Returns nullopt with `error` set to what the refusal (400) says:
//   encoding_problem(body, "request body"): "not UTF-8 text (byte 0xE9 at line 1); save the request body as UTF-8", ...
//   "expected a JSON object: {\"student\": ID, \"code\": CODE, \"answers\": {...}}"   (not JSON, or not an object)
//   "\"student\": expected your student id as a string"
//   "\"code\": expected your access code as a string"
//   "\"answers\": expected an object of questions, as in your answer file"
//   "\"cells\": expected a list of {\"part\": NAME, \"source\": TEXT, \"outputs\": [...]}"
//   "\"cells\": " + read_notebook's reason (no answer cells, too large, ...)
// Answers that cannot be judged (nested too deep) are not refused here: the
// Submission says why (answers.submission.unreadable).
std::optional<CheckRequest> read_check_request(std::string_view body, const std::string& source, std::string& error,
                                               const ReadLimits& limits = {});

// A stored answer file read back.
struct StoredAnswers {
  Submission submission;  // == read_answer_file(file, source, limits)
  // The form's fields (answer_field_name) holding what the file answers: a
  // part's cell is row 1, column 1; a row's cells are row 1; rows are rows. A
  // string is its text, null "", any other value its JSON ("2.5", "true",
  // "[1]"). Empty when the file is not JSON with an "answers" object.
  std::map<std::string, std::string> fields;
};
StoredAnswers read_stored_answers(std::string_view file, const std::string& source, const ReadLimits& limits = {});

}  // namespace attnmark
