#include "readers/rubric_loader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "readers/yaml_tree.h"

namespace attnmark {
namespace {

constexpr int max_dimension = 16;
constexpr int max_grid_decimals = 6;
constexpr std::int64_t max_grid_points = 1'000'000;
// A rubric file is read whole; larger ones are refused before parsing.
constexpr std::size_t max_rubric_bytes = std::size_t(1) << 20;
// Longer messages (a long misspelt key quoted back) are cut.
constexpr std::size_t max_message_bytes = 1000;

std::string quoted_list(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i) out += i + 1 == words.size() ? " or " : ", ";
    out += "'" + words[i] + "'";
  }
  return out;
}


std::string describe(const YamlNode& node) {
  switch (node.kind) {
    case YamlNode::Kind::null: return "nothing";
    case YamlNode::Kind::scalar: return quoted_printable(node.text);  // cut: a value can be long
    case YamlNode::Kind::sequence: return node.items.empty() ? "an empty list" : "a list";
    case YamlNode::Kind::map: return "a map";
  }
  return "?";
}

// A decimal number as written: units / 10^decimals, for exact grids.
struct Decimal {
  std::int64_t units = 0;
  int decimals = 0;
};

// Reads one rubric, keeping the text so errors can show the line.
class Loader {
 public:
  Loader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  Rubric load() {
    const YamlNode root = parse_yaml(text_, file_);
    Rubric rubric;
    rubric.file = file_;
    rubric.name = stem(file_);
    if (!root.is_map()) fail(root, fmt::format("a rubric is a map with 'questions:'; got {}", describe(root)));
    expect_keys(root, "", {"name", "title", "seed", "reveal_answers", "questions"});
    if (const YamlNode* n = root.find("name")) rubric.name = word(*n, "name");
    if (const YamlNode* n = root.find("title")) rubric.title = text(*n, "title");
    if (const YamlNode* n = root.find("seed")) rubric.seed = seed(*n);
    if (const YamlNode* n = root.find("reveal_answers")) rubric.reveal_in_feedback = boolean(*n, "reveal_answers");
    const YamlNode* questions = root.find("questions");
    if (!questions) fail(root, "missing 'questions:'; a rubric needs at least one question");
    if (!questions->is_sequence() || questions->items.empty())
      fail(*questions, fmt::format("questions: expected a list of one or more questions; got {}", describe(*questions)));
    std::set<std::string> ids;
    std::map<std::string, std::string> by_variable;  // a notebook's answer names: q_1_scores → q-1
    for (std::size_t i = 0; i < questions->items.size(); ++i) {
      QuestionSpec q = question(questions->items[i], i);
      if (!ids.insert(q.id).second) fail(questions->items[i], fmt::format("{}: two questions have the id '{}'", q.id, q.id));
      // Ids that differ only where a Python name cannot (q-1, q_1) would share a notebook's answer variables.
      std::string stem = answer_variable(q.id, Part::scores);  // "q_1_scores"
      stem.resize(stem.size() - std::string_view("scores").size());
      const auto [it, fresh] = by_variable.emplace(stem, q.id);
      if (!fresh)
        fail(questions->items[i], fmt::format("{}: the ids '{}' and '{}' differ only in punctuation, and a notebook "
                                              "would name both questions' answers {}…; rename one",
                                              q.id, it->second, q.id, stem));
      rubric.questions.push_back(std::move(q));
    }
    return rubric;
  }

 private:
  // Messages quote what the rubric says; escaped, so one stays one line.
  [[noreturn]] void fail(const YamlNode& at, const std::string& message) const {
    throw Error(file_, at.line, at.column, printable(message, max_message_bytes), source_line(text_, at.line));
  }
  SourcePlace place(const YamlNode& at) const { return {file_, at.line, at.column}; }

  static std::string stem(const std::string& path) {
    std::string name = path.substr(path.find_last_of("/\\") + 1);
    const std::size_t dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
  }


  void expect_keys(const YamlNode& map, const std::string& path, const std::vector<std::string>& allowed) const {
    for (const auto& [key, value] : map.entries)
      if (std::find(allowed.begin(), allowed.end(), key.text) == allowed.end())
        fail(key, fmt::format("{}unknown key '{}'{}; allowed here: {}", path.empty() ? "" : path + ": ",
                              key.text, did_you_mean(key.text, allowed), quoted_list(allowed)));
  }

