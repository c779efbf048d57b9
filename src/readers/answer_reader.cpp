#include "readers/answer_reader.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "base/threads.h"
#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"
#include "readers/csv.h"
#include "readers/yaml_tree.h"

namespace attnmark {
namespace {

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";
// Student text quoted in a note is cut to this, so one note stays one line.
constexpr std::size_t max_quoted_bytes = 60;
// An unreadable reason longer than this is cut (a JSON error quotes the last
// token read, which can be a whole unterminated string).
constexpr std::size_t max_reason_bytes = 300;

// Why a whole answer file cannot be read, with its place when known.
struct Unreadable {
  int line = 0;
  int column = 0;
  std::string message;
};

std::string in_quotes(std::string_view text) { return "'" + printable(text, max_quoted_bytes) + "'"; }

// A question or part name in a note, unquoted as the notes name them
// ("q1.scores row 2 ..."), but on one line and short whatever was written.
std::string shown(std::string_view name) { return printable(name, max_quoted_bytes); }

std::string with_place(int line, int column, const std::string& message) {
  std::string out;
  if (line > 0) {
    out = "line " + std::to_string(line);
    if (column > 0) out += ", column " + std::to_string(column);
    out += ": ";
  }
  return printable(out + message, max_reason_bytes);
}

// The 1-based line and column (in bytes) of byte `at`.
std::pair<int, int> place_of(std::string_view t, std::size_t at) {
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < at; ++i)
    if (t[i] == '\n' || t[i] == '\r') line_start = i + 1;
  return {line_of(t, at), static_cast<int>(std::min<std::size_t>(at - line_start + 1, INT_MAX))};
}

// ---- Fields shared by answer files and sheet rows ----

// The student id or rubric name, trimmed; ignored (with a note) when it
// holds a control character (has_control: C0, DEL, C1, bidirectional
// controls), so no report, file name or terminal ever gets one.
std::string read_name(std::string_view text, const char* key, Submission& s) {
  text = trim(text);
  if (!has_control(text)) return std::string(text);
  s.notes.push_back(std::string(key) + " " + in_quotes(text) + " contains control characters; ignored");
  return {};
}

void read_seed(std::string_view text, Submission& s) {
  if (text.empty()) return;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc() && end == text.data() + text.size()) {
    s.seed = value;
  } else if (ec == std::errc::result_out_of_range && end == text.data() + text.size()) {
    s.notes.push_back("seed " + in_quotes(text) + " is too large (at most 18446744073709551615); ignored");
  } else {
    s.notes.push_back("seed " + in_quotes(text) + " is not a whole number; ignored");
  }
}

void read_variant(std::string_view text, Submission& s) {
  s.variant = std::string(text);
  if (!text.empty() && !parse_variant_id(text))
    s.notes.push_back("variant " + in_quotes(text) + " is not 16 lower-case hex digits");
}

// ---- Answer files: a YamlNode tree (from YAML or JSON) to a Submission ----

std::string describe(const YamlNode& n) {
  switch (n.kind) {
    case YamlNode::Kind::null: return "nothing";
    case YamlNode::Kind::scalar: return "the value " + in_quotes(n.text);
    case YamlNode::Kind::sequence: return "a list";
    case YamlNode::Kind::map: return "a map";
  }
  return "?";
}

// The text of a scalar or null; nullopt for a list or map.
std::optional<std::string> value_text(const YamlNode& n) {
  if (n.is_scalar()) return n.text;
  if (n.is_null()) return std::string();
  return std::nullopt;
}

