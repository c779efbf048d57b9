// The grader (lesson/grader.h) marks like a human marker: tolerances from
// the asked rounding, partial credit, follow-through, masked scores and the
// most attended word. Each mistake's diagnosis: diagnosis_test.cpp.
#include "support/test_support.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/numbers.h"
#include "readers/answer_reader.h"
#include "readers/rubric_loader.h"

using namespace attnmark;

TEST_CASE("the lesson's own answers get full marks and no diagnosis") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q1"]["weights"].rows = {{"0.665", "0.090", "0.245"}};
  s.answers["q1"]["output"].rows = {{"7.88", "2.12"}};
  const Marked m = grade(v, s);
  CHECK(m.questions[0].score == 5);
  CHECK(m.questions[0].max_score == 5);
  CHECK(all_diagnoses(m).empty());
}

TEST_CASE("the lesson's rounding is accepted: 1.22 + 6.65 = 7.87, or 7.88, or 7.876") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  for (const char* x : {"7.87", "7.88", "7.876", "7.875"}) {
    Submission s;
    s.answers["q1"]["output"].rows = {{x, "2.12"}};
    INFO(x);
    CHECK(part_of(grade(v, s), 0, Part::output).cells[0].verdict == Verdict::correct);
  }
  for (const char* x : {"7.85", "7.90", "7.9"}) {
    Submission s;
    s.answers["q1"]["output"].rows = {{x, "2.12"}};
    INFO(x);
    CHECK(part_of(grade(v, s), 0, Part::output).cells[0].verdict != Verdict::correct);
  }
}

TEST_CASE("weights worked the lesson's way (e^score to 2 decimals) are accepted") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  // 7.39 / 11.11, 1.00 / 11.11, 2.72 / 11.11
  Submission s;
  s.answers["q1"]["weights"].rows = {{"0.665", "0.090", "0.245"}};
  CHECK(part_of(grade(v, s), 0, Part::weights).score == 2);
  s.answers["q1"]["weights"].rows = {{"0.66517", "0.09001", "0.24482"}};
  CHECK(part_of(grade(v, s), 0, Part::weights).score == 2);
}

TEST_CASE("student number spellings are read") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q1"]["weights"].rows = {{"66.5%", ".090", "0,245"}};
  s.answers["q1"]["scores"].rows = {{"+2", "−0", "4/4"}};
  const Marked m = grade(v, s);
  CHECK(part_of(m, 0, Part::weights).score == 2);
  const PartResult& scores = part_of(m, 0, Part::scores);
  CHECK(scores.cells[0].verdict == Verdict::correct);
  CHECK(scores.cells[1].verdict == Verdict::correct);
  CHECK(scores.cells[2].verdict == Verdict::correct);
}

TEST_CASE("partial credit per cell, unanswered and unreadable cells") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q1"]["weights"].rows = {{"0.665", "6.6.5", ""}};
  const Marked marked = grade(v, s);
  const PartResult& w = part_of(marked, 0, Part::weights);
  CHECK(w.score == Approx(2.0 / 3).epsilon(0).margin(1e-12));
  CHECK(w.cells[1].verdict == Verdict::unreadable);
  CHECK(w.cells[1].note == "could not read '6.6.5' as a number");
  CHECK(w.cells[2].verdict == Verdict::unanswered);
  CHECK(w.answered == 2);
}

TEST_CASE("a too-coarse answer is wrong but gets a precision hint") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q1"]["weights"].rows = {{"0.67", "0.090", "0.245"}};
  const Marked marked = grade(v, s);
  const PartResult& w = part_of(marked, 0, Part::weights);
  CHECK(w.cells[0].verdict == Verdict::imprecise);
  CHECK(w.cells[0].note == "'0.67' is right to 2 decimal places; give 3");
  CHECK(w.score == Approx(4.0 / 3).epsilon(0).margin(1e-12));
  INFO(fmt::format("{}", fmt::join(w.diagnoses, ",")));
  CHECK(w.diagnoses.empty());
}

