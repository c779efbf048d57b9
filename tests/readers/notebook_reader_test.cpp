// The notebook reader on exact inputs: what each answer cell becomes (typed
// literals, computed values from stored outputs, never anything run), every
// unreadable reason word for word, and the same marks as an answer file.
#include "support/test_support.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/variant.h"
#include "readers/answer_reader.h"
#include "readers/notebook_reader.h"
#include "writers/notebook_writer.h"

using attnmark::read_notebook;
using attnmark::ReadLimits;
using attnmark::Submission;

namespace {

using Json = nlohmann::json;
using Rows = std::vector<std::vector<std::string>>;

Json header_cell(const std::string& student = "s001") {
  return {{"cell_type", "markdown"}, {"id", "header"}, {"source", "# worksheet"},
          {"metadata", {{"attnmark", {{"rubric", "lesson"}, {"student", student}, {"seed", 2026}}}}}};
}

// An answer cell for `part` ("q1.weights") with `source` and `outputs`.
Json answer_cell(const std::string& part, const std::string& source, Json outputs = Json::array()) {
  static int n = 0;
  return {{"cell_type", "code"}, {"id", "c" + std::to_string(++n)}, {"source", source}, {"execution_count", nullptr},
          {"outputs", std::move(outputs)}, {"metadata", {{"attnmark", {{"part", part}}}}}};
}

Json result(const std::string& text) {
  return Json::array({{{"output_type", "execute_result"}, {"execution_count", 1}, {"metadata", Json::object()},
                       {"data", {{"text/plain", text}}}}});
}

std::string notebook(Json cells) {
  return Json{{"nbformat", 4}, {"nbformat_minor", 5}, {"metadata", Json::object()}, {"cells", std::move(cells)}}.dump();
}

Submission read(Json cells) { return read_notebook(notebook(std::move(cells)), "s001.ipynb"); }

const std::string& part_unreadable(const Submission& s, const std::string& q, const std::string& part) {
  return s.answers.at(q).at(part).unreadable;
}

}  // namespace

TEST_CASE("notebook: the header and typed answers are read as an answer file's") {
  const Submission s = read({header_cell(),
                             answer_cell("q1.scores", "# scores\nq1_scores = [2, -0, +1]\nq1_scores\n"),
                             answer_cell("q1.weights", "q1_weights = (\"2/3\", .09, 0.245)  # typed\nq1_weights"),
                             answer_cell("q1.output", "q1_output = np.array([7.88, 2.12], dtype=float)\n"),
                             answer_cell("q2.scores", "q2_scores = [\n  [1, 2, 1],\n  [3, 2, 2],\n  [2, None, 1],\n]\n"),
                             answer_cell("q2.weights", "q2_weights = [[1/3, 2e-1, '0,5']]\n"),
                             answer_cell("q3.most_attended", "q3_most_attended = 'is'\n"),
                             answer_cell("q3.scores", "# nothing yet\n")});
  CHECK(s.unreadable.empty());
  CHECK(s.student == "s001");
  CHECK(s.rubric == "lesson");
  CHECK(s.seed == 2026u);
  CHECK(s.notes.empty());
  CHECK(cells(s, "q1", "scores") == Rows{{"2", "-0", "1"}});
  CHECK(cells(s, "q1", "weights") == Rows{{"2/3", ".09", "0.245"}});
  CHECK(cells(s, "q1", "output") == Rows{{"7.88", "2.12"}});
  CHECK(cells(s, "q2", "scores") == Rows{{"1", "2", "1"}, {"3", "2", "2"}, {"2", "", "1"}});
  CHECK(cells(s, "q2", "weights") == Rows{{"1/3", "2e-1", "0,5"}});
  CHECK(cells(s, "q3", "most_attended") == Rows{{"is"}});
  CHECK(cells(s, "q3", "scores") == Rows{{""}});
}

TEST_CASE("notebook: a list of pairs of digits is offered as decimal commas, as an answer file's is") {
  const Submission s = read({header_cell(), answer_cell("q1.weights", "q1_weights = [0,5, 0,25]\n")});
  CHECK(cells(s, "q1", "weights") == Rows{{"0", "5", "0", "25"}});
  const auto& joined = s.answers.at("q1").at("weights").other_reading;
  REQUIRE(joined);
  CHECK(joined->row == std::vector<std::string>{"0,5", "0,25"});
  CHECK(joined->note ==
        "weights: YAML reads a decimal comma as a list comma, so these 4 numbers were read as 2 with decimal commas "
        "(0,5, 0,25); write 0.665, or quote \"0,665\"");
}

