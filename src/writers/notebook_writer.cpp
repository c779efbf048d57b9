#include "writers/notebook_writer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "base/text.h"
#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/numbers.h"
#include "writers/answer_template.h"
#include "writers/markdown_writer.h"
#include "writers/notebook_python.h"
#include "writers/report_words.h"

namespace attnmark {
namespace {

using Json = nlohmann::json;

// A cell's source as nbformat stores it: a list of lines, each but the last
// ending in "\n".
Json source_lines(std::string_view text) {
  while (text.ends_with('\n')) text.remove_suffix(1);
  Json lines = Json::array();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(std::string(text.substr(start)));
      break;
    }
    lines.push_back(std::string(text.substr(start, end + 1 - start)));
    start = end + 1;
  }
  return lines;
}

// A Python list of numbers: "[1, 0]".
std::string python_row(const Vector& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + format_exact(v[i]);
  return out + "]";
}

std::string python_matrix(const Matrix& m) {
  std::vector<std::string> rows;
  for (const Vector& r : m) rows.push_back(python_row(r));
  return fmt::format("[{}]", fmt::join(rows, ", "));
}

std::string python_words(const std::vector<std::string>& words) {
  std::vector<std::string> quoted;
  for (const std::string& w : words) quoted.push_back(double_quoted(w));
  return fmt::format("[{}]", fmt::join(quoted, ", "));
}

// A comment's text on one line, whatever a rubric's word holds.
std::string comment_text(std::string_view text) { return printable(text, 200); }

const Matrix& truth(const QuestionVariant& q, Part p) {
  switch (p) {
    case Part::query:
    case Part::queries: return q.queries;
    case Part::keys: return q.keys;
    case Part::values: return q.values;
    case Part::scores: return q.scores;
    case Part::weights: return q.weights;
    case Part::output: break;
    case Part::most_attended: break;
  }
  return q.output;
}

// What a part's answer is, for the comment above its cell.
std::string what_to_write(const QuestionVariant& q, Part p, const AnswerShape& shape) {
  const std::string tokens = comment_text(fmt::format("{}", fmt::join(q.tokens, ", ")));
  const bool per_token = p == Part::scores || p == Part::weights;
  if (p == Part::most_attended)
    return shape.vector ? "the token's word, in quotes (one of " + tokens + ")"
                        : "a word in quotes per query token (" + tokens + ")";
  const std::string each = per_token ? "a number per key token (" + tokens + ")"
                                     : fmt::format("a number per dimension ({})", shape.cols);
  if (shape.vector) return each;
  return "a row per " + std::string(p == Part::keys || p == Part::values ? "token" : "query token") + ", " + each;
}

// The literal an answer cell starts with: blanks (None), or the key's answers.
std::string answer_literal(const QuestionVariant& q, Part p, const AnswerShape& shape, bool key) {
  auto cell = [&](std::size_t r, std::size_t c) -> std::string {
    if (!key) return "None";
    if (p == Part::most_attended) return double_quoted(q.tokens[q.most_attended[shape.vector ? 0 : c]]);
    const double x = truth(q, p)[r][c];
    return x == masked_score ? "\"masked\"" : format_fixed(x, q.spec->decimals(p));
  };
  if (p == Part::most_attended) {
    if (shape.vector) return cell(0, 0);
    std::vector<std::string> words;
    for (std::size_t r = 0; r < q.most_attended.size(); ++r) words.push_back(cell(0, r));
    return fmt::format("[{}]  # {}", fmt::join(words, ", "), comment_text(fmt::format("{}", fmt::join(q.tokens, ", "))));
  }
  auto row = [&](std::size_t r) {
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < shape.cols; ++c) cells.push_back(cell(r, c));
    return fmt::format("[{}]", fmt::join(cells, ", "));
  };
  if (shape.vector) return row(0);
  std::string out = "[\n";
  const std::vector<std::size_t> rows = q.query_rows();
  for (std::size_t r = 0; r < shape.rows; ++r) {
    const std::size_t token = (p == Part::keys || p == Part::values || r >= rows.size()) ? r : rows[r];
    out += fmt::format("    {},  # {}\n", row(r), comment_text(q.tokens[token]));
  }
  return out + "]";
}

// The prefix of a question's names in the notebook ("q1_"): each question's
// inputs have their own names, so re-running one question's cell after the
// notebook ran reads its own inputs, not a later question's.
std::string input_prefix(const std::string& question) {
  std::string prefix = answer_variable(question, Part::keys);
  prefix.resize(prefix.size() - std::string_view(part_name(Part::keys)).size());
  return prefix;
}

