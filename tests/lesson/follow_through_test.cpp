// The rules of follow-through, the weight window and most attended that
// docs/marking.md writes down, one case per rule, each named after it.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/diagnosis.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/numbers.h"
#include "readers/rubric_loader.h"
#include "writers/markdown_writer.h"

using namespace attnmark;

namespace {

std::vector<Verdict> verdicts(const PartResult& p) {
  std::vector<Verdict> out;
  for (const CellResult& c : p.cells) out.push_back(c.verdict);
  return out;
}

bool any_carried(const PartResult& p) {
  for (const CellResult& c : p.cells)
    if (c.verdict == Verdict::carried) return true;
  return false;
}

constexpr Verdict right = Verdict::correct, carried = Verdict::carried, wrong = Verdict::wrong,
                  coarse = Verdict::imprecise;

// One token, fixed numbers: the query (1, 0) against keys whose first entries are the scores.
Rubric one_token(const std::string& keys, const std::string& score_decimals = "") {
  return load_rubric(
      "name: fixed\nquestions:\n  - id: q1\n    task: one-token\n    tokens: [a, b, c]\n    query_token: c\n"
      "    inputs:\n      query: [1, 0]\n      keys: " + keys + "\n      values: [[10, 0], [0, 10], [5, 5]]\n"
      "    ask: [scores, weights, output, most-attended]\n    marking:\n      scores: {marks: 1" + score_decimals + "}\n"
      "      weights: {marks: 2, decimals: 3}\n      output: {marks: 2, decimals: 2}\n      most-attended: {marks: 1}\n",
      "fixed.yaml");
}

}  // namespace

TEST_CASE("row-level follow-through: softmax over every score, then the masked weight set to 0, is not carried") {
  // class-demo, seed 41: scores −3.0, 1.5 and the third masked. The student
  // wrote 0.0 for the masked score and 0.009, 0.810, 0.000 as weights: the
  // softmax of their scores is 0.009, 0.810, 0.181, the right weights 0.011,
  // 0.989, 0. The row is neither, so it is judged against the right answer.
  const Rubric rubric = shipped("class-demo");
  const Variant v = make_variant(rubric, 41, "class-demo-s41-0045");
  REQUIRE(v.questions[0].scores[0][2] == masked_score);
  Submission s;
  s.answers["q1"]["scores"].rows = {{"-3.0", "1.5", "0.0"}};
  s.answers["q1"]["weights"].rows = {{"0.009", "0.810", "0.000"}};
  const Marked marked_w = grade(v, s);

  const PartResult& w = part_of(marked_w, 0, Part::weights);
  CHECK(verdicts(w) == std::vector<Verdict>{wrong, wrong, right});
  CHECK(!w.follow_through);
  CHECK(w.score == Approx(2.0 / 3).epsilon(0).margin(1e-9));
  CHECK(w.diagnoses == std::vector<std::string>{"mask-after-softmax"});
}

TEST_CASE("row-level follow-through: a half-corrected row is judged against the right answer alone") {
  // Scores 2, 0, 2 (one slip); weights 0.665 and 0.090 right, 0.468 the
  // slip's: the row adds up to 1.223 and is neither the right method on the
  // student's scores (0.468, 0.063, 0.468) nor the right weights.
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "2"}};
  s.answers["q1"]["weights"].rows = {{"0.665", "0.090", "0.468"}};
  const Marked marked_w = grade(v, s);

  const PartResult& w = part_of(marked_w, 0, Part::weights);
  CHECK(verdicts(w) == std::vector<Verdict>{right, right, wrong});
  CHECK(w.score == Approx(4.0 / 3).epsilon(0).margin(1e-9));
  CHECK(!w.follow_through);
}