TEST_CASE("notebook: a computed answer is its stored output, never run") {
  const Json printed = Json::array({{{"output_type", "stream"}, {"name", "stdout"}, {"text", {"[[0.21194156 0.57611688 0.21194156]\n", " [0.665 nan 0.245]]\n"}}}});
  const Submission s = read({header_cell(),
                             answer_cell("q1.weights", "q1_weights = softmax(q1_scores)\nq1_weights",
                                         result("array([0.66524096, 0.09003057, 0.24472847])")),
                             answer_cell("q2.weights", "print(softmax(Q @ K.T))", printed),
                             answer_cell("q2.output", "q2_output = __import__('os').system('false')\nq2_output", result("0")),
                             answer_cell("q3.most_attended", "q3_most_attended = tokens[1]\nq3_most_attended", result("'is'")),
                             answer_cell("q1.output", "q1_output = mix(q1_weights, V)", result("not a number at all"))});
  CHECK(s.unreadable.empty());
  CHECK(cells(s, "q1", "weights") == Rows{{"0.66524096", "0.09003057", "0.24472847"}});
  CHECK(cells(s, "q2", "weights") == Rows{{"0.21194156", "0.57611688", "0.21194156"}, {"0.665", "nan", "0.245"}});
  CHECK(cells(s, "q2", "output") == Rows{{"0"}});
  CHECK(cells(s, "q3", "most_attended") == Rows{{"is"}});
  CHECK(cells(s, "q1", "output") == Rows{{"not a number at all"}});
}

TEST_CASE("notebook: a computed answer without output is unreadable, and says to run the notebook") {
  const Json error = Json::array({{{"output_type", "error"}, {"ename", "NameError"}, {"evalue", "x"}, {"traceback", Json::array()}}});
  const Submission s = read({header_cell(), answer_cell("q1.scores", "q1_scores = [2, 0, 1]"),
                             answer_cell("q1.weights", "q1_weights = softmax(scores)\nq1_weights"),
                             answer_cell("q1.output", "q1_output = mix(w, V)\nq1_output", error)});
  CHECK(s.unreadable.empty());
  CHECK(part_unreadable(s, "q1", "scores").empty());
  CHECK(part_unreadable(s, "q1", "weights") ==
        "run the notebook before handing it in (q1_weights is computed, and the notebook has no output for it)");
  CHECK(part_unreadable(s, "q1", "output") ==
        "q1_output is computed, and its cell stopped with an error (NameError); fix it and run the notebook again");
  CHECK(s.notes == std::vector<std::string>{
                       "run the notebook before handing it in (q1_weights is computed, and the notebook has no output for it)"});

  // Marked: every cell of the part is unreadable with that sentence, and counts as written.
  const attnmark::Rubric lesson = shipped("lesson");
  const attnmark::Marked m = attnmark::grade(attnmark::make_variant(lesson, 2026, "s001"), s);
  const attnmark::PartResult& weights = part_of(m, 0, attnmark::Part::weights);
  REQUIRE(weights.cells.size() == 3);
  for (const attnmark::CellResult& c : weights.cells) {
    CHECK(c.verdict == attnmark::Verdict::unreadable);
    CHECK(c.note == "run the notebook before handing it in (q1_weights is computed, and the notebook has no output for it)");
  }
  CHECK(weights.answered == 3);
  // Said once for the part, and no count of values the student never wrote.
  CHECK(weights.hints == std::vector<std::string>{
                             "weights: run the notebook before handing it in (q1_weights is computed, and the notebook "
                             "has no output for it)"});
  CHECK(part_of(m, 0, attnmark::Part::scores).score == 1);
}

TEST_CASE("notebook: two computed answers without output are named together in the note") {
  const Submission s = read({header_cell(), answer_cell("q1.scores", "q1_scores = q @ K.T"),
                             answer_cell("q1.weights", "q1_weights = softmax(q1_scores)")});
  CHECK(s.notes == std::vector<std::string>{"run the notebook before handing it in (q1_scores, q1_weights are computed, "
                                            "and the notebook has no output for them)"});
}

