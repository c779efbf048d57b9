// The answers sent to attnmark serve, read from strings: a form's fields as
// the answer file they make, a check's JSON body with every refusal word for
// word, and a stored file read back with the fields that fill the form again.
// Each Submission is read without parsing the file's text, and is exactly
// what read_answer_file makes of that text.
#include "support/test_support.h"

#include <map>
#include <string>

#include "readers/answer_reader.h"
#include "readers/served_answers.h"

using attnmark::answers_from_form;
using attnmark::read_answer_file;
using attnmark::read_check_request;
using attnmark::read_stored_answers;
using attnmark::SentAnswers;
using attnmark::Submission;

namespace {

using FormFields = std::map<std::string, std::string>;
using Rows = std::vector<std::vector<std::string>>;

const std::string source = "attnmark serve";

// Every field of two submissions is the same.
void require_same(const Submission& a, const Submission& b) {
  CHECK(a.source == b.source);
  CHECK(a.student == b.student);
  CHECK(a.name == b.name);
  CHECK(a.rubric == b.rubric);
  CHECK(a.seed == b.seed);
  CHECK(a.variant == b.variant);
  CHECK(a.notes == b.notes);
  CHECK(a.unreadable == b.unreadable);
  REQUIRE(a.answers.size() == b.answers.size());
  for (auto i = a.answers.begin(), j = b.answers.begin(); i != a.answers.end(); ++i, ++j) {
    CHECK(i->first == j->first);
    REQUIRE(i->second.size() == j->second.size());
    for (auto p = i->second.begin(), q = j->second.begin(); p != i->second.end(); ++p, ++q) {
      CHECK(p->first == q->first);
      CHECK(p->second.rows == q->second.rows);
      CHECK(p->second.unreadable == q->second.unreadable);
      CHECK(p->second.shaped_by_sheet == q->second.shaped_by_sheet);
    }
  }
}

// The form's answers, checked against their file read from its text.
SentAnswers from_form(const FormFields& fields) {
  SentAnswers sent = answers_from_form("s001", fields, source);
  INFO(sent.file);
  require_same(sent.submission, read_answer_file(sent.file, source));
  return sent;
}

// A check's body read, checked the same way; its refusal in `error`.
std::optional<attnmark::CheckRequest> request(const std::string& body, std::string& error) {
  std::optional<attnmark::CheckRequest> r = read_check_request(body, source, error);
  if (r) {
    INFO(r->answers.file);
    require_same(r->answers.submission, read_answer_file(r->answers.file, source));
  }
  return r;
}

// A stored file read back, checked the same way.
attnmark::StoredAnswers stored(const std::string& file) {
  INFO(file);
  attnmark::StoredAnswers s = read_stored_answers(file, source);
  require_same(s.submission, read_answer_file(file, source));
  return s;
}

std::string nested(int levels) { return std::string(levels, '[') + "1" + std::string(levels, ']'); }

}  // namespace

TEST_CASE("a form's cells make the answers of an answer file, and other fields are left out") {
  const SentAnswers sent = from_form({{"csrf", "x"},
                                      {"q1.weights.1.2", " 0.5\t"},
                                      {"q1.weights.1.1", "1"},
                                      {"q2.scores.2.1", "3"},
                                      {"q1.output", "4"},             // not a cell: no row or column
                                      {"q1.scores.0.1", "5"},         // rows and columns count from 1
                                      {"q1.scores.1.101", "6"},       // more columns than any sheet
                                      {"q1.scores.1.1.1", "7"},       // a fourth index
                                      {"q1.scores.x.1", "8"}});
  CHECK(sent.file == R"({"student":"s001","answers":{"q1":{"weights":[["1","0.5"]]},"q2":{"scores":[[],["3"]]}}})");
  CHECK(sent.submission.source == source);
  CHECK(sent.submission.student == "s001");
  CHECK(cells(sent.submission, "q1", "weights") == Rows{{"1", "0.5"}});
  CHECK(cells(sent.submission, "q2", "scores") == Rows{{}, {"3"}});
  CHECK(sent.submission.answers.size() == 2);
  CHECK(sent.submission.notes.empty());

  // A cell no field gives is null in the file, "" when read.
  const SentAnswers gaps = from_form({{"q1.scores.2.3", "1"}});
  CHECK(gaps.file == R"({"student":"s001","answers":{"q1":{"scores":[[],[null,null,"1"]]}}})");
  CHECK(cells(gaps.submission, "q1", "scores") == Rows{{}, {"", "", "1"}});

  // No cells at all: an empty answers object.
  CHECK(from_form({{"csrf", "x"}}).file == R"({"student":"s001","answers":{}})");
}

