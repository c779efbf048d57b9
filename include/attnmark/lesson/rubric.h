// attnmark/lesson/rubric.h: an exercise definition (a rubric) as plain structs.
//
// A rubric is a list of attention questions with their marking scheme. The
// loader (rubric_loader.h) fills these from YAML; the generator (variant.h)
// turns one into a concrete per-student variant. Nothing here knows YAML.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/matrix.h"
#include "attnmark/lesson/tolerance.h"

namespace attnmark {

// The most tokens a question may have (the loader refuses more).
inline constexpr int max_tokens = 16;

// Where a definition came from, for errors found after loading.
struct SourcePlace {
  std::string file;
  int line = 0;    // 1-based, 0 when unknown
  int column = 0;  // 1-based, 0 when unknown
};

// What the student is asked to compute.
enum class Task {
  one_token,   // one token's query against every key: a score per token
  all_tokens,  // every token at once: softmax(Q Kᵀ / s) V
};

// Which keys a query may see.
enum class Mask {
  none,    // every token
  causal,  // itself and earlier tokens only; masked weights are exactly 0
};

// One answer a question can ask for, in the order the lesson computes them.
enum class Part {
  query,          // projections, one-token: q = x·W_Q of the asking token
  queries,        // projections, all-tokens: Q = X·W_Q
  keys,           // projections: K = X·W_K
  values,         // projections: V = X·W_V
  scores,         // q·k / s (a row per query)
  weights,        // softmax of the scores
  output,         // weights times values, summed
  most_attended,  // the token with the largest weight (a word per query)
};

// The part's name in answer files, keys and sheets: "scores", "most_attended".
const char* part_name(Part part);

// The part a name in a rubric or an answer file means: its part_name(), or
// "most-attended" for Part::most_attended. nullopt for anything else.
//   parse_part("weights") == Part::weights; parse_part("most-attended") == Part::most_attended
std::optional<Part> parse_part(std::string_view name);

// The other spelling parse_part() accepts, which answer files may use too.
inline constexpr std::string_view most_attended_alias = "most-attended";

// The variable a notebook's answer cell assigns for a part of question
// `question`: the question id and the part's name joined by '_', every byte
// that may not be in a Python name made '_' (and a leading digit given a 'q').
//   answer_variable("q1", Part::weights) == "q1_weights"
//   answer_variable("attn-2", Part::most_attended) == "attn_2_most_attended"
std::string answer_variable(std::string_view question, Part part);

// One answer cell of a form (attnmark serve's page): the field named
// question.part.row.column, row and column 1-based in the name and 0-based here.
//   answer_field_name("q2", "weights", 0, 2) == "q2.weights.1.3"
//   parse_answer_field("q2.weights.1.3") == AnswerField{"q2", "weights", 0, 2}
struct AnswerField {
  std::string question, part;
  std::size_t row = 0, column = 0;
  bool operator==(const AnswerField&) const = default;
};
// The most rows or columns a field name may give: more than any sheet has
// (max_tokens), few enough that a form cannot ask for a huge grid.
inline constexpr std::size_t max_answer_field_index = 100;
// The field's name. `part` is as the form or answer file spells it (an
// unknown part keeps its name). REQUIRES: question and part hold no '.'
// (question ids and part names never do), or the name does not parse back.
std::string answer_field_name(std::string_view question, std::string_view part, std::size_t row, std::size_t column);
// The cell a field name gives, or nullopt when it is not one: exactly three
// dots; row and column in decimal digits only (leading zeros allowed), 1 to
// max_answer_field_index. The question and part are not checked (they may be
// empty or unknown; the grader reports unknown ones).
//   parse_answer_field("q1.scores.0.1"), ("q1.scores.1"), ("q1.scores.1.2.3"), ("q1.scores.+1.1") == nullopt
std::optional<AnswerField> parse_answer_field(std::string_view name);

// The part's name for people: "most attended", not "most_attended".
//   part_label(Part::most_attended) == "most attended"
std::string part_label(Part part);

// A grid to draw numbers from: min, min+step, ..., max.
// Held as integers over 10^decimals so every drawn value is the double
// nearest its decimal spelling (0.1 steps give 0.3, never 0.30000000000000004).
struct Grid {
  std::int64_t min_units = 0;
  std::int64_t max_units = 0;
  std::int64_t step_units = 1;
  int decimals = 0;  // value = units / 10^decimals