TEST_CASE("notebook: a tuple without brackets and an annotated assignment are literals") {
  const Submission s = read({header_cell(), answer_cell("q1.scores", "q1_scores = 2, 0, 1,"),
                             answer_cell("q1.weights", "q1_weights: list = 0.665, 0.090, 0.245"),
                             answer_cell("q1.output", "q1_output: list[float] = [7.88, 2.12]\nq1_output")});
  CHECK(cells(s, "q1", "scores") == Rows{{"2", "0", "1"}});
  CHECK(cells(s, "q1", "weights") == Rows{{"0.665", "0.090", "0.245"}});
  CHECK(cells(s, "q1", "output") == Rows{{"7.88", "2.12"}});
  CHECK(part_unreadable(s, "q1", "weights").empty());
  // A comma that leaves something else behind is not a literal.
  const Submission t = read({header_cell(), answer_cell("q1.scores", "q1_scores = 2, 0, f(1)")});
  CHECK(part_unreadable(t, "q1", "scores") ==
        "run the notebook before handing it in (q1_scores is computed, and the notebook has no output for it)");
}

TEST_CASE("notebook: a computed answer shown with display() is read from its display_data") {
  const Json shown = Json::array({{{"output_type", "display_data"}, {"metadata", Json::object()},
                                   {"data", {{"text/plain", "[0.665, 0.09, 0.245]"}}}}});
  const Json printed_too = Json::array({{{"output_type", "stream"}, {"name", "stdout"}, {"text", "working...\n"}},
                                        shown[0]});
  const Submission s = read({header_cell(), answer_cell("q1.weights", "q1_weights = softmax(s)\ndisplay(q1_weights)", shown),
                             answer_cell("q1.output", "q1_output = mix(w, V)\nprint('working...')\ndisplay(q1_output)",
                                         printed_too)});
  CHECK(cells(s, "q1", "weights") == Rows{{"0.665", "0.09", "0.245"}});
  CHECK(cells(s, "q1", "output") == Rows{{"0.665", "0.09", "0.245"}});
}

TEST_CASE("notebook: a statement besides the assignment makes the answer computed") {
  const Submission s = read({header_cell(), answer_cell("q1.scores", "q1_scores = [2, 0, 1]\nq1_scores.append(5)\nq1_scores",
                                                        result("[2, 0, 1, 5]")),
                             answer_cell("q1.weights", "q1_weights = [0.665, 0.09, 0.245]\nprint(q1_weights)")});
  CHECK(cells(s, "q1", "scores") == Rows{{"2", "0", "1", "5"}});
  CHECK(part_unreadable(s, "q1", "weights") ==
        "run the notebook before handing it in (q1_weights is computed, and the notebook has no output for it)");
}

TEST_CASE("notebook: files that cannot be read, with their reasons") {
  const auto reason = [](const std::string& text, const ReadLimits& limits = {}) {
    return read_notebook(text, "x.ipynb", limits).unreadable;
  };
  CHECK(reason("{\"nbformat\": 4, \"cells\": [") == "line 1, column 27: JSON syntax: unexpected end of input; expected '[', '{', or a literal");
  CHECK(reason("{\"nbformat\": 3, \"worksheets\": []}") == "nbformat 3 notebook; open it in Jupyter and save it (nbformat 4)");
  CHECK(reason("[1, 2]") == "not a Jupyter notebook: expected a JSON object with nbformat and cells");
  CHECK(reason("{\"nbformat\": 4, \"cells\": {}}") == "not a Jupyter notebook: expected a JSON object with nbformat and cells");
  CHECK(reason(notebook(Json::array({header_cell()}))) ==
        "the notebook has no answer cells (cells whose metadata.attnmark.part names a part); hand in the notebook attnmark generated");
  CHECK(reason(notebook(Json::array({header_cell("s01"), answer_cell("q1.scores", "q1_scores = 1"), header_cell("s02")}))) ==
        "two header cells name different students ('s01' and 's02'); hand in your own notebook");
  CHECK(reason(std::string("{\"nbformat\": 4, \"cells\": [\"\0\"]}", 28)) == "binary file (contains NUL bytes)");
  CHECK(reason("{\"nbformat\": 4, \"cells\": [\"caf\xE9\"]}") == "not UTF-8 text (byte 0xE9 at line 1); save the file as UTF-8");
  ReadLimits small;
  small.max_file_bytes = 100;
  CHECK(reason(notebook(Json::array({header_cell(), answer_cell("q1.scores", "q1_scores = 1")})), small).starts_with("file is "));
  CHECK(reason("{\"nbformat\": 4, \"nbformat\": 4, \"cells\": []}") == "duplicate key 'nbformat'");
}