TEST_CASE("of two names for one form cell the later in byte order counts, and text that is not UTF-8 is left out") {
  CHECK(from_form({{"q1.weights.01.1", "early"}, {"q1.weights.1.1", "late"}}).file ==
        R"({"student":"s001","answers":{"q1":{"weights":[["late"]]}}})");
  CHECK(from_form({{"q1.weights.1.1", "\xff"}, {"q\xff.weights.1.1", "1"}, {"q1.scores.1.1", std::string("a\0b", 3)},
                   {"q1.output.1.1", "ok"}})
            .file == R"({"student":"s001","answers":{"q1":{"output":[["ok"]]}}})");
  // Questions and parts are the grader's to judge: unknown ones are kept as sent.
  const SentAnswers odd = from_form({{"zz.nonsense.1.1", "1"}, {".scores.1.1", "2"}});
  CHECK(odd.file == R"({"student":"s001","answers":{"":{"scores":[["2"]]},"zz":{"nonsense":[["1"]]}}})");
}

TEST_CASE("a check's body is refused with the API's own words") {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"not json", "expected a JSON object: {\"student\": ID, \"code\": CODE, \"answers\": {...}}"},
      {"[1,2]", "expected a JSON object: {\"student\": ID, \"code\": CODE, \"answers\": {...}}"},
      {"{\"student\":\"s001\",\"code\":\"c\",\"answers\":{\"q1\":{\"scores\":[1e400]}}}",
       "expected a JSON object: {\"student\": ID, \"code\": CODE, \"answers\": {...}}"},
      {"{\"code\":\"x\",\"answers\":{}}", "\"student\": expected your student id as a string"},
      {"{\"student\":7,\"code\":\"x\",\"answers\":{}}", "\"student\": expected your student id as a string"},
      {"{\"student\":\"s001\",\"answers\":{}}", "\"code\": expected your access code as a string"},
      {"{\"student\":\"s001\",\"code\":\"c\"}", "\"answers\": expected an object of questions, as in your answer file"},
      {"{\"student\":\"s001\",\"code\":\"c\",\"answers\":[]}",
       "\"answers\": expected an object of questions, as in your answer file"},
      {"{\"student\":\"s\xE9\"}", "not UTF-8 text (byte 0xE9 at line 1); save the request body as UTF-8"},
  };
  for (const auto& [body, message] : refused) {
    INFO(body);
    std::string error;
    CHECK_FALSE(request(body, error));
    CHECK(error == message);
  }
}

TEST_CASE("a check's body gives its student, code and answers, numbers spelled as its JSON reader spells them") {
  std::string error;
  const auto r = request(R"({"student":"x","code":"k7mq4-xh2pa","student":"s001","more":1,)"
                         R"("answers":{"q2":{"scores":[[1,2],[3]]},"q1":{"weights":[0.670,1E5,true,null,"2/3",-0.0]}}})",
                         error);
  REQUIRE(r);
  CHECK(error.empty());
  CHECK(r->student == "s001");  // of a key given twice the last counts
  CHECK(r->code == "k7mq4-xh2pa");
  CHECK(r->answers.file == R"({"student":"s001","answers":{"q1":{"weights":[0.67,100000.0,true,null,"2/3",-0.0]},)"
                           R"("q2":{"scores":[[1,2],[3]]}}})");
  CHECK(cells(r->answers.submission, "q1", "weights") == Rows{{"0.67", "100000.0", "true", "", "2/3", "-0.0"}});
  CHECK(cells(r->answers.submission, "q2", "scores") == Rows{{"1", "2"}, {"3"}});
}

TEST_CASE("a check's answers past the answer file's caps are judged unreadable with the reader's own reason") {
  std::string error;
  // The file's object, answers and q1 are three levels: the 62nd list of scores is the 65th.
  auto r = request(R"({"student":"s001","code":"c","answers":{"q1":{"scores":)" + nested(62) + "}}}", error);
  REQUIRE(r);
  CHECK(r->answers.submission.unreadable == "nested deeper than 64 levels");
  r = request(R"({"student":"s001","code":"c","answers":{"q1":{"scores":)" + nested(61) + "}}}", error);
  REQUIRE(r);
  CHECK(r->answers.submission.unreadable.empty());
  CHECK(r->answers.submission.notes == std::vector<std::string>{"q1.scores row 1 cell 1 is not a value"});
  // A form's cells: within every cap; more cells than a submission may have.
  attnmark::ReadLimits limits;
  limits.max_cells = 3;
  FormFields fields;
  for (int c = 1; c <= 4; ++c) fields["q1.scores.1." + std::to_string(c)] = "1";
  const SentAnswers many = answers_from_form("s001", fields, source, limits);
  CHECK(many.submission.unreadable == "more than 3 answer cells");
  require_same(many.submission, read_answer_file(many.file, source, limits));
}

