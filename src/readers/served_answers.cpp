#include "readers/served_answers.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "base/text.h"
#include "attnmark/lesson/rubric.h"
#include "readers/notebook_reader.h"
#include "readers/yaml_tree.h"

namespace attnmark {
namespace {

// What read_answer_file's JSON reading would make of the text of `j` (its
// dump): the same tree, built from `j`. False, and `out` half built, when that
// text might break one of parse_json's caps (YamlLimits): then the file is
// read from its text, so the reason given is the reader's own. `depth` counts
// the arrays and objects around `j`, `values` the values before it.
template <class Json>
bool tree_of(const Json& j, int depth, std::size_t& values, YamlNode& out) {
  const YamlLimits caps;
  if (++values > caps.max_nodes) return false;
  switch (j.type()) {
    case Json::value_t::null: out.kind = YamlNode::Kind::null; return true;
    case Json::value_t::boolean:
      out.kind = YamlNode::Kind::scalar;
      out.text = j.template get<bool>() ? "true" : "false";
      return true;
    case Json::value_t::number_float:
      if (!std::isfinite(j.template get<double>())) return false;  // its dump is null
      [[fallthrough]];
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      out.kind = YamlNode::Kind::scalar;
      out.text = j.dump();  // the number as the file spells it
      return true;
    case Json::value_t::string:
      out.kind = YamlNode::Kind::scalar;
      out.text = j.template get_ref<const std::string&>();
      out.plain = false;
      return true;
    case Json::value_t::array:
      if (depth >= caps.max_depth) return false;
      out.kind = YamlNode::Kind::sequence;
      out.items.resize(j.size());
      for (std::size_t i = 0; i < j.size(); ++i)
        if (!tree_of(j[i], depth + 1, values, out.items[i])) return false;
      return true;
    case Json::value_t::object:
      if (depth >= caps.max_depth) return false;
      out.kind = YamlNode::Kind::map;
      out.entries.reserve(j.size());
      for (auto it = j.begin(); it != j.end(); ++it) {
        YamlEntry& e = out.entries.emplace_back();
        e.key.kind = YamlNode::Kind::scalar;
        e.key.text = it.key();
        e.key.plain = false;
        if (!tree_of(it.value(), depth + 1, values, e.value)) return false;
      }
      return true;
    default: return false;  // binary, discarded: never parsed from JSON text
  }
}

// `file` as read_answer_file reads it, from `tree` (its tree, or nullopt when
// it had to be read from its text).
Submission read_file(std::string_view file, const std::optional<YamlNode>& tree, const std::string& source,
                     const ReadLimits& limits) {
  if (!tree || !submission_bytes_problem(file, limits).empty()) return read_answer_file(file, source, limits);
  return read_answer_tree(*tree, source, limits);
}

// The answers object sent by `student` as its answer file and that file read.
SentAnswers sent(const std::string& student, const nlohmann::json& answers, const std::string& source,
                 const ReadLimits& limits) {
  SentAnswers s;
  const std::string student_json = nlohmann::json(student).dump();
  s.file = "{\"student\":" + student_json + ",\"answers\":" + answers.dump() + "}";
  std::optional<YamlNode> tree(std::in_place);
  tree->kind = YamlNode::Kind::map;
  tree->entries.resize(2);
  std::size_t values = 1;  // the file's object
  for (YamlEntry& e : tree->entries) {
    e.key.kind = YamlNode::Kind::scalar;
    e.key.plain = false;
  }
  tree->entries[0].key.text = "student";
  tree->entries[1].key.text = "answers";
  if (!tree_of(nlohmann::json(student), 1, values, tree->entries[0].value) ||
      !tree_of(answers, 1, values, tree->entries[1].value))
    tree.reset();
  s.submission = read_file(s.file, tree, source, limits);
  return s;
}

// The members of an object in byte order of their keys, as nlohmann::json
// keeps them (an ordered_json keeps them as written).
template <class Json>
std::vector<std::pair<const std::string*, const Json*>> by_key(const Json& object) {
  std::vector<std::pair<const std::string*, const Json*>> out;
  for (auto it = object.begin(); it != object.end(); ++it) out.emplace_back(&it.key(), &it.value());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
  return out;
}

// The form's fields of a stored answer file's tree (StoredAnswers::fields).
template <class Json>
std::map<std::string, std::string> fields_of(const Json& file) {
  std::map<std::string, std::string> out;
  if (!file.is_object()) return out;
  const auto answers = file.find("answers");
  if (answers == file.end() || !answers->is_object()) return out;
  const auto text = [](const Json& cell) {
    return cell.is_string() ? cell.template get<std::string>() : cell.is_null() ? std::string() : cell.dump();
  };
  for (const auto& [q, parts] : by_key(*answers)) {
    if (!parts->is_object()) continue;
    for (const auto& [p, value] : by_key(*parts)) {
      if (!value->is_array()) {
        out[answer_field_name(*q, *p, 0, 0)] = text(*value);
        continue;
      }
      for (std::size_t r = 0; r < value->size(); ++r) {
        const Json& row = (*value)[r];
        if (!row.is_array()) {
          out[answer_field_name(*q, *p, 0, r)] = text(row);
          continue;
        }
        for (std::size_t c = 0; c < row.size(); ++c) out[answer_field_name(*q, *p, r, c)] = text(row[c]);
      }
    }
  }
  return out;
}

// The answers a notebook's cells give, as `mark` reads them: the cells built
// into a notebook and read by read_notebook, then each part's cells as an
// answer file's answers (a list of rows of strings, null for a blank cell; a
// part that could not be read, as a computed cell without output, is null).
// nullopt with `error` set when `cells` is not a list of
// {"part": NAME, "source": TEXT, "outputs": [...]}.
std::optional<nlohmann::json> answers_of_cells(const nlohmann::json& cells, const std::string& source,
                                               const ReadLimits& limits, std::string& error) {
  nlohmann::json notebook_cells = nlohmann::json::array();
  for (const nlohmann::json& cell : cells) {
    const auto part = cell.is_object() ? cell.find("part") : cell.end();
    const auto text = cell.is_object() ? cell.find("source") : cell.end();
    const auto outputs = cell.is_object() ? cell.find("outputs") : cell.end();
    if (!cell.is_object() || part == cell.end() || !part->is_string() || text == cell.end() || !text->is_string() ||
        (outputs != cell.end() && !outputs->is_array())) {
      error = "\"cells\": expected a list of {\"part\": NAME, \"source\": TEXT, \"outputs\": [...]}";
      return std::nullopt;
    }
    notebook_cells.push_back({{"cell_type", "code"},
                              {"metadata", {{"attnmark", {{"part", *part}}}}},
                              {"source", *text},
                              {"outputs", outputs == cell.end() ? nlohmann::json::array() : *outputs}});
  }
  const nlohmann::json notebook = {{"nbformat", 4}, {"nbformat_minor", 5}, {"metadata", nlohmann::json::object()},
                                   {"cells", std::move(notebook_cells)}};
  const Submission read = read_notebook(notebook.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), source, limits);
  if (!read.unreadable.empty()) {
    error = "\"cells\": " + read.unreadable;
    return std::nullopt;
  }
  nlohmann::json answers = nlohmann::json::object();
  for (const auto& [q, parts] : read.answers)
    for (const auto& [p, answer] : parts) {
      nlohmann::json& value = answers[q][p];
      if (!answer.unreadable.empty() || answer.rows.empty()) continue;  // null
      value = nlohmann::json::array();
      for (const std::vector<std::string>& row : answer.rows) {
        nlohmann::json& out = value.emplace_back(nlohmann::json::array());
        for (const std::string& c : row) out.push_back(c.empty() ? nlohmann::json(nullptr) : nlohmann::json(c));
      }
    }
  return answers;
}

}  // namespace