TEST_CASE("notebook: deep JSON and deep literals are refused without recursion to the bottom") {
  const std::string deep = "{\"nbformat\": 4, \"cells\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK(read_notebook(deep, "deep.ipynb").unreadable == "nested deeper than 64 levels");
  // A literal nested deeper than answers ever are is not a literal: computed, without output.
  const std::string nested = "q1_scores = " + std::string(50000, '[') + std::string(50000, ']');
  const Submission s = read({header_cell(), answer_cell("q1.scores", nested)});
  CHECK(part_unreadable(s, "q1", "scores") ==
        "run the notebook before handing it in (q1_scores is computed, and the notebook has no output for it)");
}

TEST_CASE("notebook: the generated key reads back as full marks, the worksheet as blank, and as its answer file does") {
  const attnmark::Rubric lesson = shipped("lesson");
  const attnmark::Variant v = attnmark::make_variant(lesson, 2026, "s001");
  const Submission key = read_notebook(attnmark::render_notebook(lesson, v, attnmark::Sheet::key), "key.ipynb");
  REQUIRE(key.unreadable.empty());
  CHECK(key.variant == v.id_text());
  const attnmark::Marked full = attnmark::grade(v, key);
  CHECK(full.score == full.max_score);
  const Submission blank = read_notebook(attnmark::render_notebook(lesson, v, attnmark::Sheet::worksheet), "ws.ipynb");
  REQUIRE(blank.unreadable.empty());
  CHECK(attnmark::grade(v, blank).answered == 0);

  // The same answers in a notebook and in a YAML answer file: the same cells, the same marks.
  const Submission nb = read({header_cell(), answer_cell("q1.scores", "q1_scores = [2, 0, 1]"),
                              answer_cell("q1.weights", "q1_weights = [1, 0, 0]"),
                              answer_cell("q1.output", "q1_output = [10, 0]")});
  const Submission yaml = attnmark::read_answer_file(
      "rubric: lesson\nstudent: s001\nseed: 2026\nanswers:\n  q1:\n    scores: [2, 0, 1]\n    weights: [1, 0, 0]\n    output: [10, 0]\n",
      "s001.yaml");
  CHECK(nb.answers.at("q1").at("weights").rows == yaml.answers.at("q1").at("weights").rows);
  const attnmark::Marked a = attnmark::grade(v, nb), b = attnmark::grade(v, yaml);
  CHECK(a.score == b.score);
  CHECK(part_of(a, 0, attnmark::Part::weights).diagnoses == std::vector<std::string>{"hard-attention"});
  CHECK(part_of(a, 0, attnmark::Part::weights).diagnoses == part_of(b, 0, attnmark::Part::weights).diagnoses);
}

TEST_CASE("notebook: the notebook's own metadata holds the header when the header cell is gone") {
  const Json header = header_cell("s007")["metadata"]["attnmark"];
  Json nb = {{"nbformat", 4}, {"nbformat_minor", 5}, {"metadata", {{"attnmark", header}}},
             {"cells", Json::array({answer_cell("q1.scores", "q1_scores = [2, 0, 1]")})}};
  const Submission s = read_notebook(nb.dump(), "s007.ipynb");
  CHECK(s.unreadable.empty());
  CHECK(s.student == "s007");
  CHECK(s.seed == 2026u);
  // A header cell and the notebook's metadata naming different students: a classmate's cell pasted in.
  nb["cells"].push_back(header_cell("s008"));
  CHECK(read_notebook(nb.dump(), "s007.ipynb").unreadable ==
        "two header cells name different students ('s008' and 's007'); hand in your own notebook");
}

TEST_CASE("notebook: when it was handed in, from the header or the notebook's own metadata") {
  // A tool that collects notebooks records the time in the notebook's metadata, beside a header cell.
  Json nb = {{"nbformat", 4}, {"nbformat_minor", 5},
             {"metadata", {{"attnmark", {{"submitted", "2026-12-01T10:02:00Z"}}}}},
             {"cells", Json::array({header_cell("s007"), answer_cell("q1.scores", "q1_scores = [2, 0, 1]")})}};
  Submission s = read_notebook(nb.dump(), "s007.ipynb");
  CHECK(s.unreadable.empty());
  CHECK(s.student == "s007");
  CHECK(s.submitted == "2026-12-01T10:02:00Z");
  CHECK(s.notes.empty());
  // The header's own time comes first.
  nb["cells"][0]["metadata"]["attnmark"]["submitted"] = "2026-12-02T08:00:00Z";
  s = read_notebook(nb.dump(), "s007.ipynb");
  CHECK(s.submitted == "2026-12-02T08:00:00Z");
  // None recorded: the file's modification time is what marking uses.
  CHECK(read({header_cell(), answer_cell("q1.scores", "q1_scores = [2, 0, 1]")}).submitted.empty());
}