// What YAML may have made of decimal commas: [0,665, 0,090, 0,245] is six
// numbers to it. A part written as one row of pairs of digits (the first of
// each pair may have a sign) is offered as the pairs joined by commas, with
// the note that says so; the grader takes them when they are exactly the
// values the part asks (PartAnswer::other_reading). Every answer file's
// tree is offered it, JSON's and a notebook's too.
std::optional<PartAnswer::OtherReading> decimal_commas(const std::vector<std::vector<std::string>>& rows, Part part) {
  if (rows.size() != 1 || rows[0].empty() || rows[0].size() % 2 != 0) return std::nullopt;
  const auto digits = [](std::string_view s, bool sign) {
    s = trim(s);
    if (sign && !s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const std::vector<std::string>& row = rows[0];
  for (std::size_t i = 0; i < row.size(); i += 2)
    if (!digits(row[i], true) || !digits(row[i + 1], false)) return std::nullopt;
  PartAnswer::OtherReading joined;
  std::string shown;
  for (std::size_t i = 0; i < row.size(); i += 2) {
    joined.row.push_back(std::string(trim(row[i])) + "," + std::string(trim(row[i + 1])));
    shown += (shown.empty() ? "" : ", ") + joined.row.back();
  }
  joined.note = part_label(part) + ": YAML reads a decimal comma as a list comma, so these " +
                std::to_string(row.size()) + " numbers were read as " + std::to_string(joined.row.size()) +
                " with decimal commas (" + shown + "); write 0.665, or quote \"0,665\"";
  return joined;
}

// Turns the tree of one answer file into a Submission. Throws Unreadable.
class SubmissionReader {
 public:
  SubmissionReader(Submission& s, const ReadLimits& limits) : s_(s), limits_(limits) {}

  void read(const YamlNode& root) {
    if (!root.is_map())
      throw Unreadable{root.line, root.column,
                       "expected a map with keys like 'student:' and 'answers:' at the top; got " +
                           describe(root)};
    for (const auto& [key, value] : root.entries) {
      const std::string& k = key.text;
      if (k == "rubric") s_.rubric = read_name(single(value, k), "rubric", s_);
      else if (k == "student") s_.student = read_name(single(value, k), "student", s_);
      else if (k == "seed") read_seed(single(value, k), s_);
      else if (k == "variant") read_variant(single(value, k), s_);
      else if (k == "generator") generator(value);
      else if (k == "submitted") s_.submitted = read_name(single(value, k), "submitted", s_);
      else if (k == "answers") answers(value);
      else if (unknown_keys_.keep())
        s_.notes.push_back("unknown key " + in_quotes(k) + " ignored" +
                           did_you_mean(k, {"rubric", "student", "seed", "variant", "generator", "submitted", "answers"}));
    }
    for (const RepeatedNotes* kind : {&unknown_keys_, &bad_questions_, &bad_parts_, &bad_values_})
      kind->finish(s_.notes);
  }

 private:
  // A top-level field that must be one value; "" (with a note) otherwise.
  std::string single(const YamlNode& n, const std::string& key) {
    if (auto text = value_text(n)) return *text;
    s_.notes.push_back(key + ": expected a single value; got " + describe(n) + "; ignored");
    return {};
  }

  // Answers made by another generator version may have other numbers.
  void generator(const YamlNode& n) {
    const std::string text = single(n, "generator");
    if (!text.empty() && text != generator_version)
      s_.notes.push_back("generator " + in_quotes(text) + " differs from this attnmark's '" +
                         generator_version + "'");
  }

  void answers(const YamlNode& n) {
    if (n.is_null()) return;
    if (!n.is_map())
      throw Unreadable{n.line, n.column,
                       "answers: expected a map of questions (q1:, q2:, ...); got " + describe(n)};
    for (const auto& [qkey, question] : n.entries) {
      const std::string& q = qkey.text;
      if (has_control(q)) {
        if (bad_questions_.keep())
          s_.notes.push_back("question " + in_quotes(q) + " has control characters in its name; ignored");
        continue;
      }
      if (parse_part(q)) {
        // A part written one level too far left: it lands among the questions.
        if (bad_questions_.keep())
          s_.notes.push_back("line " + std::to_string(qkey.line) + ": " + in_quotes(q) +
                             " is a part, not a question; indent it under its question (q1:, q2:, ...); ignored");
        continue;
      }
      if (question.is_null()) {
        s_.answers[q];  // named but empty: the grader reports its parts unanswered
        continue;
      }
      if (!question.is_map()) {
        if (bad_questions_.keep())
          s_.notes.push_back(shown(q) + ": expected a map of parts (scores:, weights:, ...); got " +
                             describe(question) + "; ignored");
        continue;
      }
      auto& parts = s_.answers[q];
      for (const auto& [pkey, value] : question.entries) {
        if (has_control(pkey.text)) {
          if (bad_parts_.keep())
            s_.notes.push_back(shown(q) + ": part " + in_quotes(pkey.text) +
                               " has control characters in its name; ignored");
          continue;
        }
        PartAnswer& answer = parts[pkey.text] = part(value, shown(q) + "." + shown(pkey.text));
        if (const std::optional<Part> p = parse_part(pkey.text)) answer.other_reading = decimal_commas(answer.rows, *p);
      }
    }
  }

  // One part's value: a cell, a row (flat list) or rows (a list holding lists).
  PartAnswer part(const YamlNode& n, const std::string& name) {
    PartAnswer answer;
    if (n.is_map()) {
      if (bad_values_.keep()) s_.notes.push_back(name + " is not a value or a list of values");
      answer.rows = {{cell(YamlNode(), name, 1, 1)}};
      return answer;
    }
    if (!n.is_sequence()) {
      answer.rows = {{cell(n, name, 1, 1)}};
      return answer;
    }
    const bool has_rows = std::any_of(n.items.begin(), n.items.end(),
                                      [](const YamlNode& item) { return item.is_sequence(); });
    if (!has_rows) {
      answer.rows.emplace_back();
      for (std::size_t c = 0; c < n.items.size(); ++c)
        answer.rows[0].push_back(cell(n.items[c], name, 1, c + 1));
      return answer;
    }
    for (std::size_t r = 0; r < n.items.size(); ++r) {
      const YamlNode& row = n.items[r];
      answer.rows.emplace_back();
      if (!row.is_sequence()) {  // a lone value among rows: a row of one cell
        answer.rows[r].push_back(cell(row, name, r + 1, 1));
        continue;
      }
      for (std::size_t c = 0; c < row.items.size(); ++c)
        answer.rows[r].push_back(cell(row.items[c], name, r + 1, c + 1));
    }
    return answer;
  }

  // The text of one cell, counted against max_cells; "" with a note when it
  // is a list or map.
  std::string cell(const YamlNode& n, const std::string& name, std::size_t row, std::size_t col) {
    if (++cells_ > limits_.max_cells)
      throw Unreadable{0, 0, "more than " + std::to_string(limits_.max_cells) + " answer cells"};
    if (auto text = value_text(n)) return *text;
    if (bad_values_.keep())
      s_.notes.push_back(name + " row " + std::to_string(row) + " cell " + std::to_string(col) +
                         " is not a value");
    return {};
  }

  Submission& s_;
  const ReadLimits& limits_;
  std::size_t cells_ = 0;
  // Notes of one kind beyond the first ten are counted, not written: a file
  // of junk gives notes proportional to a person's reading, not to the file.
  RepeatedNotes unknown_keys_{"more unknown keys ignored"};
  RepeatedNotes bad_questions_{"more questions ignored"};
  RepeatedNotes bad_parts_{"more parts ignored"};
  RepeatedNotes bad_values_{"more cells that are not a value"};
};

// ---- JSON to a YamlNode tree ----

using Json = nlohmann::json;

// Builds a YamlNode tree from nlohmann's SAX events, keeping numbers' text as
// written, with the caps parse_yaml applies to YAML.
class JsonTreeBuilder final : public nlohmann::json_sax<Json> {
 public:
  JsonTreeBuilder(std::string_view text, const YamlLimits& limits) : text_(text), limits_(limits) {}

  YamlNode take() { return std::move(root_); }
  // Why parsing stopped; empty when it did not.
  const Unreadable& problem() const { return problem_; }

  bool null() override { return add(node(YamlNode::Kind::null)); }
  bool boolean(bool value) override { return add(scalar(value ? "true" : "false", true)); }
  bool number_integer(number_integer_t value) override {
    return add(scalar(std::to_string(value), true));
  }
  bool number_unsigned(number_unsigned_t value) override {
    return add(scalar(std::to_string(value), true));
  }
  bool number_float(number_float_t, const string_t& text) override {
    return add(scalar(text, true));  // as written: "0.670" stays "0.670"
  }
  bool string(string_t& value) override { return add(scalar(std::move(value), false)); }
  bool binary(binary_t&) override { return stop("binary values are not allowed"); }
  bool start_object(std::size_t) override { return open(YamlNode::Kind::map); }
  bool key(string_t& value) override {
    Open& top = stack_.back();
    if (!top.keys.insert(value).second) return stop("duplicate key " + in_quotes(value));
    top.key = scalar(std::move(value), false);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(YamlNode::Kind::sequence); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    // e.what() is "[json.exception.parse_error.101] parse error at line 1,
    // column 7: syntax error while parsing value - unexpected '}'; ...":
    // keep what follows the place, without the "syntax error ... - " lead.
    std::string message = e.what();
    if (const std::size_t p = message.find("parse error"); p != std::string::npos)
      if (const std::size_t colon = message.find(": ", p); colon != std::string::npos)
        message.erase(0, colon + 2);
    if (message.starts_with("syntax error while parsing"))
      if (const std::size_t dash = message.find(" - "); dash != std::string::npos)
        message.erase(0, dash + 3);
    // position counts the bytes read, the offending one included.
    const std::size_t at = std::min(position == 0 ? 0 : position - 1, text_.size());
    const auto [line, column] = place_of(text_, at);
    problem_ = Unreadable{line, column, "JSON syntax: " + message};
    return false;
  }

 private:
  // An open array or object, and for an object its keys so far.
  struct Open {
    YamlNode node;
    std::optional<YamlNode> key;  // waiting for its value
    std::set<std::string> keys;
  };

  bool stop(std::string message) {
    problem_ = Unreadable{0, 0, std::move(message)};
    return false;
  }
  YamlNode node(YamlNode::Kind kind) {
    YamlNode n;
    n.kind = kind;  // line and column stay 0: the SAX interface gives no places
    return n;
  }
  YamlNode scalar(std::string text, bool plain) {
    YamlNode n = node(YamlNode::Kind::scalar);
    n.text = std::move(text);
    n.plain = plain;
    return n;
  }
  bool open(YamlNode::Kind kind) {
    if (static_cast<int>(stack_.size()) >= limits_.max_depth)
      return stop("nested deeper than " + std::to_string(limits_.max_depth) + " levels");
    if (!count()) return false;
    stack_.push_back(Open{node(kind), std::nullopt, {}});
    return true;
  }
  bool close() {
    YamlNode finished = std::move(stack_.back().node);
    stack_.pop_back();
    return add(std::move(finished), false);
  }
  bool count() {
    if (++nodes_ <= limits_.max_nodes) return true;
    return stop("too many values (more than " + std::to_string(limits_.max_nodes) + ")");
  }
  bool add(YamlNode n, bool counted = true) {
    if (counted && !count()) return false;
    if (stack_.empty()) {
      root_ = std::move(n);
      return true;
    }
    Open& top = stack_.back();
    if (top.node.is_sequence()) {
      top.node.items.push_back(std::move(n));
    } else {
      top.node.entries.push_back(YamlEntry{std::move(*top.key), std::move(n)});
      top.key.reset();
    }
    return true;
  }

  std::string_view text_;
  const YamlLimits& limits_;
  std::vector<Open> stack_;
  YamlNode root_;
  Unreadable problem_;
  std::size_t nodes_ = 0;
};

// nlohmann refuses a whole file for one number beyond double's range
// ("1e309"). Such numbers are put in quotes, so that the cell alone is
// unreadable ("'1e309' is too large"), as in YAML. Returns the text with
// every such number quoted, or nullopt when there is none. One pass; the
// columns of later errors on the same line move by two per quoted number.
std::optional<std::string> quote_out_of_range_numbers(std::string_view text) {
  std::optional<std::string> out;
  std::size_t copied = 0;  // text[0, copied) is in *out
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {  // skip a string, escapes and all
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && std::string_view("+-0123456789.eE").find(text[i]) != std::string_view::npos) ++i;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data() + start, text.data() + i, value);
    if (ec != std::errc::result_out_of_range || end != text.data() + i) continue;
    if (!out) out.emplace();
    out->append(text.substr(copied, start - copied));
    out->append("\"").append(text.substr(start, i - start)).append("\"");
    copied = i;
  }
  if (out) out->append(text.substr(copied));
  return out;
}