  std::int64_t count() const { return (max_units - min_units) / step_units + 1; }
  double value(std::int64_t index) const;  // REQUIRES: 0 <= index < count()
};

// One input table: given in the rubric, or drawn from a grid.
struct InputSpec {
  bool present = false;
  bool random = false;
  Matrix fixed;  // when !random; a vector is one row
  Grid grid;     // when random
  SourcePlace place;

  // True when every value this input can take is a whole number.
  bool integral() const;
};

// How the student gets marks for one part.
struct PartMarking {
  double marks = 1;
  std::optional<int> decimals;          // decimals asked for; default by part
  std::optional<Tolerance> tolerance;   // else the default (default_tolerances, tolerance.h)
  bool per_cell = true;                 // partial credit per cell, else all-or-nothing
  bool follow_through = true;           // credit a right method on wrong inputs
  double follow_through_credit = 1.0;   // fraction of the marks, in [0, 1]
  SourcePlace place;
};

// Fairness conditions a random variant must meet; it is redrawn until it does.
struct Constraints {
  std::optional<double> max_abs_score;  // every |score| at most this
  bool unique_top_weight = false;       // one largest weight per query
  bool distinct_weights = false;        // no two weights of a query equal at the asked decimals
  int max_draws = 1000;                 // give up (an error) after this many
};

// Which tokens a question uses.
struct TokenSpec {
  std::vector<std::string> words;  // fixed words, or the bank to draw from
  bool from_bank = false;
  int count = 0;                   // words drawn from the bank (distinct)
};

// Which token asks, for one-token tasks.
struct QueryTokenSpec {
  enum class Kind { word, position, random } kind = Kind::position;
  std::string word;
  int position = 1;  // 1-based, as a teacher counts
};

// The divisor applied to every score.
struct ScaleSpec {
  enum class Kind { none, sqrt_dk, number } kind = Kind::none;
  double number = 1;
};

// One question of a rubric.
struct QuestionSpec {
  std::string id;     // "q1", "q2", ... unless the rubric names it
  std::string title;  // optional heading
  std::string prompt; // optional text shown to the student
  Task task = Task::one_token;
  TokenSpec tokens;
  QueryTokenSpec query_token;
  int d_k = 0;
  int d_v = 0;
  int d_model = 0;  // projections only
  bool projections = false;
  // Without projections: query (one-token) or queries (all-tokens), keys, values.
  // With projections: embeddings, w_q, w_k, w_v.
  InputSpec query, queries, keys, values;
  InputSpec embeddings, w_q, w_k, w_v;
  ScaleSpec scale;
  Mask mask = Mask::none;
  std::vector<Part> ask;                 // in the order asked
  std::map<Part, PartMarking> marking;   // one entry per asked part
  Constraints constraints;
  SourcePlace place;

  int token_count() const {
    return tokens.from_bank ? tokens.count : static_cast<int>(tokens.words.size());
  }
  // Decimal places the student is asked to give for `part`: the rubric's
  // choice, else 0 for parts that are always whole numbers, 3 for weights, 2 otherwise.
  int decimals(Part part) const;
  // True when every score this question can produce is a whole number.
  bool integral_scores() const;
  // True when inputs are all fixed (every variant has the same numbers).
  bool fixed() const;
};

// A whole exercise definition.
struct Rubric {
  std::string name;   // short name printed on outputs (default: file stem)
  std::string title;  // heading for worksheets
  std::optional<std::uint64_t> seed;
  bool reveal_in_feedback = false;  // may feedback show reference answers
  std::vector<QuestionSpec> questions;
  std::string file;
};

// The heading printed on every sheet and report: the title, else the name.
const std::string& display_title(const Rubric& rubric);

// The marks of every part of every question.
double max_score(const Rubric& rubric);

}  // namespace attnmark