// The code cell of a question's inputs.
std::string inputs_source(const QuestionSection& section, const QuestionVariant& q) {
  const QuestionSpec& spec = *q.spec;
  const std::string n = input_prefix(section.id);
  std::string out = fmt::format("# Question {} ({}): the inputs. Run this cell before the answers below.\n",
                                section.number, comment_text(section.id));
  out += fmt::format("{}tokens = {}\n", n, python_words(q.tokens));
  if (spec.projections) {
    out += fmt::format("{}X = np.array({})  # a row per token: its embedding\n", n, python_matrix(q.embeddings));
    out += fmt::format("{}W_Q = np.array({})\n", n, python_matrix(q.w_q));
    out += fmt::format("{}W_K = np.array({})\n", n, python_matrix(q.w_k));
    out += fmt::format("{}W_V = np.array({})\n", n, python_matrix(q.w_v));
    if (q.query_token) out += fmt::format("{}x = {}X[{}]  # the embedding of {}\n", n, n, *q.query_token, comment_text(q.tokens[*q.query_token]));
  } else {
    if (q.query_token)
      out += fmt::format("{}q = np.array({})  # the query of {}\n", n, python_row(q.queries[0]), comment_text(q.tokens[*q.query_token]));
    else
      out += fmt::format("{}Q = np.array({})  # a row per token: its query\n", n, python_matrix(q.queries));
    out += fmt::format("{}K = np.array({})  # a row per token: its key\n", n, python_matrix(q.keys));
    out += fmt::format("{}V = np.array({})  # a row per token: its value\n", n, python_matrix(q.values));
  }
  if (spec.scale.kind != ScaleSpec::Kind::none)
    out += fmt::format("{}scale = {}  # every score is divided by this\n", n, format_exact(q.scale));
  if (spec.mask == Mask::causal)
    out += "# Causal mask: a query sees only its own token and those before it; write \"masked\" for a later key's score.\n";
  return out;
}

std::string answer_source(const QuestionSection& section, const PartSection& part, const QuestionVariant& q, bool key) {
  const AnswerShape shape = answer_shape(q, part.part);
  const std::string variable = answer_variable(section.id, part.part);
  std::string out = fmt::format("# Question {}, {} ({}): {}", section.number, part_label(part.part), part.marks,
                                what_to_write(q, part.part, shape));
  out += part.precision.empty() ? ".\n" : fmt::format("; give {}.\n", part.precision);
  if (part.part != Part::most_attended)
    out += "# Type the numbers (0.665, or \"2/3\" in quotes), or compute them with the helpers; keep the last line.\n";
  out += fmt::format("{} = {}\n{}\n", variable, answer_literal(q, part.part, shape, key), variable);
  return out;
}

// text with each string literal "@NAME@" (quotes and all) whose NAME is in
// values replaced by its value, in one pass: a value is never searched.
std::string filled(std::string_view text, const std::map<std::string_view, std::string>& values) {
  std::string out;
  for (std::size_t at = text.find("\"@"); at != std::string_view::npos; at = text.find("\"@")) {
    const std::size_t end = text.find("@\"", at + 2);
    const auto value = end == std::string_view::npos ? values.end() : values.find(text.substr(at + 2, end - at - 2));
    if (value == values.end()) {
      out += text.substr(0, at + 2);
      text.remove_prefix(at + 2);
      continue;
    }
    out += text.substr(0, at);
    out += value->second;
    text.remove_prefix(end + 2);
  }
  out += text;
  return out;
}

class NotebookBuilder {
 public:
  void markdown(const std::string& name, const std::string& text, Json metadata = Json::object()) {
    cells_.push_back({{"cell_type", "markdown"}, {"id", id(name)}, {"metadata", std::move(metadata)},
                      {"source", source_lines(text)}});
  }
  // Returns the cell's id.
  std::string code(const std::string& name, const std::string& text, Json metadata = Json::object()) {
    std::string cell_id = id(name);
    cells_.push_back({{"cell_type", "code"}, {"id", cell_id}, {"metadata", std::move(metadata)},
                      {"source", source_lines(text)}, {"execution_count", nullptr}, {"outputs", Json::array()}});
    return cell_id;
  }
  Json& last() { return cells_.back(); }
  // The id the cell named `name` gets (1 to 64 of [A-Za-z0-9_-], unique).
  std::string id(const std::string& name) {
    std::string base;
    for (char c : name.substr(0, 48))
      base += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_') ? c : '_';
    if (base.empty()) base = "cell";
    std::string out = base;
    for (int n = 2; !ids_.insert(out).second; ++n) out = fmt::format("{}-{}", base, n);
    return out;
  }
  Json take() { return std::move(cells_); }

 private:
  Json cells_ = Json::array();
  std::set<std::string> ids_;
};

}  // namespace

std::string render_notebook(const Rubric& rubric, const Variant& variant, Sheet sheet) {
  return render_notebook(variant, sheet, sheet_document(rubric, variant, sheet));
}

