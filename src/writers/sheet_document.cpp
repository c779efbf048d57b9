#include "writers/sheet_document.h"

#include <algorithm>
#include <fmt/format.h>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/cell_names.h"
#include "attnmark/lesson/numbers.h"

namespace attnmark {
namespace {

using Kind = SheetCell::Kind;

Span plain(std::string text) { return Span{Span::Style::plain, std::move(text), false, {}}; }
Span strong(std::string text) { return Span{Span::Style::strong, std::move(text), false, {}}; }
Span code(std::string text) { return Span{Span::Style::code, std::move(text), false, {}}; }

SheetCell given_cell(std::string text) { return SheetCell{Kind::given, {plain(std::move(text))}, {}}; }
SheetCell label_cell(std::string text) { return SheetCell{Kind::given, {strong(std::move(text))}, {}}; }
SheetCell none_cell() { return SheetCell{Kind::none, {}, {}}; }

SheetBlock paragraph(Inline text) { return SheetBlock{false, std::move(text), {}}; }
SheetBlock table_block(SheetTable table) { return SheetBlock{true, {}, std::move(table)}; }

// An input number as given: exact and short ("2", "-0.5").
std::string given(double x) { return format_exact(x); }

// A factor in a worked product: negatives in brackets, as on paper.
std::string factor(double x) {
  if (x >= 0) return given(x);
  std::string out = "(";  // (appended, not "(" + ...: GCC 12 -O3 warns wrongly on that)
  out += given(x);
  out += ')';
  return out;
}

std::string vector_text(const Vector& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + given(v[i]);
  return out;
}

std::string rounded_vector(const Vector& v, int decimals) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + format_fixed(v[i], decimals);
  return out;
}

// "1×2 + 0×1" for a·b.
std::string dot_steps(const Vector& a, const Vector& b) {
  std::string out;
  for (std::size_t i = 0; i < a.size(); ++i) out += (i ? " + " : "") + factor(a[i]) + "×" + factor(b[i]);
  return out;
}

std::string marks_text(double marks) { return fmt::format("{} mark{}", given(marks), marks == 1 ? "" : "s"); }

std::string decimals_text(int decimals) {
  return decimals == 0 ? "whole numbers" : fmt::format("{} decimal place{}", decimals, decimals == 1 ? "" : "s");
}

const char* part_title(Part p) {
  switch (p) {
    case Part::query: return "Query";
    case Part::queries: return "Queries";
    case Part::keys: return "Keys";
    case Part::values: return "Values";
    case Part::scores: return "Scores";
    case Part::weights: return "Weights";
    case Part::output: return "Output";
    case Part::most_attended: return "Most attended";
  }
  return "?";
}

// Builds one question of the worksheet or key, laid out like the lesson's
// tables step for step; the golden files pin every rendering of it.
class QuestionBuilder {
 public:
  QuestionBuilder(const QuestionVariant& q, Sheet sheet, std::size_t number)
      : q_(q), spec_(*q.spec), key_(sheet == Sheet::key) {
    out_.number = number;
  }

  QuestionSection build() {
    out_.id = spec_.id;
    out_.title = !spec_.title.empty() ? spec_.title
                 : one()             ? fmt::format("attention for the token '{}'", asker())
                                     : std::string("attention for all tokens at once");
    out_.prompt = spec_.prompt;
    givens();
    for (Part p : spec_.ask) {
      out_.marks += spec_.marking.at(p).marks;
      part(p);
    }
    return std::move(out_);
  }

 private:
  bool one() const { return q_.query_token.has_value(); }
  std::string asker() const { return one() ? q_.tokens[*q_.query_token] : std::string(); }
  bool masked(std::size_t row, std::size_t j) const { return q_.scores[row][j] == masked_score; }