TEST_CASE("follow-through: right method on wrong scores gets full credit and says so") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "1", "1"}};  // one slip
  const Matrix w = softmax_rows({{2, 1, 1}});
  s.answers["q1"]["weights"].rows = {texts(w[0], 3)};
  const Matrix o = mix_values(w, {{10, 0}, {0, 10}, {5, 5}});
  s.answers["q1"]["output"].rows = {texts(o[0], 2)};
  const Marked m = grade(v, s);
  CHECK(part_of(m, 0, Part::scores).score == Approx(2.0 / 3).epsilon(0).margin(1e-12));
  const PartResult& weights = part_of(m, 0, Part::weights);
  CHECK(weights.follow_through);
  CHECK(weights.score == 2);
  CHECK(std::find(weights.hints.begin(), weights.hints.end(), "correct method, carried from your scores") != weights.hints.end());
  const PartResult& output = part_of(m, 0, Part::output);
  CHECK(output.follow_through);
  CHECK(output.score == 2);
  CHECK(all_diagnoses(m).empty());
}

TEST_CASE("follow-through credit and all-or-nothing come from the rubric") {
  std::string text =
      "questions:\n"
      "  - task: one-token\n"
      "    tokens: [bus, is, late]\n"
      "    query_token: late\n"
      "    inputs: {query: [1, 0], keys: [[2, 1], [0, 2], [1, 1]], values: [[10, 0], [0, 10], [5, 5]]}\n"
      "    ask: [scores, weights]\n"
      "    marking:\n"
      "      scores: {marks: 3, credit: all-or-nothing}\n"
      "      weights: {marks: 2, follow_through_credit: 0.5}\n";
  const Rubric rubric = load_rubric(text, "ft.yaml");
  const Variant v = make_variant(rubric, 1, "s");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "1", "1"}};
  s.answers["q1"]["weights"].rows = {texts(softmax_rows({{2, 1, 1}})[0], 3)};
  const Marked m = grade(v, s);
  CHECK(part_of(m, 0, Part::scores).score == 0);
  CHECK(part_of(m, 0, Part::weights).score == 1);
  text.replace(text.find("follow_through_credit: 0.5"), 26, "follow_through: false     ");
  const Rubric off = load_rubric(text, "ft.yaml");
  CHECK(part_of(grade(make_variant(off, 1, "s"), s), 0, Part::weights).score == 0);
}

TEST_CASE("masked scores: any masked spelling is right, a number is wrong") {
  const Rubric rubric = shipped("scaled-causal");
  const Variant v = make_variant(rubric, 7, "s001");
  const QuestionVariant& q = v.questions[0];  // token 3 of 4 asks: key 4 is masked
  REQUIRE(q.scores[0][3] == masked_score);
  for (const char* spelling : {"", "-inf", "−∞", "masked", "x"}) {
    Submission s;
    std::vector<std::string> row = texts(q.scores[0], 1);
    row[3] = spelling;
    s.answers["q1"]["scores"].rows = {row};
    INFO("'" << spelling << "'");
    CHECK(part_of(grade(v, s), 0, Part::scores).score == 1);
  }
  Submission s;
  std::vector<std::string> row = texts(q.scores[0], 1);
  row[3] = "0.5";
  s.answers["q1"]["scores"].rows = {row};
  const Marked marked = grade(v, s);
  const PartResult& p = part_of(marked, 0, Part::scores);
  CHECK(p.cells[3].verdict == Verdict::wrong);
  CHECK(p.cells[3].note == "this key comes after the query's token, so its score is masked");
}

