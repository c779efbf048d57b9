#include "readers/notebook_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "attnmark/lesson/rubric.h"

namespace attnmark {
namespace {

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";
// Literals nested deeper than this are not read (a list of lists is 2).
constexpr int max_literal_depth = 16;
// Student text quoted in a reason or note is cut to this.
constexpr std::size_t max_quoted_bytes = 60;

std::string in_quotes(std::string_view text) { return "'" + printable(text, max_quoted_bytes) + "'"; }

// ---- A strict tokenizer for the Python literals answer cells hold ----

struct Token {
  enum class Kind { name, number, string, op, newline, other, end };
  Kind kind = Kind::end;
  std::string text;  // a name, a number as written, a string's value, an operator
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

// Splits Python source (or a printed value) into tokens. Comments and
// line continuations are skipped; a line end inside brackets is not a
// newline. What this subset does not know (triple quotes, \N{...}, bytes
// that are no token) is one `other` token, which no literal holds.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : t_(text) {}

  std::vector<Token> all() {
    std::vector<Token> out;
    for (Token tok = next(); tok.kind != Token::Kind::end; tok = next()) out.push_back(std::move(tok));
    return out;
  }

 private:
  Token next() {
    for (;;) {
      if (i_ >= t_.size()) return {};
      const char c = t_[i_];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++i_;
      } else if (c == '#') {
        while (i_ < t_.size() && t_[i_] != '\n' && t_[i_] != '\r') ++i_;
      } else if (c == '\\' && i_ + 1 < t_.size() && (t_[i_ + 1] == '\n' || t_[i_ + 1] == '\r')) {
        i_ += 2;
      } else if (c == '\n' || c == '\r') {
        ++i_;
        if (depth_ == 0) return {Token::Kind::newline, "\n"};
      } else {
        break;
      }
    }
    const char c = t_[i_];
    if (is_digit(c) || (c == '.' && i_ + 1 < t_.size() && is_digit(t_[i_ + 1]))) return number();
    if (c == '"' || c == '\'') return string();
    if (is_name_start(c)) {
      const std::size_t start = i_;
      while (i_ < t_.size() && is_name_char(t_[i_])) ++i_;
      return {Token::Kind::name, std::string(t_.substr(start, i_ - start))};
    }
    ++i_;
    if (c == '(' || c == '[' || c == '{') ++depth_;
    if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
    if (std::string_view("()[]{},=/-+.:;*").find(c) != std::string_view::npos) return {Token::Kind::op, std::string(1, c)};
    return {Token::Kind::other, std::string(1, c)};
  }

  // A number as written: digits, '.', letters (exponents, 0x, j), '_', and a
  // sign right after an exponent's 'e'. The grader decides what it reads as.
  Token number() {
    const std::size_t start = i_;
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if ((c == '+' || c == '-') && (t_[i_ - 1] == 'e' || t_[i_ - 1] == 'E') && i_ - 1 > start && !is_hex(start)) {
        ++i_;
      } else if (is_name_char(c) || c == '.') {
        ++i_;
      } else {
        break;
      }
    }
    return {Token::Kind::number, std::string(t_.substr(start, i_ - start))};
  }
  bool is_hex(std::size_t start) const {
    return i_ - start >= 2 && t_[start] == '0' && (t_[start + 1] == 'x' || t_[start + 1] == 'X');
  }