TEST_CASE("row-level follow-through: a whole row worked from the student's own slip is carried") {
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "2"}};
  s.answers["q1"]["weights"].rows = {{"0.468", "0.063", "0.468"}};
  s.answers["q1"]["output"].rows = {{"7.02", "2.97"}};  // 0.468·10 + 0.468·5, 0.063·10 + 0.468·5
  const Marked m = grade(v, s);
  CHECK(verdicts(part_of(m, 0, Part::weights)) == std::vector<Verdict>{carried, carried, carried});
  CHECK(part_of(m, 0, Part::weights).score == 2);
  CHECK(verdicts(part_of(m, 0, Part::output)) == std::vector<Verdict>{carried, carried});
  CHECK(part_of(m, 0, Part::output).score == 2);
}

TEST_CASE("carried credit needs an honest attempt: all-equal scores carry nothing to the weights or the output") {
  // Scores 0, 0, 0 make the weights 1/3 each and the output the mean of the
  // values: most of the marks for no attention worked.
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"0", "0", "0"}};
  s.answers["q1"]["weights"].rows = {{"0.333", "0.333", "0.333"}};
  s.answers["q1"]["output"].rows = {{"5.00", "5.00"}};
  // (1, 1, 1 would be bus's 1, 2, 1 scaled by √2 by mistake, rounded to whole numbers as asked: an attempt.)
  s.answers["q2"]["scores"].rows = {{"4", "4", "4"}, {"4", "4", "4"}, {"4", "4", "4"}};
  s.answers["q2"]["weights"].rows = {{"0.333", "0.333", "0.333"}, {"0.333", "0.333", "0.333"}, {"0.333", "0.333", "0.333"}};
  s.answers["q2"]["output"].rows = {{"5.00", "5.00"}, {"5.00", "5.00"}, {"5.00", "5.00"}};
  const Marked m = grade(v, s);
  for (std::size_t qi : {0, 1})
    for (Part p : {Part::weights, Part::output}) {
      INFO(qi << " " << part_name(p));
      CHECK(!any_carried(part_of(m, qi, p)));
      CHECK(part_of(m, qi, p).diagnoses.empty());  // every base's softmax of equal scores is equal: no mistake
    }
  // late's second score, 0, is right: an attempt, but one that makes the weights trivial.
  CHECK(part_of(m, 0, Part::weights).hints.back() ==
        "No follow-through from your scores for late: its numbers make this step trivial or repeat numbers given "
        "elsewhere.");
}

TEST_CASE("carried credit needs an honest attempt: all-equal weights carry nothing to the output, even with a right cell") {
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q1"]["weights"].rows = {{"0.245", "0.245", "0.245"}};  // the third is right
  s.answers["q1"]["output"].rows = {{"3.68", "3.68"}};
  const Marked marked_o = grade(v, s);

  const PartResult& o = part_of(marked_o, 0, Part::output);
  CHECK(!any_carried(o));
  CHECK(o.hints.back() ==
        "No follow-through from your weights for late: its numbers make this step trivial or repeat numbers given elsewhere.");
}

TEST_CASE("carried credit needs an honest attempt: a row with no cell right that no mistake gives carries nothing") {
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"5", "7", "3"}};
  s.answers["q1"]["weights"].rows = {{"0.117", "0.867", "0.016"}};  // softmax of 5, 7, 3
  CHECK(!any_carried(part_of(grade(v, s), 0, Part::weights)));
}

TEST_CASE("carried credit needs an honest attempt: scores copied from another question carry nothing") {
  // q3's scores are 1, 2, 1; q1's 2, 0, 1 copied into q3 happen to be right in their last cell.
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q3"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q3"]["weights"].rows = {{"0.665", "0.090", "0.245"}};
  s.answers["q3"]["most_attended"].rows = {{"bus"}};
  const Marked m = grade(v, s);
  CHECK(!any_carried(part_of(m, 2, Part::weights)));
  CHECK(!any_carried(part_of(m, 2, Part::most_attended)));
}