TEST_CASE("most attended: word, any case, carried from the student's weights") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q3"]["most_attended"].rows = {{" IS "}};
  CHECK(part_of(grade(v, s), 2, Part::most_attended).score == 1);
  s.answers["q3"]["most_attended"].rows = {{"cat"}};
  const Marked marked = grade(v, s);
  const PartResult& p = part_of(marked, 2, Part::most_attended);
  CHECK(p.score == 0);
  CHECK(p.cells[0].verdict == Verdict::wrong);
  CHECK(p.cells[0].note == "'cat' is not one of the tokens; write the word of one token (bus, is or late)");
  // 0.2 is 0.212 to the decimal written: an attempt, so its top token is carried.
  s.answers["q3"]["weights"].rows = {{"0.6", "0.2", "0.2"}};
  s.answers["q3"]["most_attended"].rows = {{"bus"}};
  CHECK(part_of(grade(v, s), 2, Part::most_attended).follow_through);
}

TEST_CASE("answers the rubric has no place for are noted") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q9"]["scores"].rows = {{"1"}};
  s.answers["q1"]["keys"].rows = {{"1"}};
  const Marked m = grade(v, s);
  CHECK(m.notes == std::vector<std::string>{"q1.keys is not asked in this rubric and was not marked",
                                            "answers for 'q9', which this rubric does not have, were not marked"});
  CHECK(m.answered == 0);
}

TEST_CASE("properties over every shipped rubric and many seeds: key answers get full marks") {
  for (const char* name : {"lesson", "one-token", "all-tokens", "scaled-causal", "projections"}) {
    const Rubric rubric = shipped(name);
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
      const Variant v = make_variant(rubric, seed, "s" + std::to_string(seed));
      const Marked m = grade(v, from_key(v));
      INFO(name << " seed " << seed);
      REQUIRE(m.score == Approx(m.max_score).epsilon(0).margin(1e-9));
      REQUIRE(all_diagnoses(m).empty());
    }
  }
}

// ---- issue: the lesson's common mistake, and ties --------------------------------------

TEST_CASE("hard attention written as whole numbers (1, 0, 0) is diagnosed hard-attention, never too few decimals") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q1"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q1"]["weights"].rows = {{"1", "0", "0"}};
  s.answers["q1"]["output"].rows = {{"10", "0"}};
  const Marked m = grade(v, s);
  const PartResult& weights = part_of(m, 0, Part::weights);
  CHECK(weights.score == 0);
  CHECK(weights.diagnoses == std::vector<std::string>{"hard-attention"});
  for (const CellResult& c : weights.cells) {
    CHECK(c.verdict == Verdict::wrong);
    CHECK(c.note.empty());
  }
  for (const std::string& h : weights.hints) CHECK(h.find("decimal place") == std::string::npos);
  // The output follows from the student's own (one-hot) weights.
  const PartResult& output = part_of(m, 0, Part::output);
  CHECK(output.score == 2);
  CHECK(output.cells[0].verdict == Verdict::carried);
  CHECK(output.cells[1].verdict == Verdict::carried);
}

TEST_CASE("hard attention as whole numbers is named on every shipped rubric, for every asked row") {
  int checked = 0;
  for (const char* name : {"lesson", "one-token", "all-tokens", "scaled-causal", "projections", "class-demo"}) {
    const Rubric rubric = shipped(name);
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const Variant v = make_variant(rubric, seed, "s" + std::to_string(seed));
      Submission s = from_key(v);
      for (const QuestionVariant& q : v.questions) {
        if (!q.spec->marking.count(Part::weights)) continue;
        PartAnswer& a = s.answers[q.spec->id]["weights"];
        for (std::size_t r = 0; r < q.weights.size(); ++r) {
          const std::size_t top = static_cast<std::size_t>(
              std::max_element(q.weights[r].begin(), q.weights[r].end()) - q.weights[r].begin());
          for (std::size_t c = 0; c < a.rows[r].size(); ++c) a.rows[r][c] = c == top ? "1" : "0";
        }
      }
      const Marked m = grade(v, s);
      for (std::size_t qi = 0; qi < v.questions.size(); ++qi) {
        if (!v.questions[qi].spec->marking.count(Part::weights)) continue;
        INFO(name << " seed " << seed << " " << v.questions[qi].spec->id);
        const PartResult& weights = part_of(m, qi, Part::weights);
        if (weights.score == weights.max_score) continue;  // one-hot is the answer here
        CHECK(std::find(weights.diagnoses.begin(), weights.diagnoses.end(), "hard-attention") != weights.diagnoses.end());
        for (const CellResult& c : weights.cells) CHECK(c.verdict != Verdict::imprecise);
        ++checked;
      }
    }
  }
  CHECK(checked > 200);
}