YamlNode parse_json(std::string_view text, const YamlLimits& limits) {
  const std::optional<std::string> quoted = quote_out_of_range_numbers(text);
  if (quoted) text = *quoted;
  JsonTreeBuilder builder(text, limits);
  if (!Json::sax_parse(text.data(), text.data() + text.size(), &builder)) {
    Unreadable problem = builder.problem();
    if (problem.message.empty()) problem.message = "JSON syntax: could not read the file";
    throw problem;
  }
  return builder.take();
}

bool looks_like_json(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

// An answer file's tree. A .json file is JSON, and so is text that starts
// like a JSON object: '{' then a quoted key (or '}'). Other text is YAML,
// flow style included (`{student: s01, answers: {...}}`, keys unquoted).
YamlNode parse_tree(std::string_view text, const std::string& source, const YamlLimits& limits) {
  const bool json_name = source.size() >= 5 && lower(std::string_view(source).substr(source.size() - 5)) == ".json";
  bool json = json_name;
  if (!json && looks_like_json(text)) {
    const std::size_t next = text.find_first_not_of(" \t\r\n", text.find('{') + 1);
    json = next == std::string_view::npos || text[next] == '"' || text[next] == '}';
  }
  return json ? parse_json(text, limits) : parse_yaml(text, source, limits);
}

// ---- Sheets ----

// Where one sheet column's cell goes.
struct CellColumn {
  std::size_t field = 0;  // 0-based column of the sheet
  std::string question;
  std::string part;
  std::size_t row = 0;  // 0-based
  std::size_t col = 0;  // 0-based
};

bool is_question_word(std::string_view s) {
  if (s.empty() || s.size() > 40) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
  });
}