  // A cell the student fills in: blank on the worksheet, the working on the key.
  SheetCell fill(std::string text, bool bold = false) const {
    if (!key_) return SheetCell{Kind::write_in, {}, {}};
    return SheetCell{Kind::answer, {bold ? strong(std::move(text)) : plain(std::move(text))}, {}};
  }
  // A filled cell that is marked: answer cell (row, column) of its part, or
  // `count` of them along the row (an output vector in one cell).
  SheetCell marked(std::string text, std::size_t row, std::size_t column, std::size_t count = 1, bool bold = false) const {
    SheetCell cell = fill(std::move(text), bold);
    for (std::size_t i = 0; i < count; ++i) cell.answers.push_back({row, column + i, spoken(row, column + i)});
    return cell;
  }

  // The spoken name of answer cell (row, column) of the part being written.
  std::string spoken(std::size_t row, std::size_t column) const {
    return spoken_cell_name(q_.tokens, q_.query_rows(), out_.parts.back().part, {row, column});
  }

  std::vector<SheetBlock>& blocks() { return out_.parts.empty() ? out_.givens : out_.parts.back().blocks; }
  void add_paragraph(Inline text) { blocks().push_back(paragraph(std::move(text))); }
  void add_table(SheetTable table) { blocks().push_back(table_block(std::move(table))); }

  static std::vector<SheetCell> given_row(std::initializer_list<std::string> texts) {
    std::vector<SheetCell> row;
    for (const std::string& t : texts) row.push_back(given_cell(t));
    return row;
  }

  void givens() {
    std::string tokens;
    for (std::size_t i = 0; i < q_.tokens.size(); ++i) tokens += (i ? ", " : "") + q_.tokens[i];
    Inline intro{plain(fmt::format("Tokens, in order: {}.", tokens))};
    if (spec_.projections) {
      intro.push_back(plain(" Each token's query is q = x·W_Q, its key k = x·W_K and its value v = x·W_V."));
      add_paragraph(std::move(intro));
      SheetTable x{{"Token", "Embedding x"}, {}};
      for (std::size_t i = 0; i < q_.tokens.size(); ++i) x.rows.push_back(given_row({q_.tokens[i], vector_text(q_.embeddings[i])}));
      add_table(std::move(x));
      SheetTable w{{"Row", "W_Q", "W_K", "W_V"}, {}};
      for (std::size_t r = 0; r < q_.w_q.size(); ++r)
        w.rows.push_back(given_row({std::to_string(r + 1), vector_text(q_.w_q[r]), vector_text(q_.w_k[r]), vector_text(q_.w_v[r])}));
      add_table(std::move(w));
      if (one()) add_paragraph({plain("The token asking is "), strong(asker()), plain(".")});
    } else if (one()) {
      intro.push_back(plain(" The query of "));
      intro.push_back(strong(asker()));
      intro.push_back(plain(fmt::format(" is ({}).", vector_text(q_.queries[0]))));
      add_paragraph(std::move(intro));
      SheetTable t{{"Token", "Key", "Value"}, {}};
      for (std::size_t i = 0; i < q_.tokens.size(); ++i)
        t.rows.push_back(given_row({q_.tokens[i], vector_text(q_.keys[i]), vector_text(q_.values[i])}));
      add_table(std::move(t));
    } else {
      add_paragraph(std::move(intro));
      SheetTable t{{"Token", "Query", "Key", "Value"}, {}};
      for (std::size_t i = 0; i < q_.tokens.size(); ++i)
        t.rows.push_back(given_row({q_.tokens[i], vector_text(q_.queries[i]), vector_text(q_.keys[i]), vector_text(q_.values[i])}));
      add_table(std::move(t));
    }
    if (q_.scale != 1) {
      add_paragraph({plain(spec_.scale.kind == ScaleSpec::Kind::sqrt_dk
                               ? fmt::format("Scale: divide every query·key by √d_k = √{} = {}.", spec_.d_k, given(q_.scale))
                               : fmt::format("Scale: divide every query·key by {}.", given(q_.scale)))});
    }
    if (spec_.mask == Mask::causal)
      add_paragraph({plain("Causal mask: a token attends only to itself and the tokens before it. Write "), code("masked"),
                     plain(" for a score it cannot see; its weight is exactly 0.")});
  }