TEST_CASE("carried credit needs an honest attempt: a row a named mistake gives carries, whatever its numbers") {
  // Hard attention, 1, 0, 0: the output is then bus's value, carried.
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q1"]["weights"].rows = {{"1", "0", "0"}};
  s.answers["q1"]["output"].rows = {{"10.00", "0.00"}};
  const Marked m = grade(v, s);
  CHECK(part_of(m, 0, Part::weights).diagnoses == std::vector<std::string>{"hard-attention"});
  CHECK(verdicts(part_of(m, 0, Part::output)) == std::vector<Verdict>{carried, carried});
}

TEST_CASE("where the student went off: every part that lost marks names the question's first wrong cell") {
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "2"}};
  s.answers["q1"]["weights"].rows = {{"0.468", "0.063", "0.468"}};
  s.answers["q1"]["output"].rows = {{"7.02", "2.97"}};
  const Marked m = grade(v, s);
  const std::string said = "Your working first goes wrong at scores · late: you wrote 2, which is not the query times the key.";
  for (Part p : {Part::scores, Part::weights, Part::output}) {
    const PartResult& part = part_of(m, 0, p);
    INFO(part_name(p));
    REQUIRE(part.went_off);
    CHECK(part.went_off->part == Part::scores);
    CHECK(part.went_off->label == "3");
    CHECK(part.went_off->given == "2");
    REQUIRE(!part.hints.empty());
    CHECK(part.hints[0] == said);
  }
  // A question all right says nothing of the kind.
  s.answers["q1"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q1"]["weights"].rows = {{"0.665", "0.090", "0.245"}};
  s.answers["q1"]["output"].rows = {{"7.88", "2.12"}};
  const Marked all_right = grade(v, s);
  for (const PartResult& part : all_right.questions[0].parts) CHECK(!part.went_off);
}

TEST_CASE("most attended: the right token with punctuation, quotes, its weight or in any case is right") {
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");  // q3: is
  for (const char* text : {"is", "IS", "is.", "'is'", "\"is\"", "\xE2\x80\x9Cis\xE2\x80\x9D", "is (0.576)", " Is! ",
                           "(is)", "token is", "is, with 0.576"}) {
    Submission s;
    s.answers["q3"]["most_attended"].rows = {{text}};
    INFO(text);
    const Marked marked_p = grade(v, s);

    const PartResult& p = part_of(marked_p, 2, Part::most_attended);
    CHECK(p.cells[0].verdict == right);
    CHECK(p.score == 1);
  }
}

TEST_CASE("most attended: a position number or two tokens is unreadable, with a hint to write the token's word") {
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"2", "'2' looks like a position; write the word of one token (bus, is or late)"},
      {"#2", "'#2' looks like a position; write the word of one token (bus, is or late)"},
      {"token 2", "'token 2' looks like a position; write the word of one token (bus, is or late)"},
      {"bus or is", "'bus or is' names more than one token; write the word of one token (bus, is or late)"},
  };
  for (const auto& [text, note] : cases) {
    Submission s;
    s.answers["q3"]["most_attended"].rows = {{text}};
    INFO(text);
    const Marked marked_p = grade(v, s);

    const PartResult& p = part_of(marked_p, 2, Part::most_attended);
    CHECK(p.cells[0].verdict == Verdict::unreadable);
    CHECK(p.cells[0].note == note);
    // Never the hint that the student picked the wrong token.
    for (const std::string& h : p.hints) CHECK(h.find("largest weight") == std::string::npos);
  }
  // "this" does not name "is".
  Submission s;
  s.answers["q3"]["most_attended"].rows = {{"this"}};
  CHECK(part_of(grade(v, s), 2, Part::most_attended).cells[0].verdict == wrong);
}