// A part's own name (a sheet's columns do not take the "most-attended" spelling).
bool is_part_name(std::string_view s) {
  const std::optional<Part> p = parse_part(s);
  return p && s == part_name(*p);
}

// A 1-based index in a column name; values above `cap` read as cap + 1 (the
// cell count check then refuses them). nullopt when not a positive integer.
std::optional<std::size_t> column_index(std::string_view s, std::size_t cap) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range || value > cap) return cap + 1;
  if (value == 0) return std::nullopt;
  return value;
}

enum class ColumnKind { other, cell, unknown };

// Classifies a trimmed header name, filling `out` for a cell column.
ColumnKind classify(std::string_view name, std::size_t cap, CellColumn& out) {
  const std::size_t dot = name.find('.');
  if (dot == std::string_view::npos || !is_question_word(name.substr(0, dot)))
    return ColumnKind::other;
  std::vector<std::string_view> pieces;
  for (std::size_t start = dot + 1;;) {
    const std::size_t next = name.find('.', start);
    pieces.push_back(name.substr(start, next == std::string_view::npos ? next : next - start));
    if (next == std::string_view::npos) break;
    start = next + 1;
  }
  if (!is_part_name(pieces[0]) || pieces.size() > 3) return ColumnKind::unknown;
  std::size_t index[2] = {1, 1};
  for (std::size_t i = 1; i < pieces.size(); ++i) {
    const auto value = column_index(pieces[i], cap);
    if (!value) return ColumnKind::unknown;
    index[i - 1] = *value;
  }
  out.question = std::string(name.substr(0, dot));
  out.part = std::string(pieces[0]);
  if (pieces.size() == 3) {  // row, column
    out.row = index[0] - 1;
    out.col = index[1] - 1;
  } else {  // one index is a column of the only row; none is the only cell
    out.row = 0;
    out.col = index[0] - 1;
  }
  return ColumnKind::cell;
}

}  // namespace

// What the header says about every data row.
struct SheetLayout {
  std::size_t fields = 0;
  std::size_t student = 0;
  ClassColumns columns;  // where the ids and names are
  std::optional<std::size_t> seed, variant, rubric;
  std::optional<std::size_t> submitted;  // when each row was handed in (submitted_column)
  std::vector<CellColumn> cells;
  std::size_t cells_per_row = 0;  // answer cells each row makes (the parts' rectangles)
  // question → part → (rows, columns) of the part's rectangle.
  std::map<std::string, std::map<std::string, std::pair<std::size_t, std::size_t>>> shapes;
};

