// A student's feedback page (writers/feedback.h): answers beside verdicts,
// everything escaped, reference answers only when revealed.
#include "support/test_support.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/text.h"
#include "attnmark/lesson/diagnosis.h"
#include "writers/feedback.h"
#include "writers/html_page.h"
#include "writers/report_words.h"

using namespace attnmark;

TEST_CASE("feedback.html: answers beside verdicts, and reference answers only when revealed") {
  const Rubric rubric = shipped("lesson");
  const std::vector<GradedSubmission> rows = lesson_class(rubric);
  const GradedSubmission& eve = rows[1];
  const std::string hidden = feedback_html(rubric, eve, false, {Theme::high_contrast, TextSize::large});
  const std::string shown = feedback_html(rubric, eve, true, {});
  for (const std::string& html : {hidden, shown}) {
    CHECK(count(html, "<script") == 0);
    CHECK(count(html, "<b>10</b>") == 0);
    CHECK(count(html, "&lt;b&gt;10&lt;/b&gt;") == 2);  // the answer and the note on it
    CHECK(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") == 1);
    CHECK(count(html, "✗ wrong") >= 3);
    CHECK(count(html, html_escape(explain("hard-attention"))) == 1);
  }
  CHECK(count(hidden, "<th scope=\"col\">Answer</th>") == 0);
  // One-row parts have an Answer column; the matrix parts of q2 (scores,
  // weights, output) are grids with the answer in each cell.
  CHECK(count(shown, "<th scope=\"col\">Answer</th>") == 6);
  CHECK(count(shown, "<td>0.665</td>") == 1);                        // q1
  CHECK(count(shown, "<span class=\"muted\">0.665</span>") == 1);   // q2's row for late
  CHECK(count(shown, "<table class=\"grid\">") == 3);
  CHECK(count(shown, "<th scope=\"col\">query ↓ key →</th>") == 2);
  CHECK(count(hidden, "0.665") == 0);
  const std::string broken = feedback_html(rubric, rows[2], true, {});
  CHECK(count(broken, "could not read &lt;this&gt;") == 1);
  CHECK(count(broken, "<table") == 0);
}

TEST_CASE("feedback JSON is valid UTF-8 whatever the file name: a byte that is not UTF-8 is written as \\xHH") {
  const Rubric rubric = shipped("lesson");
  GradedSubmission g = lesson_class(rubric)[0];
  g.source = "answers/Jos\xE9\x1B.yaml";
  std::string line;
  append_feedback_json(line, g);
  CHECK(first_invalid_utf8(line) == std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(line);
  CHECK(j["source"] == "answers/Jos\\xE9\x1B.yaml");
}

TEST_CASE("feedback lists at most a hundred notes and a bounded reason, in every format") {
  const Rubric rubric = shipped("lesson");
  GradedSubmission g = lesson_class(rubric)[0];
  for (int i = 0; i < 20000; ++i) {
    g.marked->notes.push_back("answers for 'q" + std::to_string(1000 + i) + "', which this rubric does not have, were not marked");
    g.reason += (i ? "; " : "") + g.marked->notes.back();
  }
  std::string json;
  append_feedback_json(json, g);
  const nlohmann::json j = nlohmann::json::parse(json);
  REQUIRE(j["notes"].size() == max_notes_shown + 1);
  CHECK(j["notes"].back() == "and 19,900 more notes");
  CHECK(j["reason"].get<std::string>().size() <= max_reason_bytes);
  const std::string md = feedback_markdown(rubric, g, false);
  const std::string html = feedback_html(rubric, g, false, {});
  const std::string check = check_table(rubric, g, false);
  for (const std::string* text : std::vector<const std::string*>{&json, &md, &html, &check}) {
    CHECK(text->size() < 60000);
    CHECK(count(*text, "q1099") >= 1);  // the hundredth note
    CHECK(count(*text, "and 19,900 more notes") == 1);
  }
}

TEST_CASE("check shows what a student wrote without CR, VT, FF or escape sequences reaching the terminal") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s\xC2\x9B" "1");
  Submission s;
  s.student = "s1";
  s.answers["q3"]["most_attended"].rows = {{"\rcat\v\f\x1B[2J"}};
  s.answers["q1"]["scores"].rows = {{"1\r", "x\x0B", "\x0C"}};
  GradedSubmission g;
  g.student = v.student;
  g.variant = v.id_text();
  g.status = SubmissionStatus::graded;
  g.marked = grade(v, s);
  g.marked->notes.push_back("answers for 'q\r9' were not marked");
  g.reason = "a\x1B[31m";
  const std::string out = check_table(rubric, g, true);
  CHECK(out.find_first_of("\r\v\f\x1B") == std::string::npos);
  CHECK(count(out, "student s\\u009B1") == 1);
  CHECK(count(out, "a\\x1B[31m") == 1);
  CHECK(count(out, "note: answers for 'q\\r9' were not marked") == 1);
  CHECK(count(out, "\\x1B[2J") >= 1);
  for (std::size_t at = out.find('\n'); at != std::string::npos; at = out.find('\n', at + 1))
    CHECK((at == 0 || out[at - 1] != '\r'));
}

TEST_CASE("feedback JSON: each part's label, the scores as shown, and a table part's grid named as the reports name it") {
  const Rubric rubric = shipped("lesson");
  const GradedSubmission ada = lesson_class(rubric)[0];
  std::string line;
  append_feedback_json(line, ada);
  const nlohmann::json j = nlohmann::json::parse(line);
  CHECK(j["score_text"] == "5 / 16");
  const nlohmann::json& q1 = j["questions"][0];
  CHECK(q1["score_text"] == "5 / 5");
  CHECK(q1["parts"]["weights"]["label"] == "weights");
  CHECK(q1["parts"]["weights"]["score_text"] == "2 / 2");
  CHECK(!q1["parts"]["weights"].contains("grid"));  // one row: no table
  const nlohmann::json& q2 = j["questions"][1];
  CHECK(q2["score_text"] == "0 / 8");
  const nlohmann::json& scores = q2["parts"]["scores"];
  CHECK(scores["label"] == "scores");
  CHECK(scores["score_text"] == "0 / 2");
  CHECK(scores["grid"] == nlohmann::json::parse(R"({"corner":"query ↓ key →","rows":["bus","is","late"],"columns":["bus","is","late"]})"));
  CHECK(q2["parts"]["output"]["grid"] ==
        nlohmann::json::parse(R"({"corner":"query ↓ dimension →","rows":["bus","is","late"],"columns":["1","2"]})"));
  CHECK(j["questions"][2]["parts"]["most_attended"]["label"] == "most attended");
  CHECK(!j["questions"][2]["parts"]["most_attended"].contains("grid"));
  // The same names as every other report's (FeedbackView).
  const FeedbackView view = feedback_view(rubric, ada, false);
  for (std::size_t qi = 0; qi < view.questions.size(); ++qi)
    for (const PartView& p : view.questions[qi].parts) {
      const nlohmann::json& part = j["questions"][qi]["parts"][std::string(part_name(p.part))];
      CHECK(part["label"] == p.label);
      CHECK(part["score_text"] == p.score);
      CHECK(part.contains("grid") == p.grid.has_value());
      if (p.grid) {
        CHECK(part["grid"]["corner"] == p.grid->corner);
        CHECK(part["grid"]["rows"] == p.grid->rows);
        CHECK(part["grid"]["columns"] == p.grid->columns);
      }
    }
  // Not marked: no score to show.
  line.clear();
  append_feedback_json(line, lesson_class(rubric)[2]);
  CHECK(nlohmann::json::parse(line)["score_text"].is_null());
}