TEST_CASE("the weight window leans only towards the lesson's rounding, never to the far side of the exact weight") {
  // Scores −0.7, −0.8, −6: the exact third weight is 0.0026; the lesson's way
  // (e^score to 2 decimals: 0.50, 0.45, 0.00) gives 0.000. 0.005, as far
  // from 0.0026 on the other side, is no working's result.
  const Rubric rubric = one_token("[[-0.7, 0], [-0.8, 0], [-6, 0]]", ", decimals: 1");
  const Variant v = make_variant(rubric, 1, "s1");
  REQUIRE(v.questions[0].weights[0][2] == Approx(0.00261).epsilon(0).margin(1e-5));
  const auto third = [&](const char* w3) {
    Submission s;
    s.answers["q1"]["weights"].rows = {{"0.524", "0.474", w3}};
    return part_of(grade(v, s), 0, Part::weights).cells[2].verdict;
  };
  CHECK(third("0.000") == right);  // the lesson's way
  CHECK(third("0.002") == right);  // between the two
  CHECK(third("0.003") == right);  // exact, rounded
  CHECK(third("0.005") == wrong);  // the mirror of the lesson's way
  CHECK(third("0.004") == wrong);
}

TEST_CASE("the weight window and the worked table are overflow-safe: scores of 710 and 709") {
  const Rubric rubric = one_token("[[710, 0], [709, 0], [0, 0]]");
  const Variant v = make_variant(rubric, 1, "s1");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"710", "709", "0"}};
  s.answers["q1"]["weights"].rows = {{"0.731", "0.499", "0.000"}};
  CHECK(verdicts(part_of(grade(v, s), 0, Part::weights)) == std::vector<Verdict>{right, wrong, right});
  s.answers["q1"]["weights"].rows = {{"0.731", "0.269", "0.000"}};
  CHECK(part_of(grade(v, s), 0, Part::weights).score == 2);
  // The key subtracts the largest score, says so, and never prints inf.
  const std::string key = render_markdown(rubric, v, Sheet::key);
  CHECK(key.find("inf") == std::string::npos);
  CHECK(key.find("| a | 710 | 1.00 | 0.731 |") != std::string::npos);
  CHECK(key.find("| b | 709 | 0.37 | 0.269 |") != std::string::npos);
  CHECK(key.find("subtract the row's largest score from each score first") != std::string::npos);
  CHECK(softmax_shift(Vector{2, 0, 1}) == 0);
  CHECK(softmax_shift(Vector{710, 709, 0}) == 710);
  CHECK(softmax_shift(Vector{-800, -801, masked_score}) == -800);
}

TEST_CASE("coarse-right beats a mistake that fits only at fewer decimals") {
  const Rubric lesson = shipped("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q1"]["weights"].rows = {{"0.665", "0.090", "0.245"}};
  s.answers["q1"]["output"].rows = {{"7.9", "2.1"}};
  const Marked marked_o = grade(v, s);

  const PartResult& o = part_of(marked_o, 0, Part::output);
  CHECK(verdicts(o) == std::vector<Verdict>{coarse, coarse});
  CHECK(o.diagnoses.empty());
  CHECK(o.cells[0].note == "'7.9' is right to 1 decimal place; give 2");
  // Right weights to 2 decimals of 3 asked, on every variant of class-demo.
  const Rubric demo = shipped("class-demo");
  for (int i = 0; i < 40; ++i) {
    const Variant d = make_variant(demo, 2026, "s" + std::to_string(i));
    Submission c;
    std::vector<std::string> row;
    for (double w : d.questions[0].weights[0]) row.push_back(format_fixed(w, 2));
    c.answers["q1"]["weights"].rows = {row};
    const Marked marked_w = grade(d, c);

    const PartResult& w = part_of(marked_w, 0, Part::weights);
    INFO(i);
    CHECK(w.diagnoses.empty());
    for (const CellResult& cell : w.cells) CHECK((cell.verdict == coarse || cell.verdict == right));
  }
  // A whole-number weight is never right but coarse: 1, 0, 0 is hard attention.
  s.answers["q1"]["weights"].rows = {{"1", "0", "0"}};
  CHECK(part_of(grade(v, s), 0, Part::weights).diagnoses == std::vector<std::string>{"hard-attention"});
  CHECK(explain("rounded-early").find("too few decimals") != std::string_view::npos);
}