namespace {

// The header as its columns are read: a title of limits.sheet_columns.titles
// is the column it stands for, save a title that already names an id column
// (`Student ID`), which class_columns reads as it is.
std::vector<std::string> titled_header(const std::vector<std::string>& fields, const ColumnChoice& choice) {
  std::vector<std::string> out(fields);
  if (choice.titles.empty()) return out;
  std::unordered_map<std::string, const std::string*> columns;
  for (const TitledColumn& t : choice.titles) columns.emplace(column_title_key(t.title), &t.column);
  const std::vector<std::string>& ids = id_column_titles();
  for (std::string& field : out) {
    const std::string key = column_title_key(field);
    const auto it = columns.find(key);
    if (it == columns.end()) continue;
    if (*it->second == "student" && std::find(ids.begin(), ids.end(), key) != ids.end()) continue;
    field = *it->second;
  }
  return out;
}

SheetLayout read_header(const CsvRecord& record, const std::string& file, const ReadLimits& limits,
                        SheetInfo& info) {
  SheetLayout layout;
  const std::vector<std::string> fields = titled_header(record.fields, limits.sheet_columns);
  layout.fields = fields.size();
  layout.columns = class_columns(fields, limits.sheet_columns, file, record.line);
  layout.submitted = submitted_column(fields);
  const std::optional<std::size_t> student = layout.columns.id;
  const ClassColumns& c = layout.columns;
  std::set<std::tuple<std::string, std::string, std::size_t, std::size_t>> seen, rubric_cells;
  for (const std::string& name : limits.sheet_columns.cells)
    if (CellColumn cell; classify(name, limits.max_cells, cell) == ColumnKind::cell)
      rubric_cells.emplace(cell.question, cell.part, cell.row, cell.col);
  std::map<std::string, std::map<std::string, std::pair<std::size_t, std::size_t>>> all_shapes;
  std::size_t cells = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string_view name = trim(fields[i]);
    const std::string key = lower(name);
    // The first of repeated special columns wins; later ones are ignored.
    if (key == "seed" && !layout.seed) layout.seed = i;
    else if (key == "variant" && !layout.variant) layout.variant = i;
    else if (key == "rubric" && !layout.rubric) layout.rubric = i;
    CellColumn cell;
    const ColumnKind kind = classify(name, limits.max_cells, cell);
    // What is not read from every row and not a response's metadata is not
    // marked: the teacher's to title or map.
    const bool used = i == c.id || i == c.name || i == c.first_name || i == c.last_name || i == layout.submitted ||
                      key == "seed" || key == "variant" || key == "rubric" || is_known_metadata(name);
    if (kind == ColumnKind::unknown ||
        (kind == ColumnKind::cell && !seen.emplace(cell.question, cell.part, cell.row, cell.col).second) ||

        (kind == ColumnKind::other && !used)) {
      info.unknown_columns.push_back(printable(trim(record.fields[i]), 100));
      continue;
    }
    if (kind != ColumnKind::cell) continue;
    cell.field = i;
    // The cap counts every cell column, marked or not: a header is refused
    // for its size before anything else is said of it.
    auto& [rows, cols] = all_shapes[cell.question][cell.part];
    const std::size_t before = rows * cols;
    rows = std::max(rows, cell.row + 1);
    cols = std::max(cols, cell.col + 1);
    cells += rows * cols - before;
    if (cells > limits.max_cells)
      throw Error(file, record.line, 0,
                  "the header's cell columns make more than " + std::to_string(limits.max_cells) +
                      " answer cells per student");
    if (!rubric_cells.empty() && !rubric_cells.contains({cell.question, cell.part, cell.row, cell.col})) {
      info.unknown_columns.push_back(printable(trim(record.fields[i]), 100));  // a cell of no question here
      continue;
    }
    auto& [marked_rows, marked_cols] = layout.shapes[cell.question][cell.part];
    marked_rows = std::max(marked_rows, cell.row + 1);
    marked_cols = std::max(marked_cols, cell.col + 1);
    layout.cells.push_back(std::move(cell));
  }
  layout.cells_per_row = cells;
  if (!student) throw ColumnError(file, record.line, 0, no_id_column_message(record.fields));
  layout.student = *student;
  return layout;
}

// True when `answers` has exactly the parts and shapes of the sheet's layout
// (as the row read before into the same submission left them).
bool has_layout(const std::map<std::string, std::map<std::string, PartAnswer>>& answers, const SheetLayout& layout) {
  if (answers.size() != layout.shapes.size()) return false;
  auto question = answers.begin();
  for (const auto& [id, parts] : layout.shapes) {
    if (question->first != id || question->second.size() != parts.size()) return false;
    auto part = question->second.begin();
    for (const auto& [name, shape] : parts) {
      const PartAnswer& answer = part->second;
      const std::size_t columns = shape.second;  // (clang 14 lambdas cannot capture a structured binding)
      if (part->first != name || !answer.shaped_by_sheet || !answer.unreadable.empty() ||
          answer.rows.size() != shape.first ||
          std::any_of(answer.rows.begin(), answer.rows.end(), [&](const auto& row) { return row.size() != columns; }))
        return false;
      ++part;
    }
    ++question;
  }
  return true;
}