  // A one-line string in single or double quotes, its escapes decoded.
  Token string() {
    const char quote = t_[i_];
    if (t_.substr(i_, 3) == std::string(3, quote)) return other_to_end();
    ++i_;
    std::string value;
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == quote) {
        ++i_;
        return {Token::Kind::string, std::move(value)};
      }
      if (c == '\n' || c == '\r') break;
      if (c != '\\') {
        value += c;
        ++i_;
        continue;
      }
      if (i_ + 1 >= t_.size()) break;
      const char e = t_[i_ + 1];
      i_ += 2;
      switch (e) {
        case '\\': value += '\\'; break;
        case '\'': value += '\''; break;
        case '"': value += '"'; break;
        case 'n': value += '\n'; break;
        case 't': value += '\t'; break;
        case 'r': value += '\r'; break;
        case '0': value += '\0'; break;
        case '\n': break;  // a continued line
        case 'x':
        case 'u':
        case 'U': {
          const std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          std::uint32_t cp = 0;
          if (t_.size() - i_ < digits) return other_to_end();
          for (std::size_t k = 0; k < digits; ++k) {
            const char h = t_[i_ + k];
            const int v = is_digit(h) ? h - '0' : (h >= 'a' && h <= 'f') ? h - 'a' + 10 : (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
            if (v < 0) return other_to_end();
            cp = cp << 4 | static_cast<std::uint32_t>(v);
          }
          i_ += digits;
          if (!encode_utf8(cp, value)) return other_to_end();
          break;
        }
        default:  // Python keeps an unknown escape as it is
          value += '\\';
          value += e;
      }
    }
    return other_to_end();
  }
  // Nothing after what this subset cannot read is read.
  Token other_to_end() {
    i_ = t_.size();
    return {Token::Kind::other, "?"};
  }

  std::string_view t_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

// ---- Literals to trees ----

// Reads one literal from tokens; `printed` also takes what Python and NumPy
// print: array(...), float64(...), lists without commas, nan and inf.
class LiteralParser {
 public:
  LiteralParser(const std::vector<Token>& tokens, std::size_t from, std::size_t to, bool printed)
      : t_(tokens), i_(from), end_(to), printed_(printed) {}

  // The literal that spans every token in [from, to), or nullopt. A tuple
  // without its parentheses (`0.665, 0.090, 0.245`, as Python allows on the
  // right of an assignment) is a list.
  std::optional<YamlNode> whole() {
    std::optional<YamlNode> v = value(0);
    if (!v) return std::nullopt;
    if (i_ == end_) return v;
    if (!op(",")) return std::nullopt;
    YamlNode list;
    list.kind = YamlNode::Kind::sequence;
    list.items.push_back(std::move(*v));
    while (op(",")) {
      ++i_;
      if (i_ == end_) break;  // (a trailing comma)
      std::optional<YamlNode> item = value(1);
      if (!item) return std::nullopt;
      list.items.push_back(std::move(*item));
    }
    if (i_ != end_) return std::nullopt;
    return list;
  }

 private:
  bool at(Token::Kind kind, std::string_view text = {}) const {
    return i_ < end_ && t_[i_].kind == kind && (text.empty() || t_[i_].text == text);
  }
  bool op(std::string_view text) const { return at(Token::Kind::op, text); }

  static YamlNode scalar(std::string text, bool plain) {
    YamlNode n;
    n.kind = YamlNode::Kind::scalar;
    n.text = std::move(text);
    n.plain = plain;
    return n;
  }

  std::optional<YamlNode> value(int depth) {
    if (depth > max_literal_depth || i_ >= end_) return std::nullopt;
    if (op("-") || op("+")) {
      const std::string sign = t_[i_].text == "-" ? "-" : "";
      ++i_;
      std::optional<YamlNode> n = number();
      if (n) n->text = sign + n->text;
      return n;
    }
    if (at(Token::Kind::number)) return number();
    if (at(Token::Kind::string)) return scalar(t_[i_++].text, false);
    if (op("[")) return sequence("]", depth);
    if (op("(")) return sequence(")", depth);
    if (at(Token::Kind::name)) {
      const std::string& name = t_[i_].text;
      if (name == "None") {
        ++i_;
        return YamlNode();
      }
      if (name == "True" || name == "False" || (printed_ && (name == "nan" || name == "inf"))) return scalar(t_[i_++].text, true);
      return call(depth);
    }
    return std::nullopt;
  }

  // A number, or a number over a number ("2/3", read as a fraction).
  std::optional<YamlNode> number() {
    if (!at(Token::Kind::number)) return std::nullopt;
    std::string text = t_[i_++].text;
    if (op("/") && i_ + 1 < end_ && t_[i_ + 1].kind == Token::Kind::number) {
      text += "/" + t_[i_ + 1].text;
      i_ += 2;
    }
    return scalar(std::move(text), true);
  }

