// One submission's feedback as plain data (writers/feedback_view.h): the
// parts in order, the lesson's table of a part with a row per query, cells
// named by their tokens, scores and mistakes in words.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "attnmark/lesson/diagnosis.h"
#include "writers/feedback_view.h"

using namespace attnmark;

namespace {

GradedSubmission lesson_answers() {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.student = "s001";
  s.answers["q1"]["weights"].rows = {{"1", "0", "0"}};                          // hard attention
  s.answers["q2"]["scores"].rows = {{"1", "2", "1"}, {"3", "2", "2"}, {"2", "0", "x"}};
  GradedSubmission g;
  g.student = "s001";
  g.variant = v.id_text();
  g.marked = grade(v, s);
  return g;
}

}  // namespace

TEST_CASE("feedback_view: a part with a row per query is the lesson's table, its cells named by their tokens") {
  const Rubric rubric = shipped("lesson");
  const GradedSubmission g = lesson_answers();
  const FeedbackView view = feedback_view(rubric, g, true);
  CHECK(view.title == "How attention works in a transformer");
  CHECK(view.rubric == "lesson");
  CHECK(view.student == "s001");
  CHECK(view.marked);
  CHECK(view.reveal);
  REQUIRE(view.questions.size() == 3);
  const QuestionView& q2 = view.questions[1];
  CHECK(q2.id == "q2");
  CHECK(q2.number == 2);
  CHECK(q2.title == "attention for all three tokens at once");
  REQUIRE(q2.parts.size() == 3);
  const PartView& scores = q2.parts[0];
  CHECK(scores.part == Part::scores);
  CHECK(scores.label == "scores");
  CHECK(scores.score == "1.78 / 2");
  REQUIRE(scores.grid);
  CHECK(std::string(scores.grid->corner) == "query ↓ key →");
  CHECK(scores.grid->rows == std::vector<std::string>{"bus", "is", "late"});
  CHECK(scores.grid->columns == std::vector<std::string>{"bus", "is", "late"});
  REQUIRE(scores.cells.size() == 9);
  const CellView& late_is = scores.cells[7];  // row 3, column 2
  CHECK(late_is.label == "3.2");
  CHECK(late_is.name == "late → is");
  CHECK(late_is.given == "0");
  CHECK(late_is.expected == "0");
  CHECK(late_is.verdict == Verdict::correct);
  CHECK(std::string(late_is.look.symbol) == "✓");
  const CellView& x = scores.cells[8];
  CHECK(x.name == "late → late");
  CHECK(x.verdict == Verdict::unreadable);
  CHECK(std::string(x.look.word) == verdict_look(Verdict::unreadable).word);
  CHECK(!x.note.empty());
  CHECK(q2.parts[1].grid->columns == std::vector<std::string>{"bus", "is", "late"});
  CHECK(std::string(q2.parts[2].grid->corner) == "query ↓ dimension →");
  CHECK(q2.parts[2].grid->columns == std::vector<std::string>{"1", "2"});
}

TEST_CASE("feedback_view: a one-row part is a list of named cells, its mistakes in words") {
  const Rubric rubric = shipped("lesson");
  const FeedbackView view = feedback_view(rubric, lesson_answers(), false);
  CHECK(!view.reveal);
  CHECK(view.score == "1.78 / 16");
  const QuestionView& q1 = view.questions[0];
  CHECK(q1.score == "0 / 5");
  const PartView& weights = q1.parts[1];
  CHECK(weights.label == "weights");
  CHECK(!weights.grid);
  REQUIRE(weights.cells.size() == 3);
  CHECK(weights.cells[0].label == "1");
  CHECK(weights.cells[0].name == "bus");
  CHECK(weights.cells[2].name == "late");
  CHECK(weights.cells[0].expected.empty());  // not revealed
  REQUIRE(weights.diagnoses.size() == 1);
  CHECK(weights.diagnoses[0].code == "hard-attention");
  CHECK(weights.diagnoses[0].words == explain("hard-attention"));
  REQUIRE(weights.hints.size() >= 2);
  CHECK(weights.hints[0].text ==
        "Your working first goes wrong at weights · bus: you wrote 1, which is not e to the power of the score, divided "
        "by the total of e to the power of every score.");
  CHECK(!weights.hints[0].repeats);
  CHECK(weights.hints[1].text == explain("hard-attention"));
  CHECK(weights.hints[1].repeats);
  // q3's most attended word, named by its query.
  const PartView& word = view.questions[2].parts[2];
  CHECK(word.label == "most attended");
  CHECK(!word.grid);
  REQUIRE(word.cells.size() == 1);
  CHECK(word.cells[0].label == "");
  CHECK(word.cells[0].name == "");
}

TEST_CASE("feedback_view: a submission not marked has its reason and no questions") {
  const Rubric rubric = shipped("lesson");
  const GradedSubmission broken = lesson_class(rubric)[2];
  const FeedbackView view = feedback_view(rubric, broken, false);
  CHECK(!view.marked);
  CHECK(view.status == SubmissionStatus::unreadable);
  CHECK(view.reason == "answers/broken.yaml:3:1: could not read <this>");
  CHECK(view.score.empty());
  CHECK(view.questions.empty());
}