// Reads a row into `s`, reusing its storage: a submission that last held a
// row of the same sheet keeps its parts and cells, which are only emptied.
void read_row(const CsvRecord& record, const SheetLayout& layout, const std::string& file, Submission& s) {
  s.source.assign(file);
  s.source += ':';
  s.source += std::to_string(record.line);
  s.student.clear();
  s.name.clear();
  s.rubric.clear();
  s.seed.reset();
  s.variant.clear();
  s.submitted.clear();
  s.notes.clear();
  s.unreadable.clear();
  const std::size_t n = record.fields.size();
  if (n != layout.fields)
    s.notes.push_back("row has " + std::to_string(n) + (n == 1 ? " field" : " fields") +
                      " but the header has " + std::to_string(layout.fields));
  auto field = [&](std::size_t i) { return i < n ? trim(record.fields[i]) : std::string_view(); };
  s.student = read_name(field(layout.student), "student", s);
  s.name = name_in(record.fields, layout.columns);
  if (layout.rubric) s.rubric = read_name(field(*layout.rubric), "rubric", s);
  if (layout.seed) read_seed(field(*layout.seed), s);
  if (layout.variant) read_variant(field(*layout.variant), s);
  if (layout.submitted) s.submitted = read_name(field(*layout.submitted), "submitted", s);
  if (has_layout(s.answers, layout)) {
    for (auto& [id, parts] : s.answers)
      for (auto& [name, answer] : parts)
        for (std::vector<std::string>& row : answer.rows)
          for (std::string& cell : row) cell.clear();
  } else {
    s.answers.clear();
    for (const auto& [question, parts] : layout.shapes)
      for (const auto& [part, shape] : parts) {
        PartAnswer& answer = s.answers[question][part];
        answer.rows.assign(shape.first, std::vector<std::string>(shape.second));
        answer.shaped_by_sheet = true;
      }
  }
  PartAnswer* part = nullptr;  // the part of the cell before, looked up again only when it changes
  const CellColumn* before = nullptr;
  for (const CellColumn& cell : layout.cells) {
    if (!before || cell.part != before->part || cell.question != before->question)
      part = &s.answers[cell.question][cell.part];
    part->rows[cell.row][cell.col] = field(cell.field);
    before = &cell;
  }
}

bool all_blank(const CsvRecord& record) {
  return std::all_of(record.fields.begin(), record.fields.end(),
                     [](const std::string& f) { return trim(f).empty(); });
}

}  // namespace

std::string submission_bytes_problem(std::string_view text, const ReadLimits& limits) {
  return input_problem(text, limits.max_file_bytes);
}

YamlNode parse_json_tree(std::string_view text, const YamlLimits& limits) {
  try {
    return parse_json(text, limits);
  } catch (const Unreadable& u) {
    throw Error(with_place(u.line, u.column, u.message));
  }
}

namespace {

// Reads a submission's tree with `read` (which may throw Unreadable or
// Error), then, when it could not be read, keeps only the reason.
template <typename Read>
Submission read_submission(const std::string& source, Read read) {
  Submission s;
  s.source = source;
  try {
    read(s);
  } catch (const Unreadable& u) {
    s.unreadable = with_place(u.line, u.column, u.message);
  } catch (const Error& e) {
    s.unreadable = with_place(e.line(), e.column(), e.message());
  }
  if (!s.unreadable.empty()) {
    // Nothing read counts when the file as a whole cannot be read.
    s.student.clear();
    s.rubric.clear();
    s.seed.reset();
    s.variant.clear();
    s.submitted.clear();
    s.answers.clear();
    s.notes.clear();
  }
  return s;
}

}  // namespace

Submission read_answer_tree(const YamlNode& root, const std::string& source, const ReadLimits& limits) {
  return read_submission(source, [&](Submission& s) { SubmissionReader(s, limits).read(root); });
}

Submission read_answer_file(std::string_view text, const std::string& source,
                            const ReadLimits& limits) {
  return read_submission(source, [&](Submission& s) {
    if (std::string problem = submission_bytes_problem(text, limits); !problem.empty())
      throw Unreadable{0, 0, std::move(problem)};
    if (text.starts_with(utf8_bom)) text.remove_prefix(utf8_bom.size());
    YamlLimits yaml_limits;
    yaml_limits.max_bytes = limits.max_file_bytes;
    SubmissionReader(s, limits).read(parse_tree(text, source, yaml_limits));
  });
}

namespace {

// Where the records of a sheet's body may be split for several threads: after
// a line break with an even number of '"' before it, and the empty lines
// after that. In a well-formed sheet that line break is outside every quoted
// field (each holds an even number of them), so a record starts there.
// Returns the pieces' ends, from `from` on: `pieces` offsets, the last
// text.size(); a piece may be empty.
std::vector<std::size_t> record_splits(std::string_view text, std::size_t from, std::size_t pieces) {
  std::vector<std::size_t> ends;
  std::size_t at = from, quotes = 0;  // quotes in [from, at)
  for (std::size_t k = 1; k < pieces; ++k) {
    const std::size_t aim = std::max(at, from + (text.size() - from) / pieces * k);
    quotes += static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(at),
                                                  text.begin() + static_cast<std::ptrdiff_t>(aim), '"'));
    at = aim;
    while (at < text.size() && !((text[at] == '\n' || text[at] == '\r') && quotes % 2 == 0)) quotes += text[at++] == '"';
    while (at < text.size() && (text[at] == '\n' || text[at] == '\r')) ++at;  // and the empty lines after it
    ends.push_back(at);
  }
  ends.push_back(text.size());
  return ends;
}

}  // namespace