  // [a, b, ...] or (a, b, ...); (a) is a. Printed lists may leave out commas.
  std::optional<YamlNode> sequence(std::string_view close, int depth) {
    const bool tuple = close == ")";
    ++i_;
    YamlNode list;
    list.kind = YamlNode::Kind::sequence;
    bool comma = false;
    while (!op(close)) {
      if (!list.items.empty()) {
        if (op(",")) {
          ++i_;
          comma = true;
          if (op(close)) break;
        } else if (!printed_) {
          return std::nullopt;
        }
      }
      std::optional<YamlNode> item = value(depth + 1);
      if (!item) return std::nullopt;
      list.items.push_back(std::move(*item));
    }
    ++i_;
    if (tuple && list.items.size() == 1 && !comma) return std::move(list.items[0]);
    return list;
  }

  // np.array(literal[, dtype=...]) and numpy.array(...); printed, also
  // array(...) and float64(...)/int64(...) with or without np.
  std::optional<YamlNode> call(int depth) {
    std::vector<std::string> dotted{t_[i_++].text};
    while (op(".") && i_ + 1 < end_ && t_[i_ + 1].kind == Token::Kind::name) {
      dotted.push_back(t_[i_ + 1].text);
      i_ += 2;
    }
    const bool numpy = dotted.size() == 2 && (dotted[0] == "np" || dotted[0] == "numpy");
    const std::string& f = dotted.back();
    const bool known = (numpy || (printed_ && dotted.size() == 1)) &&
                       (f == "array" || (printed_ && (f == "float64" || f == "float32" || f == "int64" || f == "int32" || f == "str_")));
    if (!known || !op("(")) return std::nullopt;
    ++i_;
    std::optional<YamlNode> v = value(depth + 1);
    if (!v) return std::nullopt;
    if (op(",") && i_ + 2 < end_ && t_[i_ + 1].kind == Token::Kind::name && t_[i_ + 1].text == "dtype" &&
        t_[i_ + 2].kind == Token::Kind::op && t_[i_ + 2].text == "=") {
      i_ += 3;
      if (at(Token::Kind::string)) {
        ++i_;
      } else if (at(Token::Kind::name)) {
        ++i_;
        while (op(".") && i_ + 1 < end_ && t_[i_ + 1].kind == Token::Kind::name) i_ += 2;
      } else {
        return std::nullopt;
      }
    }
    if (!op(")")) return std::nullopt;
    ++i_;
    return v;
  }

  const std::vector<Token>& t_;
  std::size_t i_, end_;
  bool printed_;
};

// What an answer cell's source says about its variable.
struct CellSource {
  enum class Kind { empty, literal, computed } kind = Kind::empty;
  YamlNode value;  // when literal
};

// The cell is literal when every statement in it is `variable = literal`
// or `variable` alone (it shows the value), with at least one assignment;
// empty when it holds no statement; computed otherwise.
CellSource read_source(std::string_view source, const std::string& variable) {
  const std::vector<Token> tokens = Tokenizer(source).all();
  CellSource out;
  bool assigned = false, other = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= tokens.size(); ++i) {
    const bool ends = i == tokens.size() || tokens[i].kind == Token::Kind::newline ||
                      (tokens[i].kind == Token::Kind::op && tokens[i].text == ";");
    if (!ends) continue;
    const std::size_t from = start, to = i;
    start = i + 1;
    if (from == to) continue;
    const bool names_variable = tokens[from].kind == Token::Kind::name && tokens[from].text == variable;
    if (names_variable && to - from == 1) continue;  // shows the value
    const auto is_op = [&](std::size_t k, std::string_view text) {
      return tokens[k].kind == Token::Kind::op && tokens[k].text == text;
    };
    // `variable = literal`, or annotated, `variable: list = literal`.
    std::size_t equals = from + 1;
    if (names_variable && equals < to && is_op(equals, ":"))
      while (equals < to && !is_op(equals, "=")) ++equals;
    if (names_variable && equals + 1 < to && is_op(equals, "=")) {
      if (std::optional<YamlNode> v = LiteralParser(tokens, equals + 1, to, false).whole()) {
        out.value = std::move(*v);
        assigned = true;
        continue;
      }
    }
    other = true;
  }
  out.kind = other ? CellSource::Kind::computed : assigned ? CellSource::Kind::literal : CellSource::Kind::empty;
  return out;
}