TEST_CASE("a stored answer file is read back once: its submission and the fields that fill the form again") {
  const SentAnswers sent = from_form({{"q1.weights.1.2", "0.5"}, {"q2.scores.2.1", "3"}});
  attnmark::StoredAnswers s = stored(sent.file);
  CHECK(s.fields == FormFields{{"q1.weights.1.1", ""}, {"q1.weights.1.2", "0.5"}, {"q2.scores.2.1", "3"}});
  CHECK(cells(s.submission, "q1", "weights") == Rows{{"", "0.5"}});

  // What an API check stored: a cell, a row, rows, and values that are not cells.
  s = stored(R"({"student":"s001","answers":{"q1":{"output":[[[1]]],"scores":[[1,2],3],"weights":{"a":1}},)"
             R"("q2":{"most_attended":"bus","weights":[0.5,true,null]},"q3":null,"q4":[1]}})");
  CHECK(s.fields == FormFields{{"q1.output.1.1", "[1]"},
                           {"q1.scores.1.1", "1"},
                           {"q1.scores.1.2", "3"},  // a lone value among rows: row 1's cell r, over the 2
                           {"q1.weights.1.1", "{\"a\":1}"},
                           {"q2.most_attended.1.1", "bus"},
                           {"q2.weights.1.1", "0.5"},
                           {"q2.weights.1.2", "true"},
                           {"q2.weights.1.3", ""}});
  CHECK(cells(s.submission, "q1", "scores") == Rows{{"1", "2"}, {"3"}});
  CHECK_FALSE(s.submission.notes.empty());
}

TEST_CASE("a stored file attnmark did not write as it writes them reads as its text does") {
  // Spaces, numbers as written, keys unsorted: the submission keeps "0.670"; the fields are as before.
  attnmark::StoredAnswers s = stored(R"({ "student": "s001", "answers": {"q1": {"weights": [0.670]}} })");
  CHECK(cells(s.submission, "q1", "weights") == Rows{{"0.670"}});
  CHECK(s.fields == FormFields{{"q1.weights.1.1", "0.67"}});
  // A key twice: unreadable, as the reader says; the form takes the last.
  s = stored(R"({"student":"s001","answers":{"q1":{"weights":[1]}},"answers":{"q1":{"weights":[2]}}})");
  CHECK(s.submission.unreadable == "duplicate key 'answers'");
  CHECK(s.fields == FormFields{{"q1.weights.1.1", "2"}});
  // Nested past the caps, not JSON, not an object, empty.
  s = stored(R"({"student":"s001","answers":{"q1":{"scores":)" + nested(62) + "}}}");
  CHECK(s.submission.unreadable == "nested deeper than 64 levels");
  CHECK(s.fields == FormFields{{"q1.scores.1.1", nested(60)}});
  s = stored("not json");
  CHECK_FALSE(s.submission.unreadable.empty());
  CHECK(s.fields.empty());
  s = stored("\"s001\"");
  CHECK_FALSE(s.submission.unreadable.empty());
  CHECK(s.fields.empty());
  s = stored("{}");
  CHECK(s.submission.unreadable.empty());
  CHECK(s.submission.answers.empty());
  CHECK(s.fields.empty());
}

TEST_CASE("a check's notebook cells are read as mark reads the saved notebook: typed literal, else the stored output") {
  std::string error;
  const auto r = request(
      R"j({"student":"s001","code":"c","cells":[)j"
      R"j({"part":"q1.weights","source":"q1_weights = softmax(q1_scores)\nprint('weights:', q1_weights)",)j"
      R"j("outputs":[{"output_type":"stream","name":"stdout","text":"weights: [0.67, 0.33]\n"}]},)j"
      R"j({"part":"q1.scores","source":"q1_scores = [2, 0.090]\nq1_scores","outputs":[{"output_type":"execute_result",)j"
      R"j("data":{"text/plain":"[2, 0.09]"},"metadata":{},"execution_count":3}]},)j"
      R"j({"part":"q1.output","source":"q1_output = q1_weights @ V\nq1_output","outputs":[{"output_type":"execute_result",)j"
      R"j("data":{"text/plain":"array([7.88, 2.12])"},"metadata":{},"execution_count":4}]},)j"
      R"j({"part":"q2.weights","source":"q2_weights = f()\nq2_weights","outputs":[]}]})j",
      error);
  REQUIRE(r);
  CHECK(error.empty());
  // The typed literal as written; computed answers as their output reads.
  CHECK(cells(r->answers.submission, "q1", "scores") == Rows{{"2", "0.090"}});
  CHECK(cells(r->answers.submission, "q1", "output") == Rows{{"7.88", "2.12"}});
  CHECK(r->answers.file == R"j({"student":"s001","answers":{"q1":{"output":[["7.88","2.12"]],"scores":[["2","0.090"]],)j"
                           R"j("weights":[["weights: [0.67, 0.33]"]]},"q2":{"weights":null}}})j");
  // Printed words around a list make one cell of text, as when marked.
  CHECK(cells(r->answers.submission, "q1", "weights") == Rows{{"weights: [0.67, 0.33]"}});
}

TEST_CASE("a check's notebook cells that are not cells are refused") {
  std::string error;
  CHECK_FALSE(request(R"j({"student":"s","code":"c","cells":{}})j", error));
  CHECK(error == R"j("cells": expected a list of {"part": NAME, "source": TEXT, "outputs": [...]})j");
  error.clear();
  CHECK_FALSE(request(R"j({"student":"s","code":"c","cells":[{"part":"q1.weights"}]})j", error));
  CHECK(error == R"j("cells": expected a list of {"part": NAME, "source": TEXT, "outputs": [...]})j");
  error.clear();
  CHECK_FALSE(request(R"j({"student":"s","code":"c","cells":[]})j", error));
  CHECK(error.starts_with("\"cells\": the notebook has no answer cells"));
}