TEST_CASE("right weights to fewer decimals than asked stay 'too few decimals', not a named mistake") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q1"]["weights"].rows = {{"0.67", "0.09", "0.24"}};
  const Marked m = grade(v, s);
  const PartResult& weights = part_of(m, 0, Part::weights);
  CHECK(weights.diagnoses.empty());
  CHECK(weights.cells[0].verdict == Verdict::imprecise);
  CHECK(weights.cells[0].note == "'0.67' is right to 2 decimal places; give 3");
}

TEST_CASE("when the student's own weights tie for the top, any tied token is the most attended") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  const QuestionVariant& q = v.questions[2];  // q3: weights, then the most attended word
  REQUIRE(q.spec->marking.count(Part::most_attended));
  REQUIRE(q.tokens.size() == 3);
  for (std::size_t first = 0; first < 3; ++first)
    for (std::size_t second = first + 1; second < 3; ++second)
      for (std::size_t pick : {first, second}) {
        // An honest slip: the two tokens' scores 3 (one of them wrong), the
        // third right; the weights are the softmax of those, tied at the top.
        Submission s;
        Vector scores = q.scores[0];
        scores[first] = scores[second] = 3;
        Vector weights;
        softmax_into(scores, weights);
        std::vector<std::string> score_row, row;
        for (double x : scores) score_row.push_back(format_exact(x));
        for (double x : weights) row.push_back(format_fixed(x, 3));
        s.answers[q.spec->id]["scores"].rows = {score_row};
        s.answers[q.spec->id]["weights"].rows = {row};
        s.answers[q.spec->id]["most_attended"].rows = {{q.tokens[pick]}};
        const Marked m = grade(v, s);
        const PartResult& word = part_of(m, 2, Part::most_attended);
        INFO("tie " << first << "," << second << " pick " << pick);
        CHECK(word.cells[0].verdict != Verdict::wrong);
        CHECK(word.score > 0);
      }
  // A token not among the tied ones is still wrong.
  Submission s;
  s.answers[q.spec->id]["weights"].rows = {{"0.500", "0.500", "0.000"}};
  s.answers[q.spec->id]["most_attended"].rows = {{q.tokens[2]}};
  CHECK(part_of(grade(v, s), 2, Part::most_attended).cells[0].verdict == Verdict::wrong);
}