// What Python showed or printed, read as a literal; else the text itself
// (trimmed) as one cell, which the grader reports as it reads it.
YamlNode read_printed(std::string_view text) {
  std::vector<Token> tokens = Tokenizer(text).all();
  std::size_t from = 0, to = tokens.size();
  while (from < to && tokens[from].kind == Token::Kind::newline) ++from;
  while (to > from && tokens[to - 1].kind == Token::Kind::newline) --to;
  if (std::optional<YamlNode> v = LiteralParser(tokens, from, to, true).whole()) return std::move(*v);
  YamlNode n;
  n.kind = YamlNode::Kind::scalar;
  n.text = std::string(trim(text));
  return n;
}

// ---- The notebook ----

// A string, or a list of strings joined (how nbformat stores text); nullopt
// for anything else.
std::optional<std::string> multiline(const YamlNode* n) {
  if (!n) return std::nullopt;
  if (n->is_scalar() && !n->plain) return n->text;
  if (!n->is_sequence()) return std::nullopt;
  std::string out;
  for (const YamlNode& line : n->items) {
    if (!line.is_scalar() || line.plain) return std::nullopt;
    out += line.text;
  }
  return out;
}

const YamlNode* member(const YamlNode* map, std::string_view key) {
  return map && map->is_map() ? map->find(key) : nullptr;
}

const char* const header_fields[] = {"rubric", "student", "seed", "variant", "generator"};

// True for metadata.attnmark that holds a header field.
bool is_header(const YamlNode& data) {
  for (const char* field : header_fields)
    if (data.find(field)) return true;
  return false;
}

// Takes `data` as the header when there is none yet; else "" when it names
// the same student as the header, or why the notebook cannot be read.
std::string take_header(std::optional<YamlNode>& header, const YamlNode& data) {
  if (!header) {
    header = data;
    return {};
  }
  const auto id = [](const YamlNode* n) { return n && n->is_scalar() ? std::string(trim(n->text)) : std::string(); };
  const std::string first = id(member(&*header, "student")), again = id(data.find("student"));
  if (first == again) return {};
  return fmt::format("two header cells name different students ({} and {}); hand in your own notebook", in_quotes(first),
                     in_quotes(again));
}

// The stored output of a code cell: the last execute_result's text/plain,
// else the last display_data's, else everything printed to stdout. `error`
// gets the name of an error output (when there is one).
std::optional<std::string> stored_output(const YamlNode& cell, std::string& error) {
  const YamlNode* outputs = member(&cell, "outputs");
  if (!outputs || !outputs->is_sequence()) return std::nullopt;
  std::optional<std::string> result, displayed, printed;
  for (const YamlNode& o : outputs->items) {
    const YamlNode* type = member(&o, "output_type");
    if (!type || !type->is_scalar()) continue;
    if (type->text == "execute_result") {
      if (std::optional<std::string> text = multiline(member(member(&o, "data"), "text/plain"))) result = std::move(text);
    } else if (type->text == "display_data") {  // display(q1_weights)
      if (std::optional<std::string> text = multiline(member(member(&o, "data"), "text/plain"))) displayed = std::move(text);
    } else if (type->text == "stream") {
      const YamlNode* name = member(&o, "name");
      if (name && name->is_scalar() && name->text == "stdout")
        if (std::optional<std::string> text = multiline(member(&o, "text"))) printed = printed.value_or("") + *text;
    } else if (type->text == "error") {
      const YamlNode* name = member(&o, "ename");
      error = name && name->is_scalar() ? name->text : "an error";
    }
  }
  if (result) return result;
  if (displayed) return displayed;
  return printed;
}