  std::string text(const YamlNode& n, const std::string& field) const {
    if (!n.is_scalar()) fail(n, fmt::format("{}: expected text; got {}", field, describe(n)));
    return n.text;
  }
  std::string word(const YamlNode& n, const std::string& field) const {
    const std::string s = text(n, field);
    if (s.empty() || s.size() > 40 || s.find_first_of(" \t\r\n") != std::string::npos)
      fail(n, fmt::format("{}: expected one word of 1 to 40 characters with no spaces; got '{}'", field, s));
    return s;
  }
  bool boolean(const YamlNode& n, const std::string& field) const {
    if (n.is_scalar() && n.plain && n.text == "true") return true;
    if (n.is_scalar() && n.plain && n.text == "false") return false;
    fail(n, fmt::format("{}: expected true or false; got {}", field, describe(n)));
  }
  std::uint64_t seed(const YamlNode& n) const {
    std::uint64_t value = 0;
    const std::string& s = n.text;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (!n.is_scalar() || s.empty() || ec != std::errc() || end != s.data() + s.size())
      fail(n, fmt::format("seed: expected a whole number from 0 to 18446744073709551615; got {}", describe(n)));
    return value;
  }
  // A finite number written plainly: 2, -0.5, 1e-3.
  double number(const YamlNode& n, const std::string& field) const {
    if (n.is_scalar()) {
      const std::string& s = n.text;
      const char* begin = s.data() + (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+' ? 1 : 0);
      double value = 0;
      const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
      if (!s.empty() && ec == std::errc() && end == s.data() + s.size() && std::isfinite(value) &&
          s.find_first_of("xXnN") == std::string::npos)
        return value;
    }
    fail(n, fmt::format("{}: expected a number; got {}", field, describe(n)));
  }
  int integer(const YamlNode& n, const std::string& field, int lo, int hi) const {
    int value = 0;
    if (n.is_scalar()) {
      const std::string& s = n.text;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
      if (!s.empty() && ec == std::errc() && end == s.data() + s.size() && value >= lo && value <= hi)
        return value;
    }
    fail(n, fmt::format("{}: expected a whole number from {} to {}; got {}", field, lo, hi, describe(n)));
  }
  // A plain decimal (no exponent), kept exact for grids.
  Decimal decimal(const YamlNode& n, const std::string& field) const {
    if (n.is_scalar()) {
      std::string s = n.text;
      bool negative = false;
      if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        s.erase(0, 1);
      }
      const std::size_t dot = s.find('.');
      std::string digits = dot == std::string::npos ? s : s.substr(0, dot) + s.substr(dot + 1);
      const int decimals = dot == std::string::npos ? 0 : static_cast<int>(s.size() - dot - 1);
      Decimal d;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d.units);
      if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos &&
          ec == std::errc() && end == digits.data() + digits.size() && decimals <= max_grid_decimals &&
          d.units <= 1'000'000 * static_cast<std::int64_t>(std::pow(10, decimals))) {
        d.units = negative ? -d.units : d.units;
        d.decimals = decimals;
        return d;
      }
    }
    fail(n, fmt::format("{}: expected a plain decimal number with at most {} decimals, like 2 or -0.5; got {}",
                        field, max_grid_decimals, describe(n)));
  }

  // An input number, bounded so that every answer stays a finite number.
  double input_number(const YamlNode& n, const std::string& field) const {
    const double x = number(n, field);
    if (std::fabs(x) > 1e6) fail(n, fmt::format("{}: numbers must be from -1000000 to 1000000; got {}", field, n.text));
    return x;
  }

  static std::int64_t scale_units(Decimal d, int decimals) {
    for (int i = d.decimals; i < decimals; ++i) d.units *= 10;
    return d.units;
  }

  InputSpec input(const YamlNode& n, const std::string& field) const {
    InputSpec in;
    in.present = true;
    in.place = place(n);
    if (n.is_map()) {
      expect_keys(n, field, {"min", "max", "step"});
      const YamlNode* lo = n.find("min");
      const YamlNode* hi = n.find("max");
      const YamlNode* step = n.find("step");
      if (!lo || !hi) fail(n, fmt::format("{}: a random grid needs 'min' and 'max' (and optionally 'step', default 1)", field));
      const Decimal a = decimal(*lo, field + ".min");
      const Decimal b = decimal(*hi, field + ".max");
      const Decimal s = step ? decimal(*step, field + ".step") : Decimal{1, 0};
      const int decimals = std::max({a.decimals, b.decimals, s.decimals});
      in.random = true;
      in.grid = Grid{scale_units(a, decimals), scale_units(b, decimals), scale_units(s, decimals), decimals};
      if (in.grid.step_units <= 0) fail(*step, fmt::format("{}.step: must be above 0", field));
      if (in.grid.max_units < in.grid.min_units) fail(*hi, fmt::format("{}.max: must not be below min", field));
      if ((in.grid.max_units - in.grid.min_units) % in.grid.step_units != 0)
        fail(*hi, fmt::format("{}: max must be min plus a whole number of steps", field));
      if (in.grid.count() > max_grid_points)
        fail(n, fmt::format("{}: the grid has more than {} points; use a larger step", field, max_grid_points));
      return in;
    }
    if (!n.is_sequence() || n.items.empty())
      fail(n, fmt::format("{}: expected numbers (a list, or a list of rows) or a random grid {{min, max, step}}; got {}",
                          field, describe(n)));
    if (n.items[0].is_sequence()) {
      for (std::size_t r = 0; r < n.items.size(); ++r) {
        const YamlNode& row = n.items[r];
        if (!row.is_sequence() || row.items.empty())
          fail(row, fmt::format("{}: row {} must be a list of numbers; got {}", field, r + 1, describe(row)));
        Vector values;
        for (const YamlNode& cell : row.items) values.push_back(input_number(cell, field));
        if (!in.fixed.empty() && values.size() != in.fixed[0].size())
          fail(row, fmt::format("{}: row {} has {} number{} but row 1 has {}; every row needs the same length",
                                field, r + 1, values.size(), values.size() == 1 ? "" : "s", in.fixed[0].size()));
        in.fixed.push_back(std::move(values));
      }
    } else {
      Vector values;
      for (const YamlNode& cell : n.items) values.push_back(input_number(cell, field));
      in.fixed.push_back(std::move(values));
    }
    return in;
  }

  // Checks a fixed input's shape against the dimensions; fills unknown ones.
  void fit(const InputSpec& in, const YamlNode& at, const std::string& field, bool vector, int rows,
           const char* rows_name, int& cols, const char* cols_name) const {
    if (!in.present || in.random) return;
    if (vector) {
      if (in.fixed.size() != 1)
        fail(at, fmt::format("{}: expected one vector (a list of numbers), not a table", field));
    } else if (rows > 0 && static_cast<int>(in.fixed.size()) != rows) {
      fail(at, fmt::format("{}: expected {} rows (one per {}); got {}", field, rows, rows_name, in.fixed.size()));
    } else if (rows == 0 && static_cast<int>(in.fixed.size()) > max_dimension) {
      fail(at, fmt::format("{}: at most {} rows", field, max_dimension));
    }
    const int given = static_cast<int>(in.fixed[0].size());
    if (cols == 0) {
      if (given > max_dimension) fail(at, fmt::format("{}: at most {} numbers per row", field, max_dimension));
      cols = given;
    } else if (given != cols) {
      fail(at, fmt::format("{}: rows have {} numbers; expected {} = {}", field, given, cols_name, cols));
    }
  }

  Part part(const YamlNode& n, const std::string& field) const {
    // As messages list them.
    static const std::vector<std::string> names = {"query", "queries", "keys", "values", "scores",
                                                   "weights", "output", "most-attended"};
    const std::string s = text(n, field);
    if (const std::optional<Part> p = parse_part(s)) return *p;
    fail(n, fmt::format("{}: unknown part '{}'{}; parts are {}", field, s, did_you_mean(s, names), quoted_list(names)));
  }

  Tolerance tolerance(const YamlNode& n, const std::string& field) const {
    if (!n.is_map()) fail(n, fmt::format("{}: expected a map such as {{absolute: 0.001}}, {{relative: 0.01}}, {{sigfigs: 3}} or {{decimals: 2}}; got {}", field, describe(n)));
    expect_keys(n, field, {"absolute", "relative", "sigfigs", "decimals"});
    Tolerance t;
    const YamlNode* sig = n.find("sigfigs");
    const YamlNode* dec = n.find("decimals");
    if (sig || dec) {
      if (n.entries.size() != 1)
        fail(n, fmt::format("{}: sigfigs and decimals each stand alone; do not mix them with other keys", field));
      t.mode = sig ? Tolerance::Mode::sigfigs : Tolerance::Mode::decimals;
      t.digits = sig ? integer(*sig, field + ".sigfigs", 1, 15) : integer(*dec, field + ".decimals", 0, 15);
      return t;
    }
    if (n.entries.empty()) fail(n, fmt::format("{}: give absolute, relative, sigfigs or decimals", field));
    if (const YamlNode* a = n.find("absolute")) t.atol = non_negative(*a, field + ".absolute");
    if (const YamlNode* r = n.find("relative")) {
      t.rtol = non_negative(*r, field + ".relative");
      t.mode = Tolerance::Mode::relative;
    }
    return t;
  }
  double non_negative(const YamlNode& n, const std::string& field) const {
    const double x = number(n, field);
    if (x < 0) fail(n, fmt::format("{}: must not be negative; got {}", field, n.text));
    return x;
  }

  PartMarking marking(const YamlNode& n, const std::string& field) const {
    if (!n.is_map()) fail(n, fmt::format("{}: expected a map such as {{marks: 2, decimals: 3}}; got {}", field, describe(n)));
    expect_keys(n, field, {"marks", "decimals", "tolerance", "credit", "follow_through", "follow_through_credit"});
    PartMarking m;
    m.place = place(n);
    if (const YamlNode* x = n.find("marks")) {
      m.marks = number(*x, field + ".marks");
      if (m.marks < 0 || m.marks > 1000) fail(*x, fmt::format("{}.marks: expected a number from 0 to 1000; got {}", field, x->text));
    }
    if (const YamlNode* x = n.find("decimals")) m.decimals = integer(*x, field + ".decimals", 0, 10);
    if (const YamlNode* x = n.find("tolerance")) m.tolerance = tolerance(*x, field + ".tolerance");
    if (const YamlNode* x = n.find("credit")) {
      const std::string s = text(*x, field + ".credit");
      if (s != "per-cell" && s != "all-or-nothing")
        fail(*x, fmt::format("{}.credit: expected 'per-cell' or 'all-or-nothing'; got '{}'", field, s));
      m.per_cell = s == "per-cell";
    }
    if (const YamlNode* x = n.find("follow_through")) m.follow_through = boolean(*x, field + ".follow_through");
    if (const YamlNode* x = n.find("follow_through_credit")) {
      m.follow_through_credit = number(*x, field + ".follow_through_credit");
      if (m.follow_through_credit < 0 || m.follow_through_credit > 1)
        fail(*x, fmt::format("{}.follow_through_credit: expected a fraction from 0 to 1; got {}", field, x->text));
    }
    return m;
  }

  Constraints constraints(const YamlNode& n, const std::string& field) const {
    if (!n.is_map()) fail(n, fmt::format("{}: expected a map; got {}", field, describe(n)));
    expect_keys(n, field, {"max_abs_score", "unique_top_weight", "distinct_weights", "max_draws"});
    Constraints c;
    if (const YamlNode* x = n.find("max_abs_score")) {
      c.max_abs_score = number(*x, field + ".max_abs_score");
      if (*c.max_abs_score <= 0) fail(*x, fmt::format("{}.max_abs_score: must be above 0", field));
    }
    if (const YamlNode* x = n.find("unique_top_weight")) c.unique_top_weight = boolean(*x, field + ".unique_top_weight");
    if (const YamlNode* x = n.find("distinct_weights")) c.distinct_weights = boolean(*x, field + ".distinct_weights");
    if (const YamlNode* x = n.find("max_draws")) c.max_draws = integer(*x, field + ".max_draws", 1, 100000);
    return c;
  }

  void tokens(const YamlNode& n, QuestionSpec& q, const std::string& field) const {
    auto words = [&](const YamlNode& list, const std::string& f) {
      if (!list.is_sequence() || list.items.empty())
        fail(list, fmt::format("{}: expected a list of words; got {}", f, describe(list)));
      std::vector<std::string> out;
      for (const YamlNode& w : list.items) {
        std::string s = word(w, f);
        if (std::find(out.begin(), out.end(), s) != out.end())
          fail(w, fmt::format("{}: the word '{}' is listed twice; tokens must be different words", f, s));
        out.push_back(std::move(s));
      }
      return out;
    };
    if (n.is_map()) {
      expect_keys(n, field, {"bank", "count"});
      const YamlNode* bank = n.find("bank");
      const YamlNode* count = n.find("count");
      if (!bank || !count) fail(n, fmt::format("{}: a word bank needs 'bank' (a list of words) and 'count'", field));
      q.tokens.words = words(*bank, field + ".bank");
      q.tokens.from_bank = true;
      q.tokens.count = integer(*count, field + ".count", 1, std::min<int>(max_tokens, static_cast<int>(q.tokens.words.size())));
      return;
    }
    if (!n.is_sequence())
      fail(n, fmt::format("{}: expected a list of words, or {{bank: [...], count: N}}; got {}", field, describe(n)));
    q.tokens.words = words(n, field);
    if (static_cast<int>(q.tokens.words.size()) > max_tokens)
      fail(n, fmt::format("{}: at most {} tokens", field, max_tokens));
  }

  // One reader per concern of a question, called in the order in which a
  // teacher reads a question: what it is, its tokens, its inputs, how it is
  // computed, what is asked and how it is marked. Each checks what it reads
  // and throws Error at the first problem.
  QuestionSpec question(const YamlNode& n, std::size_t index) {
    QuestionSpec q;
    q.id = fmt::format("q{}", index + 1);
    q.place = place(n);
    if (!n.is_map()) fail(n, fmt::format("{}: expected a map describing the question; got {}", q.id, describe(n)));
    if (const YamlNode* x = n.find("id")) q.id = word(*x, q.id + ".id");
    expect_keys(n, q.id, {"id", "title", "prompt", "task", "tokens", "query_token", "d_k", "d_v", "d_model",
                          "inputs", "scale", "mask", "ask", "marking", "constraints"});
    if (const YamlNode* x = n.find("title")) q.title = text(*x, q.id + ".title");
    if (const YamlNode* x = n.find("prompt")) q.prompt = text(*x, q.id + ".prompt");
    const std::string task_text = task(n, q);
    question_tokens(n, q);
    query_token(n, q);
    dimensions(n, q);
    inputs(n, q, task_text);
    scale(n, q);
    mask(n, q);
    ask(n, q);
    markings(n, q);
    if (const YamlNode* c = n.find("constraints")) q.constraints = constraints(*c, q.id + ".constraints");
    return q;
  }

  // task: one-token or all-tokens. Returns the text, as messages quote it.
  std::string task(const YamlNode& n, QuestionSpec& q) const {
    const std::string& id = q.id;
    const YamlNode* task = n.find("task");
    if (!task) fail(n, fmt::format("{}: missing 'task:'; expected 'one-token' or 'all-tokens'", id));
    const std::string task_text = text(*task, id + ".task");
    if (task_text == "one-token") q.task = Task::one_token;
    else if (task_text == "all-tokens") q.task = Task::all_tokens;
    else fail(*task, fmt::format("{}.task: expected 'one-token' or 'all-tokens'; got '{}'{}", id, task_text,
                                 did_you_mean(task_text, {"one-token", "all-tokens"})));

    return task_text;
  }

  // tokens: a list of words or a word bank.
  void question_tokens(const YamlNode& n, QuestionSpec& q) const {
    const std::string& id = q.id;
    const YamlNode* toks = n.find("tokens");
    if (!toks) fail(n, fmt::format("{}: missing 'tokens:'; give a list of words or a word bank", id));
    tokens(*toks, q, id + ".tokens");
  }

  // query_token: the asking token of a one-token task (a word, a position from 1, or random).
  void query_token(const YamlNode& n, QuestionSpec& q) const {
    const std::string& id = q.id;
    const int count = q.token_count();
    const YamlNode* qt = n.find("query_token");
    if (q.task == Task::one_token) {
      if (!qt) fail(n, fmt::format("{}: a one-token task needs 'query_token:' (a word, a position from 1, or random)", id));
      if (!qt->is_scalar()) fail(*qt, fmt::format("{}.query_token: expected a word, a position from 1, or random; got {}", id, describe(*qt)));
      const std::string s = qt->text;
      if (s == "random") {
        q.query_token.kind = QueryTokenSpec::Kind::random;
      } else if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos) {
        q.query_token.kind = QueryTokenSpec::Kind::position;
        q.query_token.position = integer(*qt, id + ".query_token", 1, count);
      } else {
        if (q.tokens.from_bank)
          fail(*qt, fmt::format("{}.query_token: tokens come from a word bank, so give a position or random, not a word", id));
        if (std::find(q.tokens.words.begin(), q.tokens.words.end(), s) == q.tokens.words.end())
          fail(*qt, fmt::format("{}.query_token: '{}' is not one of the tokens ({}){}", id, s,
                                quoted_list(q.tokens.words), did_you_mean(s, q.tokens.words)));
        q.query_token.kind = QueryTokenSpec::Kind::word;
        q.query_token.word = s;
      }
    } else if (qt) {
      fail(*qt, fmt::format("{}.query_token: only one-token tasks have a query token; every token asks in an all-tokens task", id));
    }
  }

  // d_k, d_v, d_model, when given (else taken from the fixed inputs).
  void dimensions(const YamlNode& n, QuestionSpec& q) const {
    const std::string& id = q.id;
    if (const YamlNode* x = n.find("d_k")) q.d_k = integer(*x, id + ".d_k", 1, max_dimension);
    if (const YamlNode* x = n.find("d_v")) q.d_v = integer(*x, id + ".d_v", 1, max_dimension);
    if (const YamlNode* x = n.find("d_model")) q.d_model = integer(*x, id + ".d_model", 1, max_dimension);
  }

  // inputs: query/queries, keys and values, or embeddings and the tables
  // w_q, w_k, w_v that project them; each fitted to the question's shape.
  void inputs(const YamlNode& n, QuestionSpec& q, const std::string& task_text) {
    const std::string& id = q.id;
    const YamlNode* inputs = n.find("inputs");
    if (!inputs) fail(n, fmt::format("{}: needs 'inputs:', a map with query/queries, keys and values (or embeddings, w_q, w_k, w_v)", id));
    if (!inputs->is_map())
      fail(*inputs, fmt::format("{}.inputs: expected a map with query/queries, keys and values (or embeddings, w_q, w_k, w_v); got {}",
                                id, describe(*inputs)));
    expect_keys(*inputs, id + ".inputs", {"query", "queries", "keys", "values", "embeddings", "w_q", "w_k", "w_v"});
    auto read = [&](const char* key, InputSpec& into) {
      if (const YamlNode* x = inputs->find(key)) into = input(*x, id + ".inputs." + key);
    };
    read("query", q.query);
    read("queries", q.queries);
    read("keys", q.keys);
    read("values", q.values);
    read("embeddings", q.embeddings);
    read("w_q", q.w_q);
    read("w_k", q.w_k);
    read("w_v", q.w_v);
    q.projections = q.embeddings.present || q.w_q.present || q.w_k.present || q.w_v.present;
    if (q.projections) projected_inputs(n, *inputs, q);
    else direct_inputs(n, *inputs, q, task_text);
    if (q.d_k == 0) fail(n, fmt::format("{}: needs 'd_k:', since every input that has it is random", id));
    if (q.d_v == 0) fail(n, fmt::format("{}: needs 'd_v:', since every input that has it is random", id));
  }

  static const YamlNode& child_or_self(const YamlNode& map, const char* key) {
    const YamlNode* child = map.find(key);
    return child ? *child : map;
  }

  // Projections: the student computes q, K and V from the embeddings.
  void projected_inputs(const YamlNode& n, const YamlNode& inputs, QuestionSpec& q) {
    const std::string& id = q.id;
    const int count = q.token_count();
    const std::string in = id + ".inputs";
    // Errors about an input point at it, or at inputs: when it is missing.
    auto at = [&](const char* key) -> const YamlNode& { return child_or_self(inputs, key); };
    for (const char* key : {"query", "queries", "keys", "values"})
      if (inputs.find(key))
        fail(at(key), fmt::format("{}.{}: with projections the student computes {} from embeddings and w_q, w_k, w_v; remove it", in, key, key));
    for (const char* key : {"embeddings", "w_q", "w_k", "w_v"})
      if (!inputs.find(key)) fail(inputs, fmt::format("{}: projections need embeddings, w_q, w_k and w_v; '{}' is missing", in, key));
    if (q.d_model == 0) {
      // d_model from the fixed embeddings' width, else a fixed table's height.
      if (!q.embeddings.random) q.d_model = static_cast<int>(q.embeddings.fixed[0].size());
      for (const InputSpec* w : {&q.w_q, &q.w_k, &q.w_v})
        if (q.d_model == 0 && !w->random) q.d_model = static_cast<int>(w->fixed.size());
      if (q.d_model == 0) fail(n, fmt::format("{}: needs 'd_model:', since the embeddings and tables are all random", id));
      if (q.d_model > max_dimension) {
        const bool wide = !q.embeddings.random;
        fail(at(wide ? "embeddings" : "w_q"),
             wide ? fmt::format("{}.embeddings: at most {} numbers per row", in, max_dimension)
                  : fmt::format("{}.w_q: at most {} rows", in, max_dimension));
      }
    }
    fit(q.embeddings, at("embeddings"), in + ".embeddings", false, count, "token", q.d_model, "d_model");
    fit(q.w_q, at("w_q"), in + ".w_q", false, q.d_model, "embedding dimension (d_model)", q.d_k, "d_k");
    fit(q.w_k, at("w_k"), in + ".w_k", false, q.d_model, "embedding dimension (d_model)", q.d_k, "d_k");
    fit(q.w_v, at("w_v"), in + ".w_v", false, q.d_model, "embedding dimension (d_model)", q.d_v, "d_v");
  }

  // No projections: the query (or queries), keys and values are given.
  void direct_inputs(const YamlNode& n, const YamlNode& inputs, QuestionSpec& q, const std::string& task_text) {
    const std::string& id = q.id;
    const int count = q.token_count();
    const std::string in = id + ".inputs";
    // Errors about an input point at it, or at inputs: when it is missing.
    auto at = [&](const char* key) -> const YamlNode& { return child_or_self(inputs, key); };
    if (const YamlNode* x = n.find("d_model"))
      fail(*x, fmt::format("{}.d_model: only questions with projections (embeddings, w_q, w_k, w_v) have d_model; remove it", id));
    const char* need = q.task == Task::one_token ? "query" : "queries";
    const char* wrong = q.task == Task::one_token ? "queries" : "query";
    if (inputs.find(wrong))
      fail(at(wrong), fmt::format("{}.{}: {} {} task takes '{}' ({}), not '{}'", in, wrong, q.task == Task::one_token ? "a" : "an", task_text, need,
                                  q.task == Task::one_token ? "the asking token's vector" : "a row per token", wrong));
    for (const char* key : {need, "keys", "values"})
      if (!inputs.find(key)) fail(inputs, fmt::format("{}: '{}' is missing; {} {} task needs {}, keys and values", in, key, q.task == Task::one_token ? "a" : "an", task_text, need));
    if (q.task == Task::one_token) fit(q.query, at("query"), in + ".query", true, 1, "", q.d_k, "d_k");
    else fit(q.queries, at("queries"), in + ".queries", false, count, "token", q.d_k, "d_k");
    fit(q.keys, at("keys"), in + ".keys", false, count, "token", q.d_k, "d_k");
    fit(q.values, at("values"), in + ".values", false, count, "token", q.d_v, "d_v");
  }

  // scale: none, sqrt-dk or a number above 0.
  void scale(const YamlNode& n, QuestionSpec& q) const {
    const std::string& id = q.id;
    if (const YamlNode* x = n.find("scale")) {
      if (x->is_scalar() && x->text == "none") q.scale.kind = ScaleSpec::Kind::none;
      else if (x->is_scalar() && x->text == "sqrt-dk") q.scale.kind = ScaleSpec::Kind::sqrt_dk;
      else {
        const bool ok = x->is_scalar() && x->text.find_first_of("0123456789") != std::string::npos;
        if (!ok) fail(*x, fmt::format("{}.scale: expected 'none', 'sqrt-dk' or a number above 0; got {}{}", id, describe(*x),
                                      x->is_scalar() ? did_you_mean(x->text, {"none", "sqrt-dk"}) : ""));
        q.scale.kind = ScaleSpec::Kind::number;
        q.scale.number = number(*x, id + ".scale");
        if (q.scale.number <= 0) fail(*x, fmt::format("{}.scale: expected 'none', 'sqrt-dk' or a number above 0; got {}", id, x->text));
      }
    }
  }

  // mask: none or causal.
  void mask(const YamlNode& n, QuestionSpec& q) const {
    const std::string& id = q.id;
    if (const YamlNode* x = n.find("mask")) {
      const std::string s = text(*x, id + ".mask");
      if (s == "none") q.mask = Mask::none;
      else if (s == "causal") q.mask = Mask::causal;
      else fail(*x, fmt::format("{}.mask: expected 'none' or 'causal'; got '{}'{}", id, s, did_you_mean(s, {"none", "causal"})));
    }
  }

  // ask: the parts the student answers, each allowed by the task and inputs.
  void ask(const YamlNode& n, QuestionSpec& q) const {
    const std::string& id = q.id;
    const YamlNode* ask = n.find("ask");
    if (!ask) fail(n, fmt::format("{}: missing 'ask:', the list of parts the student answers (e.g. [scores, weights, output])", id));
    if (!ask->is_sequence() || ask->items.empty())
      fail(*ask, fmt::format("{}.ask: expected a list of parts, such as [scores, weights, output]; got {}", id, describe(*ask)));
    for (const YamlNode& item : ask->items) {
      const Part p = part(item, id + ".ask");
      if (std::find(q.ask.begin(), q.ask.end(), p) != q.ask.end())
        fail(item, fmt::format("{}.ask: '{}' is asked twice", id, item.text));
      const bool projected = p == Part::query || p == Part::queries || p == Part::keys || p == Part::values;
      if (projected && !q.projections)
        fail(item, fmt::format("{}.ask: '{}' can be asked only with projections (inputs embeddings, w_q, w_k, w_v); here it is given", id, item.text));
      if (p == Part::query && q.task != Task::one_token)
        fail(item, fmt::format("{}.ask: an all-tokens task asks 'queries', not 'query'", id));
      if (p == Part::queries && q.task != Task::all_tokens)
        fail(item, fmt::format("{}.ask: a one-token task asks 'query', not 'queries'", id));
      q.ask.push_back(p);
    }
  }

  // marking: per asked part, its marks, tolerance and follow-through.
  void markings(const YamlNode& n, QuestionSpec& q) const {
    const std::string& id = q.id;
    for (Part p : q.ask) q.marking[p] = PartMarking{};
    if (const YamlNode* m = n.find("marking")) {
      if (!m->is_map()) fail(*m, fmt::format("{}.marking: expected a map from part to its marking; got {}", id, describe(*m)));
      std::vector<Part> marked;
      for (const auto& [key, value] : m->entries) {
        const Part p = part(key, id + ".marking");
        if (std::find(marked.begin(), marked.end(), p) != marked.end())
          fail(key, fmt::format("{}.marking: '{}' is marked twice", id, key.text));
        marked.push_back(p);
        if (std::find(q.ask.begin(), q.ask.end(), p) == q.ask.end())
          fail(key, fmt::format("{}.marking: '{}' is not asked; add it to 'ask:' or remove its marking", id, key.text));
        q.marking[p] = marking(value, id + ".marking." + key.text);
      }
    }
  }

  std::string_view text_;
  std::string file_;
};

}  // namespace

Rubric load_rubric(std::string_view text, const std::string& file_name) {
  return Loader(text, file_name).load();
}

Rubric load_rubric_file(const std::string& path) {
  return load_rubric(read_file(path, max_rubric_bytes), path);
}

}  // namespace attnmark