SentAnswers answers_from_form(const std::string& student, const std::map<std::string, std::string>& fields,
                              const std::string& source, const ReadLimits& limits) {
  nlohmann::json answers = nlohmann::json::object();
  for (const auto& [name, value] : fields) {
    const std::optional<AnswerField> cell = parse_answer_field(name);
    if (!cell) continue;
    if (!encoding_problem(value, "cell").empty() || !encoding_problem(name, "field").empty()) continue;
    nlohmann::json& rows = answers[cell->question][cell->part];
    if (!rows.is_array()) rows = nlohmann::json::array();
    while (rows.size() <= cell->row) rows.push_back(nlohmann::json::array());
    nlohmann::json& cells = rows[cell->row];
    while (cells.size() <= cell->column) cells.push_back(nullptr);
    cells[cell->column] = std::string(trim(value));
  }
  return sent(student, answers, source, limits);
}

std::optional<CheckRequest> read_check_request(std::string_view body, const std::string& source, std::string& error,
                                               const ReadLimits& limits) {
  if (std::string problem = encoding_problem(body, "request body"); !problem.empty()) {
    error = std::move(problem);
    return std::nullopt;
  }
  const nlohmann::json request = nlohmann::json::parse(body, nullptr, false);
  if (request.is_discarded() || !request.is_object()) {
    error = "expected a JSON object: {\"student\": ID, \"code\": CODE, \"answers\": {...}}";
    return std::nullopt;
  }
  const auto text_of = [&](const char* key) -> const std::string* {
    const auto it = request.find(key);
    return it != request.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
  };
  const std::string* student = text_of("student");
  const std::string* code = text_of("code");
  const auto answers = request.find("answers");
  const auto cells = request.find("cells");
  if (!student) error = "\"student\": expected your student id as a string";
  else if (!code) error = "\"code\": expected your access code as a string";
  else if (cells != request.end() && !cells->is_array())
    error = "\"cells\": expected a list of {\"part\": NAME, \"source\": TEXT, \"outputs\": [...]}";
  else if (cells == request.end() && (answers == request.end() || !answers->is_object()))
    error = "\"answers\": expected an object of questions, as in your answer file";
  if (!error.empty()) return std::nullopt;
  if (cells == request.end()) return CheckRequest{*student, *code, sent(*student, *answers, source, limits)};
  std::optional<nlohmann::json> read = answers_of_cells(*cells, source, limits, error);
  if (!read) return std::nullopt;
  return CheckRequest{*student, *code, sent(*student, *read, source, limits)};
}

StoredAnswers read_stored_answers(std::string_view file, const std::string& source, const ReadLimits& limits) {
  // The tree is built from the file's own when the file is JSON as attnmark
  // writes it (compact, no key twice, numbers as nlohmann spells them: the
  // dump of its tree is the file), which then reads as its text would.
  // Anything else is read as before, once for the submission and once for
  // the fields, so that a file written otherwise reads as it always has.
  StoredAnswers out;
  const nlohmann::ordered_json tree = nlohmann::ordered_json::parse(file, nullptr, false);
  std::optional<YamlNode> built;
  if (!tree.is_discarded() && file.starts_with('{') && tree.dump() == file) {
    std::size_t values = 0;
    built.emplace();
    if (!tree_of(tree, 0, values, *built)) built.reset();
  }
  if (!built) {
    out.submission = read_answer_file(file, source, limits);
    out.fields = fields_of(nlohmann::json::parse(file, nullptr, false));
    return out;
  }
  out.submission = read_file(file, built, source, limits);
  out.fields = fields_of(tree);
  return out;
}

}  // namespace attnmark