struct AnswerCell {
  std::string question, part;
  YamlNode value;
  std::string unreadable;  // why the part cannot be read (PartAnswer::unreadable)
  bool not_run = false;    // computed, and the notebook has no output for it
};

}  // namespace

bool is_notebook_name(std::string_view path) {
  return path.size() >= 6 && lower(path.substr(path.size() - 6)) == ".ipynb";
}

Submission read_notebook(std::string_view text, const std::string& source, const ReadLimits& limits) {
  auto refused = [&](std::string reason) {
    Submission s;
    s.source = source;
    s.unreadable = std::move(reason);
    return s;
  };
  if (std::string problem = submission_bytes_problem(text, limits); !problem.empty()) return refused(problem);
  if (text.starts_with(utf8_bom)) text.remove_prefix(utf8_bom.size());
  YamlLimits json_limits;
  json_limits.max_bytes = limits.max_file_bytes;
  YamlNode root;
  try {
    root = parse_json_tree(text, json_limits);
  } catch (const Error& e) {
    return refused(e.message());
  }
  const YamlNode* format = member(&root, "nbformat");
  const YamlNode* cells = member(&root, "cells");
  if (format && format->is_scalar() && format->plain && format->text != "4")
    return refused(fmt::format("nbformat {} notebook; open it in Jupyter and save it (nbformat 4)", printable(format->text, 20)));
  if (!format || !cells || !cells->is_sequence())
    return refused("not a Jupyter notebook: expected a JSON object with nbformat and cells");

  std::vector<std::string> notes;
  RepeatedNotes unknown_cells("more cells that are not answer cells ignored");
  RepeatedNotes repeated_cells("more parts with more than one answer cell");
  std::optional<YamlNode> header;
  std::vector<AnswerCell> answers;
  std::map<std::string, std::size_t> answer_at;  // "q1.weights" → its index in answers
  for (const YamlNode& cell : cells->items) {
    const YamlNode* data = member(member(&cell, "metadata"), "attnmark");
    if (!data || !data->is_map()) continue;
    if (is_header(*data)) {
      if (std::string conflict = take_header(header, *data); !conflict.empty()) return refused(std::move(conflict));
      continue;
    }
    const YamlNode* part_field = data->find("part");
    if (!part_field) continue;
    const YamlNode* type = member(&cell, "cell_type");
    const std::string name = part_field->is_scalar() ? part_field->text : std::string();
    const std::size_t dot = name.rfind('.');
    const std::optional<Part> part = dot == std::string::npos ? std::nullopt : parse_part(std::string_view(name).substr(dot + 1));
    if (!part || dot == 0 || !type || !type->is_scalar() || type->text != "code") {
      if (unknown_cells.keep())
        notes.push_back(fmt::format("a cell for part {} is not an answer cell attnmark knows; ignored", in_quotes(name)));
      continue;
    }
    AnswerCell answer{name.substr(0, dot), part_name(*part), YamlNode(), std::string(), false};
    const std::string variable = answer_variable(answer.question, *part);
    const CellSource read = read_source(multiline(member(&cell, "source")).value_or(""), variable);
    if (read.kind == CellSource::Kind::literal) {
      answer.value = read.value;
    } else if (read.kind == CellSource::Kind::computed) {
      std::string error;
      if (std::optional<std::string> output = stored_output(cell, error)) {
        answer.value = read_printed(*output);
      } else if (!error.empty()) {
        answer.unreadable = fmt::format("{} is computed, and its cell stopped with an error ({}); fix it and run the notebook again",
                                        variable, printable(error, max_quoted_bytes));
      } else {
        answer.unreadable =
            fmt::format("run the notebook before handing it in ({} is computed, and the notebook has no output for it)", variable);
        answer.not_run = true;
      }
    }
    const std::string key = answer.question + "." + answer.part;
    if (const auto it = answer_at.find(key); it != answer_at.end()) {
      if (repeated_cells.keep())
        notes.push_back(fmt::format("{} has more than one answer cell; the last one counts", printable(key, max_quoted_bytes)));
      answers[it->second] = std::move(answer);
    } else {
      answer_at.emplace(key, answers.size());
      answers.push_back(std::move(answer));
    }
  }
  // The notebook's own metadata holds the header too (writers/notebook_writer):
  // it counts when no header cell is left, and must not name another student.
  if (const YamlNode* data = member(member(&root, "metadata"), "attnmark"); data && data->is_map() && is_header(*data))
    if (std::string conflict = take_header(header, *data); !conflict.empty()) return refused(std::move(conflict));
  unknown_cells.finish(notes);
  repeated_cells.finish(notes);
  if (answers.empty())
    return refused("the notebook has no answer cells (cells whose metadata.attnmark.part names a part); "
                   "hand in the notebook attnmark generated");

  // The notebook as an answer file's tree: the header's fields, when it was
  // handed in, then answers.
  YamlNode tree;
  tree.kind = YamlNode::Kind::map;
  auto add_field = [&](const char* field, const YamlNode& value) {
    YamlNode key;
    key.kind = YamlNode::Kind::scalar;
    key.text = field;
    tree.entries.push_back(YamlEntry{std::move(key), value});
  };
  if (header)
    for (const char* field : header_fields)
      if (const YamlNode* value = header->find(field)) add_field(field, *value);
  // The time a tool that collects notebooks records in them: the header's
  // `submitted`, else the notebook's own metadata.attnmark.submitted (which
  // may hold it without a header).
  const YamlNode* submitted = header ? header->find("submitted") : nullptr;
  if (!submitted) submitted = member(member(member(&root, "metadata"), "attnmark"), "submitted");
  if (submitted) add_field("submitted", *submitted);
  YamlNode all;
  all.kind = YamlNode::Kind::map;
  std::map<std::string, std::size_t> question_at;
  for (const AnswerCell& a : answers) {
    auto [it, added] = question_at.emplace(a.question, all.entries.size());
    if (added) {
      YamlEntry question;
      question.key.kind = YamlNode::Kind::scalar;
      question.key.text = a.question;
      question.value.kind = YamlNode::Kind::map;
      all.entries.push_back(std::move(question));
    }
    YamlEntry part;
    part.key.kind = YamlNode::Kind::scalar;
    part.key.text = a.part;
    part.value = a.value;
    all.entries[it->second].value.entries.push_back(std::move(part));
  }
  YamlEntry answers_entry;
  answers_entry.key.kind = YamlNode::Kind::scalar;
  answers_entry.key.text = "answers";
  answers_entry.value = std::move(all);
  tree.entries.push_back(std::move(answers_entry));

  Submission s = read_answer_tree(tree, source, limits);
  if (!s.unreadable.empty()) return s;
  // Parts read past (a question named with control characters) say nothing.
  std::vector<std::string> unrun;
  for (const AnswerCell& a : answers) {
    if (a.unreadable.empty()) continue;
    const auto q = s.answers.find(a.question);
    if (q == s.answers.end()) continue;
    const auto p = q->second.find(a.part);
    if (p == q->second.end()) continue;
    p->second.unreadable = a.unreadable;
    if (a.not_run) unrun.push_back(answer_variable(a.question, *parse_part(a.part)));
  }
  if (!unrun.empty()) {
    const std::size_t shown = std::min<std::size_t>(unrun.size(), 10);
    std::string names = fmt::format("{}", fmt::join(unrun.begin(), unrun.begin() + static_cast<std::ptrdiff_t>(shown), ", "));
    if (unrun.size() > shown) names += fmt::format(" and {} more", unrun.size() - shown);
    // The words of each part's own message, so the heading and the part agree.
    notes.push_back(fmt::format("run the notebook before handing it in ({} {} computed, and the notebook has no output for {})",
                                printable(names, 1000), unrun.size() == 1 ? "is" : "are", unrun.size() == 1 ? "it" : "them"));
  }
  s.notes.insert(s.notes.begin(), notes.begin(), notes.end());
  return s;
}

}  // namespace attnmark