SheetReader::SheetReader(std::string_view text, std::string file, const ReadLimits& limits,
                         const std::function<void(RowIdentity&&)>& on_student, unsigned jobs)
    : text_(text), file_(std::move(file)) {
  if (std::string problem = input_problem(text, limits.max_sheet_bytes, "the limit for a sheet"); !problem.empty())
    throw Error(file_, 0, 0, std::move(problem));
  CsvRecord record;
  SheetInfo info;
  // First pass: the whole sheet must be well-formed CSV within the caps
  // before any row is handed out, so a caller never acts on half a sheet.
  CsvReader reader(text, file_);
  if (!reader.next(record))
    throw Error(file_, 0, 0, "the sheet is empty; expected a header row with a student id column");
  auto layout = std::make_shared<SheetLayout>(read_header(record, file_, limits, info));
  if (layout->submitted) submitted_column_ = printable(trim(record.fields[*layout->submitted]), 100);
  // The rows that are not blank (spreadsheets export trailing ",,,," rows),
  // in pieces read on up to `jobs` threads, each from a record start with
  // its lines counted from 1; the pieces are then joined in order.
  struct Piece {
    std::vector<CsvReader::Position> rows;
    std::vector<std::string> students;
    std::vector<std::string> times;  // each row's submitted cell, when the sheet has the column
    std::vector<std::string> others;  // each row's identities cells, identities.size() a row
    CsvReader::Position end;  // where its reader stopped
    bool failed = false;
  };
  const CsvReader::Position body = reader.position();
  const std::size_t piece_bytes = std::size_t{256} << 10;  // not worth a thread below this
  const std::size_t count = std::max<std::size_t>(1, std::min<std::size_t>(jobs, (text.size() - body.offset) / piece_bytes));
  const std::vector<std::size_t> ends = record_splits(text, body.offset, count);
  std::vector<Piece> pieces(count);
  const auto read_piece = [&](std::size_t k, bool serial) {
    Piece& piece = pieces[k];
    const std::size_t begin = k == 0 ? body.offset : ends[k - 1];
    CsvReader part(text, file_, k == 0 ? body : CsvReader::Position{begin, 1, begin});
    CsvRecord row;
    for (CsvReader::Position at = part.skip_empty_lines(); (serial || at.offset < ends[k]) && part.next(row);
         at = part.skip_empty_lines()) {
      if (all_blank(row)) continue;
      piece.rows.push_back(at);
      if (piece.rows.size() > limits.max_sheet_rows) break;  // the join says so, with its line
      if (on_student) {
        Submission ignored;
        const std::string_view field =
            layout->student < row.fields.size() ? trim(row.fields[layout->student]) : std::string_view();
        piece.students.push_back(read_name(field, "student", ignored));
        if (layout->submitted) {
          const std::string_view time =
              *layout->submitted < row.fields.size() ? trim(row.fields[*layout->submitted]) : std::string_view();
          piece.times.push_back(read_name(time, "submitted", ignored));
        }
        for (const std::size_t column : layout->columns.identities)
          piece.others.push_back(read_name(column < row.fields.size() ? row.fields[column] : std::string_view(),
                                           "student", ignored));
      }
    }
    piece.end = part.position();
  };
  // A piece that stops anywhere but where the next one starts (a sheet that is
  // not well-formed) fails the split: the sheet is then read again on one
  // thread, so its first error is reported exactly as it would be anyway.
  if (count == 1) {
    read_piece(0, true);
  } else {
    parallel_for(count, jobs, [&](std::size_t k) {
      try {
        read_piece(k, false);
        pieces[k].failed = pieces[k].end.offset != ends[k] && pieces[k].rows.size() <= limits.max_sheet_rows;
      } catch (...) {  // (on the calling thread, the sheet read again throws it)
        pieces[k].failed = true;
      }
    });
    if (std::any_of(pieces.begin(), pieces.end(), [](const Piece& p) { return p.failed; })) {
      pieces.assign(1, Piece{});
      read_piece(0, true);
    }
  }
  std::size_t rows = 0;
  int lines_before = 0;  // lines before the current piece's first
  for (Piece& piece : pieces) {
    for (std::size_t i = 0; i < piece.rows.size(); ++i) {
      CsvReader::Position at = piece.rows[i];
      at.line += lines_before;
      const int line = at.line;
      rows_.push_back(at);
      if (++rows > limits.max_sheet_rows)
        throw Error(file_, line, 0,
                    "more than " + std::to_string(limits.max_sheet_rows) +
                        " rows of answers; split the sheet into smaller ones");
      // rows * cells_per_row cannot overflow: rows <= max_sheet_rows and
      // cells_per_row <= max_cells, both far below 2^32.
      if (rows * layout->cells_per_row > limits.max_sheet_cells)
        throw Error(file_, line, 0,
                    "more than " + std::to_string(limits.max_sheet_cells) + " answer cells (" +
                        std::to_string(rows) + " rows of " + std::to_string(layout->cells_per_row) +
                        "); split the sheet into smaller ones");
      if (on_student) {
        RowIdentity who{line, std::move(piece.students[i]), layout->submitted ? std::move(piece.times[i]) : std::string(), {}};
        const std::size_t n = layout->columns.identities.size();
        for (std::size_t k = i * n; k < (i + 1) * n; ++k) who.others.push_back(std::move(piece.others[k]));
        on_student(std::move(who));
      }
    }
    lines_before += piece.end.line - 1;
  }
  unknown_ = std::move(info.unknown_columns);
  layout_ = std::move(layout);
}