std::string render_notebook(const Variant& variant, Sheet sheet, const SheetDocument& doc) {
  const bool key = sheet == Sheet::key;
  NotebookBuilder nb;

  std::string header = fmt::format("# {}: {}\n\n", doc.title, key ? "answer key" : "worksheet");
  header += markdown_who(doc);
  if (!key)
    header += "Run the cells from the top (Shift+Enter). In each answer cell, replace every `None` with your "
              "answer, to the decimal places asked, or compute it with the helpers and NumPy. Then save the "
              "notebook and hand it in as it is: attnmark reads the answers you typed, and the output of the "
              "ones you computed, so run every cell before you hand it in.\n";
  Json header_data = {{"rubric", variant.rubric}, {"student", variant.student}, {"seed", variant.seed},
                      {"variant", variant.id_text()}, {"generator", generator_version}};
  if (!doc.seed) header_data.erase("seed");  // a served class's (SheetDocument::seed)
  // Jupyter keeps a cell that is not deletable; the notebook's own metadata
  // holds the header again, for a notebook whose header cell was lost anyway.
  nb.markdown("header", header, {{"attnmark", header_data}, {"deletable", false}, {"editable", false}});
  nb.code("helpers", std::string(notebook_helpers_py), {{"attnmark", {{"role", "helpers"}}}});

  Json variables = Json::object();
  for (std::size_t qi = 0; qi < doc.questions.size(); ++qi) {
    const QuestionSection& section = doc.questions[qi];
    const QuestionVariant& q = variant.questions[qi];
    std::string text = fmt::format("## Question {} ({}): {}\n\n", section.number, section.id, section.title);
    if (!section.prompt.empty()) text += section.prompt + "\n\n";
    text += markdown_blocks(section.givens);
    nb.markdown(section.id, text);
    nb.code(section.id + "-inputs", inputs_source(section, q));
    for (const PartSection& part : section.parts) {
      const std::string name = fmt::format("{}.{}", section.id, part_name(part.part));
      std::string part_text = part.precision.empty()
                                  ? fmt::format("### {} ({})\n\n", part.title, part.marks)
                                  : fmt::format("### {} ({}; give {})\n\n", part.title, part.marks, part.precision);
      part_text += markdown_blocks(part.blocks);
      // The tables' blank columns are for working; only the code cell is read.
      if (!key) part_text += "Work in the table on paper if you like; your answer goes in the code cell below.\n";
      nb.markdown(section.id + "-" + part_name(part.part) + "-text", part_text);
      // nbgrader's solution cell: the student writes here, nothing is graded
      // by nbgrader itself; its grade_id is the cell's own id (unique).
      const Json metadata = {{"attnmark", {{"part", name}}},
                             {"nbgrader",
                              {{"grade", false},
                               {"locked", false},
                               {"schema_version", 3},
                               {"solution", true},
                               {"task", false}}}};
      const std::string cell_id = nb.code(section.id + "-" + part_name(part.part), answer_source(section, part, q, key), metadata);
      nb.last()["metadata"]["nbgrader"]["grade_id"] = cell_id;
      variables[section.id][part_name(part.part)] = answer_variable(section.id, part.part);
    }
  }

  Json symbols = Json::object();
  for (Verdict v : {Verdict::correct, Verdict::carried, Verdict::imprecise, Verdict::wrong, Verdict::unanswered,
                    Verdict::unreadable})
    symbols[verdict_name(v)] = verdict_look(v).symbol;
  // The constants are JSON, which Python reads as the same dicts, lists and strings.
  const auto literal = [](const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); };
  const bool served = !doc.check_url.empty() && !doc.access_code.empty();
  const std::string check = filled(notebook_self_check_py, {{"RUBRIC", double_quoted(variant.rubric)},
                                                            {"STUDENT", double_quoted(variant.student)},
                                                            {"VARIANT", double_quoted(variant.id_text())},
                                                            {"SERVER", double_quoted(served ? doc.check_url : "")},
                                                            {"ACCESS_CODE", double_quoted(served ? doc.access_code : "")},
                                                            {"VARIABLES", literal(variables)},
                                                            {"SYMBOLS", literal(symbols)},
                                                            {"LEGEND", double_quoted(verdict_legend(LegendStyle::terse))}});
  nb.markdown("self-check-text",
              served ? "## Check your answers\n\nRun the next cell to see which answers are right before you hand in: "
                       "it sends your answers (not this notebook) to your class's page, " + markdown_text(doc.check_url) +
                           ", as you.\n"
                     : "## Check your answers\n\nRun the next cell to see which answers are right before you hand in "
                       "(your teacher tells you how to set it up), or run `attnmark check` with the rubric file on the saved notebook.\n");
  // Collapsed and locked: the student runs it, never edits it.
  nb.code("self-check", check,
          {{"attnmark", {{"role", "self-check"}}},
           {"jupyter", {{"source_hidden", true}}},
           {"editable", false},
           {"deletable", false},
           {"nbgrader", {{"grade", false}, {"locked", true}, {"schema_version", 3}, {"solution", false}, {"task", false},
                         {"grade_id", "self-check"}}}});

  const Json notebook = {
      {"nbformat", 4},
      {"nbformat_minor", 5},
      {"metadata",
       {{"attnmark", header_data},
        {"kernelspec", {{"display_name", "Python 3 (ipykernel)"}, {"language", "python"}, {"name", "python3"}}},
        {"language_info", {{"name", "python"}}}}},
      {"cells", nb.take()}};
  return notebook.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace attnmark