TEST_CASE("an output worked the lesson's way from accepted lesson-rounded weights gets full marks, never rounded-early") {
  // The lesson's table: e^score to 2 decimals, each divided by their total,
  // the weights rounded as asked; then each weight × value rounded, summed,
  // and the sum rounded as asked.
  int checked = 0;
  for (const char* name : {"lesson", "one-token", "all-tokens", "scaled-causal", "class-demo"}) {
    const Rubric rubric = shipped(name);
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const Variant v = make_variant(rubric, seed, "s" + std::to_string(seed));
      Submission s = from_key(v);
      for (const QuestionVariant& q : v.questions) {
        if (!q.spec->marking.count(Part::weights) || !q.spec->marking.count(Part::output)) continue;
        const int sd = q.spec->decimals(Part::scores), wd = q.spec->decimals(Part::weights),
                  od = q.spec->decimals(Part::output);
        Matrix weights, output;
        for (const Vector& scores : q.scores) {
          Vector powers;
          double total = 0;
          for (double x : scores) {
            powers.push_back(x == masked_score ? 0.0 : round_to(portable_exp(round_to(x, sd)), 2));
            total += powers.back();
          }
          Vector w;
          for (double e : powers) w.push_back(round_to(e / total, wd));
          Vector o;
          for (std::size_t c = 0; c < q.values[0].size(); ++c) {
            double sum = 0;
            for (std::size_t j = 0; j < w.size(); ++j) sum += round_to(w[j] * q.values[j][c], od);
            o.push_back(round_to(sum, od));
          }
          weights.push_back(w);
          output.push_back(o);
        }
        put(s, q, Part::weights, weights);
        put(s, q, Part::output, output);
      }
      const Marked m = grade(v, s);
      for (std::size_t qi = 0; qi < v.questions.size(); ++qi) {
        const QuestionSpec& spec = *v.questions[qi].spec;
        if (!spec.marking.count(Part::weights) || !spec.marking.count(Part::output)) continue;
        INFO(name << " seed " << seed << " " << spec.id);
        const PartResult& w = part_of(m, qi, Part::weights);
        if (w.score != w.max_score) continue;  // the weights' own window is another matter
        const PartResult& o = part_of(m, qi, Part::output);
        CHECK(o.score == o.max_score);
        CHECK(o.diagnoses.empty());
        ++checked;
      }
    }
  }
  CHECK(checked > 200);
}

TEST_CASE("a part with the wrong number of values says so, and stray values never get full marks") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  {
    Submission s;
    s.answers["q1"]["output"].rows = {{"7.88", "2.12", "5", "6"}};
    const Marked m = grade(v, s);
    const PartResult& output = part_of(m, 0, Part::output);
    CHECK(output.score < output.max_score);
    CHECK(output.score == 1);  // two right cells of four written: 2 marks × 2/4
    REQUIRE(!output.hints.empty());
    CHECK(output.hints[0] == "output has 2 values; you wrote 4");
  }
  {
    Submission s;
    s.answers["q1"]["output"].rows = {{"7.88"}};
    const Marked m = grade(v, s);
    const PartResult& output = part_of(m, 0, Part::output);
    CHECK(output.cells[1].verdict == Verdict::unanswered);
    REQUIRE(!output.hints.empty());
    CHECK(output.hints[0] == "output has 2 values; you wrote 1");
  }
  {
    // Blanks past the end are no values.
    Submission s;
    s.answers["q1"]["output"].rows = {{"7.88", "2.12", "~"}};
    const Marked m = grade(v, s);
    CHECK(part_of(m, 0, Part::output).score == 2);
    CHECK(part_of(m, 0, Part::output).hints.empty());
  }
  {
    // A matrix part: a row too many.
    Submission s = from_key(v);
    s.answers["q2"]["scores"].rows.push_back({"1", "2", "3"});
    const Marked m = grade(v, s);
    const PartResult& scores = part_of(m, 1, Part::scores);
    CHECK(scores.score < scores.max_score);
    REQUIRE(!scores.hints.empty());
    CHECK(scores.hints[0] == "scores has 3 rows, one per query; you wrote 4");
  }
}