Submission SheetReader::submission(std::size_t index) const {
  Submission s;
  submission(index, s);
  return s;
}

void SheetReader::submission(std::size_t index, Submission& into) const {
  CsvReader reader(text_, file_, rows_[index]);
  thread_local CsvRecord record;  // its fields' storage is reused row after row
  reader.next(record);  // checked when the sheet was
  read_row(record, *layout_, file_, into);
}

SheetInfo read_sheet(std::string_view text, const std::string& file, const ReadLimits& limits,
                     const std::function<void(Submission&&)>& each) {
  SheetReader sheet(text, file, limits);
  SheetInfo info;
  info.unknown_columns = sheet.unknown_columns();
  for (std::size_t i = 0; i < sheet.rows(); ++i) {
    each(sheet.submission(i));
    ++info.rows;
  }
  return info;
}

std::vector<TitledColumn> read_column_map(std::string_view text, const std::string& file,
                                          const std::vector<std::string>& columns) {
  if (std::string problem = input_problem(text, max_column_map_bytes, "the limit for a column map"); !problem.empty())
    throw Error(file, 0, 0, std::move(problem));
  // The rubric's columns, by the cell each names (q1.weights.2 and q1.weights.1.2 are one cell).
  using Key = std::tuple<std::string, std::string, std::size_t, std::size_t>;
  std::set<Key> known;
  bool student = false;
  const auto key_of = [](std::string_view name, Key& key) {
    CellColumn cell;
    if (classify(name, max_answer_field_index, cell) != ColumnKind::cell) return false;
    key = {cell.question, cell.part, cell.row, cell.col};
    return true;
  };
  for (const std::string& column : columns) {
    Key key;
    if (column == "student") student = true;
    else if (key_of(column, key)) known.insert(key);
  }
  const auto is_column = [](std::string_view value) {
    CellColumn cell;
    return lower(value) == "student" || classify(value, max_answer_field_index, cell) == ColumnKind::cell;
  };
  struct Row {
    int line;
    std::string a, b;
  };
  std::vector<Row> rows;
  CsvReader reader(text.starts_with(utf8_bom) ? text.substr(utf8_bom.size()) : text, file);
  CsvRecord record;
  while (reader.next(record)) {
    if (all_blank(record)) continue;
    if (record.fields.size() != 2)
      throw Error(file, record.line, 0,
                  fmt::format("expected two fields, a form question's title and its cell (title,cell); got {}",
                              record.fields.size()));
    rows.push_back({record.line, std::string(trim(record.fields[0])), std::string(trim(record.fields[1]))});
  }
  // A header row names the columns; without one, the column whose every value is a cell name is the cells'.
  bool cells_first = false;
  std::size_t first = 0;
  if (!rows.empty() && ((lower(rows[0].a) == "title" && lower(rows[0].b) == "cell") ||
                        (lower(rows[0].a) == "cell" && lower(rows[0].b) == "title"))) {
    cells_first = lower(rows[0].a) == "cell";
    first = 1;
  } else {
    const bool a = std::all_of(rows.begin(), rows.end(), [&](const Row& r) { return is_column(r.a); });
    const bool b = std::all_of(rows.begin(), rows.end(), [&](const Row& r) { return is_column(r.b); });
    if (a == b && !rows.empty())
      throw Error(file, rows[0].line, 0,
                  "cannot tell which column holds the cell names (q1.scores.1, ...); give the header row title,cell");
    cells_first = a;
  }
  std::vector<TitledColumn> out;
  std::unordered_map<std::string, int> titles, cells;  // title key, cell → its line
  for (std::size_t k = first; k < rows.size(); ++k) {
    const Row& r = rows[k];
    std::string title = cells_first ? r.b : r.a, column = cells_first ? r.a : r.b;
    if (lower(column) == "student") column = "student";
    Key key;
    if (title.empty()) throw Error(file, r.line, 0, fmt::format("the title of {} is blank", quoted_printable(column)));
    if (!(column == "student" && student) && !(key_of(column, key) && known.count(key)))
      throw Error(file, r.line, 0,
                  fmt::format("{} is not a cell of the rubric; attnmark template RUBRIC --format form lists them",
                              quoted_printable(column)));
    const auto [t, fresh_title] = titles.emplace(column_title_key(title), r.line);
    if (!fresh_title)
      throw Error(file, r.line, 0,
                  fmt::format("the title {} is given twice (first at line {})", quoted_printable(title), t->second));
    const std::string cell = column == "student" ? column : fmt::format("{}.{}.{}.{}", std::get<0>(key), std::get<1>(key),
                                                                      std::get<2>(key), std::get<3>(key));
    const auto [c, fresh_cell] = cells.emplace(cell, r.line);
    if (!fresh_cell)
      throw Error(file, r.line, 0,
                  fmt::format("{} is given two titles (first at line {})", quoted_printable(column), c->second));
    out.push_back({std::move(title), std::move(column)});
  }
  if (out.empty()) throw Error(file, 0, 0, "the column map is empty; expected rows of title,cell");
  return out;
}

}  // namespace attnmark