  void part(Part p) {
    const int decimals = spec_.decimals(p);
    out_.parts.push_back(PartSection{p, part_title(p), marks_text(spec_.marking.at(p).marks),
                                     p == Part::most_attended ? std::string() : decimals_text(decimals), {}});
    switch (p) {
      case Part::query: projected(q_.queries, q_.w_q, "q", decimals, {*q_.query_token}); break;
      case Part::queries: projected(q_.queries, q_.w_q, "q", decimals, q_.query_rows()); break;
      case Part::keys: projected(q_.keys, q_.w_k, "k", decimals, all()); break;
      case Part::values: projected(q_.values, q_.w_v, "v", decimals, all()); break;
      case Part::scores: one() ? scores_one(decimals) : scores_all(decimals); break;
      case Part::weights: one() ? weights_one(decimals) : weights_all(decimals); break;
      case Part::output: one() ? output_one(decimals) : output_all(decimals); break;
      case Part::most_attended: most(); break;
    }
  }

  std::vector<std::size_t> all() const {
    std::vector<std::size_t> rows(q_.tokens.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    return rows;
  }

  // A projected vector per token: cell j is x·(column j of W).
  void projected(const Matrix& result, const Matrix& w, const char* name, int decimals,
                 const std::vector<std::size_t>& tokens) {
    add_paragraph({plain(fmt::format("Multiply each embedding x by the table: {} = x·W.", name))});
    SheetTable t{{"Token"}, {}};
    for (std::size_t j = 0; j < w[0].size(); ++j) t.header.push_back(fmt::format("{}[{}]", name, j + 1));
    for (std::size_t r = 0; r < tokens.size(); ++r) {
      const std::size_t token = tokens[r];
      const Vector& row = result.size() == tokens.size() ? result[r] : result[token];
      std::vector<SheetCell> cells{given_cell(q_.tokens[token])};
      for (std::size_t j = 0; j < w[0].size(); ++j) {
        Vector column;
        for (const Vector& wr : w) column.push_back(wr[j]);
        cells.push_back(marked(dot_steps(q_.embeddings[token], column) + " = " + format_fixed(row[j], decimals), r, j));
      }
      t.rows.push_back(std::move(cells));
    }
    add_table(std::move(t));
  }

  std::string score_steps(std::size_t row, std::size_t j, int decimals) const {
    if (masked(row, j)) return "masked";
    const std::string dot = dot_steps(q_.queries[row], q_.keys[j]);
    if (q_.scale == 1) return dot + " = " + format_fixed(q_.scores[row][j], decimals);
    return fmt::format("({}) ÷ {} = {}", dot, given(q_.scale), format_fixed(q_.scores[row][j], decimals));
  }

  std::string score_text(std::size_t row, std::size_t j) const {
    return masked(row, j) ? "masked" : format_fixed(q_.scores[row][j], spec_.decimals(Part::scores));
  }

  void scores_one(int decimals) {
    add_paragraph({plain(fmt::format("Score the query of {} against each key: multiply matching entries and add{}.", asker(),
                                     q_.scale == 1 ? "" : fmt::format(", then divide by {}", given(q_.scale))))});
    SheetTable t{{"Token", "Key", "Query · key", "Score"}, {}};
    for (std::size_t j = 0; j < q_.tokens.size(); ++j)
      t.rows.push_back({given_cell(q_.tokens[j]),
                        spec_.projections ? fill(rounded_vector(q_.keys[j], spec_.decimals(Part::keys))) : given_cell(vector_text(q_.keys[j])),
                        fill(score_steps(0, j, decimals)), marked(score_text(0, j), 0, j)});
    add_table(std::move(t));
  }

  void scores_all(int decimals) {
    add_paragraph({plain(fmt::format("Row = query token, column = key token: S = Q·Kᵀ{}.",
                                     q_.scale == 1 ? "" : fmt::format(" ÷ {}", given(q_.scale))))});
    SheetTable t{{"Query \\ Key"}, {}};
    for (const std::string& w : q_.tokens) t.header.push_back(w);
    for (std::size_t r = 0; r < q_.tokens.size(); ++r) {
      std::vector<SheetCell> cells{given_cell(q_.tokens[r])};
      for (std::size_t j = 0; j < q_.tokens.size(); ++j) cells.push_back(marked(score_steps(r, j, decimals), r, j));
      t.rows.push_back(std::move(cells));
    }
    add_table(std::move(t));
  }

  // e^score as the worked table writes it: after softmax_shift, so a row
  // with a score of 800 shows e^(score − 800), never inf or a 300-digit number.
  double power(std::size_t row, std::size_t j) const {
    return portable_exp(q_.scores[row][j] - softmax_shift(q_.scores[row]));
  }
  std::string power_text(std::size_t row, std::size_t j) const {
    return masked(row, j) ? "0" : format_fixed(power(row, j), 2);
  }
  double power_total(std::size_t row) const {
    double total = 0;
    for (std::size_t j = 0; j < q_.tokens.size(); ++j)
      if (!masked(row, j)) total += power(row, j);
    return total;
  }
  // True when some row's table subtracts its largest score (softmax_shift).
  bool shifted() const {
    return std::any_of(q_.scores.begin(), q_.scores.end(), [](const Vector& row) { return softmax_shift(row) != 0; });
  }
  const char* power_header() const { return shifted() ? "e^(score − largest)" : "e^score"; }
  void shift_paragraph() {
    if (shifted())
      add_paragraph({plain("These scores are too large (or too small) for e^score to be written out: subtract the row's "
                           "largest score from each score first. e^(score − largest) gives the same weights, as the "
                           "stable softmax of real models does.")});
  }

  void weights_one(int decimals) {
    add_paragraph({plain("Softmax: take e to the power of each score, then divide each one by the total.")});
    shift_paragraph();
    SheetTable t{{"Token", "Score", power_header(), "Weight"}, {}};
    for (std::size_t j = 0; j < q_.tokens.size(); ++j)
      t.rows.push_back({given_cell(q_.tokens[j]), fill(score_text(0, j)), fill(power_text(0, j)),
                        marked(format_fixed(q_.weights[0][j], decimals), 0, j)});
    t.rows.push_back({label_cell("Total"), none_cell(), fill(format_fixed(power_total(0), 2)), given_cell(format_fixed(1, decimals))});
    add_table(std::move(t));
  }

  void weights_all(int decimals) {
    add_paragraph({plain("Softmax along each row: e to the power of each score, divided by the row's total. Each row adds up to 1.")});
    shift_paragraph();
    if (key_) {
      SheetTable e{{power_header()}, {}};
      for (const std::string& w : q_.tokens) e.header.push_back(w);
      e.header.push_back("Total");
      for (std::size_t r = 0; r < q_.tokens.size(); ++r) {
        std::vector<SheetCell> cells{given_cell(q_.tokens[r])};
        for (std::size_t j = 0; j < q_.tokens.size(); ++j) cells.push_back(fill(power_text(r, j)));
        cells.push_back(fill(format_fixed(power_total(r), 2)));
        e.rows.push_back(std::move(cells));
      }
      add_table(std::move(e));
    }
    SheetTable t{{"Weight"}, {}};
    for (const std::string& w : q_.tokens) t.header.push_back(w);
    t.header.push_back("Total");
    for (std::size_t r = 0; r < q_.tokens.size(); ++r) {
      std::vector<SheetCell> cells{given_cell(q_.tokens[r])};
      for (std::size_t j = 0; j < q_.tokens.size(); ++j) cells.push_back(marked(format_fixed(q_.weights[r][j], decimals), r, j));
      cells.push_back(given_cell(format_fixed(1, decimals)));
      t.rows.push_back(std::move(cells));
    }
    add_table(std::move(t));
  }

  SheetCell value_cell(std::size_t j) const {
    return spec_.projections ? fill(rounded_vector(q_.values[j], spec_.decimals(Part::values)))
                             : given_cell(vector_text(q_.values[j]));
  }

  void output_one(int decimals) {
    add_paragraph({plain("Multiply each token's value by its weight, then add the results.")});
    const int wd = spec_.decimals(Part::weights);
    SheetTable t{{"Token", "Weight", "Value", "Weight × value"}, {}};
    for (std::size_t j = 0; j < q_.tokens.size(); ++j) {
      Vector product;
      for (double v : q_.values[j]) product.push_back(q_.weights[0][j] * v);
      t.rows.push_back({given_cell(q_.tokens[j]), fill(format_fixed(q_.weights[0][j], wd)), value_cell(j),
                        fill(rounded_vector(product, decimals))});
    }
    t.rows.push_back({label_cell("Output"), none_cell(), none_cell(),
                      marked(rounded_vector(q_.output[0], decimals), 0, 0, static_cast<std::size_t>(spec_.d_v), true)});
    add_table(std::move(t));
    if (key_) add_paragraph({plain(fmt::format("Unrounded output: {}.", rounded_vector(q_.output[0], 6)))});
  }

  void output_all(int decimals) {
    add_paragraph({plain("Row = token: the weights of its row times the values, added up (W·V).")});
    const int wd = spec_.decimals(Part::weights);
    SheetTable t{{"Token"}, {}};
    for (int j = 0; j < spec_.d_v; ++j) t.header.push_back(fmt::format("output[{}]", j + 1));
    for (std::size_t r = 0; r < q_.tokens.size(); ++r) {
      std::vector<SheetCell> cells{given_cell(q_.tokens[r])};
      for (std::size_t c = 0; c < static_cast<std::size_t>(spec_.d_v); ++c) {
        std::string steps;
        for (std::size_t j = 0; j < q_.tokens.size(); ++j) {
          if (masked(r, j)) continue;
          steps += (steps.empty() ? "" : " + ") + format_fixed(q_.weights[r][j], wd) + "×" + factor(q_.values[j][c]);
        }
        cells.push_back(marked(steps + " ≈ " + format_fixed(q_.output[r][c], decimals), r, c));
      }
      t.rows.push_back(std::move(cells));
    }
    add_table(std::move(t));
  }

  void most() {
    const int wd = spec_.decimals(Part::weights);
    if (one()) {
      Inline text{plain(fmt::format("Which token gets the most weight from the query of {}? ", asker()))};
      if (key_) {
        text.push_back(strong(q_.tokens[q_.most_attended[0]]));
        text.push_back(plain(fmt::format(" (weight {})", format_fixed(q_.weights[0][q_.most_attended[0]], wd))));
      } else {
        text.push_back(Span{Span::Style::blank, {}, true, spoken(0, 0)});
      }
      add_paragraph(std::move(text));
      return;
    }
    add_paragraph({plain("For each token, which token gets the most weight in its row?")});
    SheetTable t{{"Token", "Most attended"}, {}};
    for (std::size_t r = 0; r < q_.tokens.size(); ++r)
      t.rows.push_back({given_cell(q_.tokens[r]), marked(fmt::format("{} ({})", q_.tokens[q_.most_attended[r]],
                                                                     format_fixed(q_.weights[r][q_.most_attended[r]], wd)),
                                                         0, r)});
    add_table(std::move(t));
  }

  const QuestionVariant& q_;
  const QuestionSpec& spec_;
  bool key_;
  QuestionSection out_;
};

}  // namespace

SheetDocument sheet_document(const Rubric& rubric, const Variant& variant, Sheet sheet, std::string_view name) {
  SheetDocument doc;
  doc.sheet = sheet;
  doc.name = std::string(name);
  doc.title = display_title(rubric);
  doc.rubric = variant.rubric;
  doc.student = variant.student;
  doc.variant = variant.id_text();
  doc.seed = variant.seed;
  for (std::size_t i = 0; i < variant.questions.size(); ++i) {
    doc.questions.push_back(QuestionBuilder(variant.questions[i], sheet, i + 1).build());
    doc.max_score += doc.questions.back().marks;
  }
  return doc;
}

}  // namespace attnmark