TEST_CASE("precision is never inverted: coarse weights earn no more downstream than precise ones") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  const auto q1 = [&](const char* w1, const char* w2, const char* w3) {
    Submission s;
    s.answers["q1"]["scores"].rows = {{"2", "0", "1"}};
    s.answers["q1"]["weights"].rows = {{w1, w2, w3}};
    s.answers["q1"]["output"].rows = {{"7.9", "2.1"}};
    return grade(v, s).questions[0];
  };
  const QuestionResult precise = q1("0.665", "0.090", "0.245");
  const QuestionResult coarse = q1("0.67", "0.09", "0.24");
  CHECK(precise.score >= coarse.score);
  // The output, 7.9 and 2.1 for 7.876 and 2.124, is the right output to 1
  // decimal (rounding the weights early gives it too, but only at the
  // student's 1 decimal): too few decimals after either, no marks, no mistake named.
  CHECK(precise.parts[2].score == 0);
  CHECK(coarse.parts[2].score == 0);
  CHECK(precise.parts[2].diagnoses.empty());
  CHECK(coarse.parts[2].diagnoses.empty());
  CHECK(precise.parts[2].cells[0].verdict == Verdict::imprecise);
  CHECK(coarse.parts[2].cells[1].verdict == Verdict::imprecise);
  CHECK(precise.parts[2].cells[0].note == "'7.9' is right to 1 decimal place; give 2");
  // Weights that are wrong (not merely rounded) are still carried from.
  const QuestionResult carried = q1("0.5", "0.2", "0.3");
  CHECK(carried.parts[1].score == 0);
}

TEST_CASE("decimal commas in a YAML list, six numbers to YAML for three weights, are read as decimal commas, with a note") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  // What the answer reader makes of `weights: [0,665, 0,090, 0,245]`.
  const Submission s = read_answer_file(
      "student: s001\nseed: 2026\nanswers:\n  q1:\n    weights: [0,665, 0,090, 0,245]\n    output: [7,88, 2,12]\n",
      "s001.yaml", ReadLimits{});
  REQUIRE(s.answers.at("q1").at("weights").rows[0].size() == 6);
  const Marked m = grade(v, s);
  const PartResult& weights = part_of(m, 0, Part::weights);
  CHECK(weights.score == 2);
  REQUIRE(!weights.hints.empty());
  CHECK(weights.hints[0] ==
        "weights: YAML reads a decimal comma as a list comma, so these 6 numbers were read as 3 with decimal commas "
        "(0,665, 0,090, 0,245); write 0.665, or quote \"0,665\"");
  CHECK(part_of(m, 0, Part::output).score == 2);
  // Not pairs of digits: the count is wrong, and said so.
  Submission odd;
  odd.answers["q1"]["weights"].rows = {{"0.5", "665", "0", "090", "0", "245"}};
  const Marked mo = grade(v, odd);
  REQUIRE(!part_of(mo, 0, Part::weights).hints.empty());
  CHECK(part_of(mo, 0, Part::weights).hints[0] == "weights has 3 values; you wrote 6");
}

TEST_CASE("a reader's other reading of a part is marked when it holds exactly the part's values, its note first") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  PartAnswer& weights = s.answers["q1"]["weights"];
  weights.rows = {{"0", "665", "0", "090", "0", "245"}};
  weights.other_reading = PartAnswer::OtherReading{{"0,665", "0,090", "0,245"}, "weights: read another way"};
  PartAnswer& output = s.answers["q1"]["output"];
  output.rows = {{"7", "88", "2", "12"}};
  output.other_reading = PartAnswer::OtherReading{{"7,88", "2,12", "5"}, "output: read another way"};
  const Marked m = grade(v, s);
  const PartResult& w = part_of(m, 0, Part::weights);
  CHECK(w.score == 2);
  CHECK(w.cells[0].given == "0,665");
  CHECK(w.hints == std::vector<std::string>{"weights: read another way"});
  // Three values for a part of two: the cells as read are marked.
  const PartResult& o = part_of(m, 0, Part::output);
  CHECK(o.score == 0);
  CHECK(o.cells[0].given == "7");
  REQUIRE(!o.hints.empty());
  CHECK(o.hints[0] == "output has 2 values; you wrote 4");
}

TEST_CASE("misspelt parts and questions in an answer file get 'did you mean', as rubric errors do") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q1"]["weigths"].rows = {{"0.665", "0.090", "0.245"}};
  s.answers["q 1"]["scores"].rows = {{"2", "0", "1"}};
  s.answers["q9"]["scores"].rows = {{"2", "0", "1"}};
  const Marked m = grade(v, s);
  CHECK(m.notes == std::vector<std::string>{
                       "answers for 'q 1', which this rubric does not have, were not marked (did you mean 'q1'?)",
                       "q1.weigths is not asked in this rubric and was not marked (did you mean 'weights'?)",
                       "answers for 'q9', which this rubric does not have, were not marked",
                   });
}

TEST_CASE("right answers in every spelling students use get full marks and no diagnosis, on every shipped rubric") {
  // Each spelling rewrites the key's cells as a student might type them.
  const auto respell = [](Submission& s, const std::function<std::string(const std::string&, const std::string&)>& f) {
    for (auto& [question, parts] : s.answers)
      for (auto& [part, answer] : parts)
        if (part != "most_attended")
          for (auto& row : answer.rows)
            for (std::string& cell : row)
              if (cell != "masked") cell = f(part, cell);
  };
  const std::vector<std::pair<std::string, std::function<std::string(const std::string&, const std::string&)>>> spellings = {
      {"decimal comma", [](const std::string&, const std::string& c) {
         std::string out = c;
         std::replace(out.begin(), out.end(), '.', ',');
         return out;
       }},
      {"percent weights", [](const std::string& part, const std::string& c) {
         if (part != "weights") return c;
         const double x = std::stod(c) * 100;
         const std::size_t dot = c.find('.');
         const int decimals = dot == std::string::npos ? 0 : static_cast<int>(c.size() - dot - 1);
         return format_fixed(x, std::max(0, decimals - 2)) + "%";
       }},
      {"spaces and a plus sign", [](const std::string&, const std::string& c) {
         return c[0] == '-' ? " \u2212" + c.substr(1) + " " : " +" + c + " ";
       }},
      {"whole numbers as fractions", [](const std::string&, const std::string& c) {
         return c.find('.') == std::string::npos && c[0] != '-' ? std::to_string(std::stoll(c) * 2) + "/2" : c;
       }},
  };
  int checked = 0;
  for (const char* name : {"lesson", "one-token", "all-tokens", "scaled-causal", "projections", "class-demo"}) {
    const Rubric rubric = shipped(name);
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      const Variant v = make_variant(rubric, seed, "s" + std::to_string(seed));
      for (const auto& [spelling, f] : spellings) {
        Submission s = from_key(v);
        respell(s, f);
        const Marked m = grade(v, s);
        INFO(name << " seed " << seed << " spelling: " << spelling);
        CHECK(m.score == m.max_score);
        CHECK(all_diagnoses(m).empty());
        ++checked;
      }
    }
  }
  CHECK(checked == 6 * 10 * 4);
}

TEST_CASE("cells are named by their tokens for people: weights · late, scores · is → bus") {
  const std::vector<std::string> tokens = {"bus", "is", "late"};
  CHECK(cell_name(tokens, {2}, Part::weights, "3") == "late");
  CHECK(cell_name(tokens, {0, 1, 2}, Part::scores, "2.1") == "is → bus");
  CHECK(cell_name(tokens, {2}, Part::output, "2") == "2");
  CHECK(cell_name(tokens, {0, 1, 2}, Part::output, "3.1") == "late, 1");
  CHECK(cell_name(tokens, {2}, Part::keys, "1.2") == "bus, 2");
  CHECK(cell_name(tokens, {2}, Part::most_attended, "") == "");
  CHECK(cell_name(tokens, {0, 1, 2}, Part::most_attended, "2") == "is");
  // In a hint.
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q2"]["scores"].rows = {{"2", "0", "1"}, {"0", "4", "2"}, {"1", "2", "abc"}};
  const Marked m = grade(v, s);
  const std::vector<std::string>& hints = part_of(m, 1, Part::scores).hints;
  CHECK(std::find(hints.begin(), hints.end(), "scores · late → late: could not read 'abc' as a number") != hints.end());
}
