#include <fmt/format.h>

#include "attnmark/attention.h"
#include "attnmark/numbers.h"
#include "attnmark/worksheet.h"

namespace attnmark {
namespace {

// A Markdown table; cells are escaped so a '|' in a word cannot break it.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  std::string render() const {
    auto line = [](const std::vector<std::string>& cells) {
      std::string out = "|";
      for (const std::string& cell : cells) {
        std::string escaped;
        for (char c : cell) {
          if (c == '|') escaped += '\\';
          escaped += c;
        }
        out += " " + escaped + " |";
      }
      return out + "\n";
    };
    std::string out = line(header);
    out += "|";
    for (std::size_t i = 0; i < header.size(); ++i) out += "---|";
    out += "\n";
    for (const auto& row : rows) out += line(row);
    return out + "\n";
  }
};

// An input number as given: exact and short ("2", "-0.5").
std::string given(double x) { return format_exact(x); }

// A factor in a worked product: negatives in brackets, as on paper.
std::string factor(double x) { return x < 0 ? "(" + given(x) + ")" : given(x); }

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

std::string marks_text(double marks) {
  return fmt::format("{} mark{}", given(marks), marks == 1 ? "" : "s");
}

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

// Writes one question of the worksheet or key.
class QuestionWriter {
 public:
  QuestionWriter(const QuestionVariant& q, Sheet sheet, std::size_t number)
      : q_(q), spec_(*q.spec), key_(sheet == Sheet::key), number_(number) {}

  std::string write() {
    heading();
    givens();
    for (Part p : spec_.ask) part(p);
    return out_;
  }

 private:
  bool one() const { return q_.query_token.has_value(); }
  std::string asker() const { return one() ? q_.tokens[*q_.query_token] : std::string(); }
  std::string blank_or(const std::string& text) const { return key_ ? text : std::string(); }
  bool masked(std::size_t row, std::size_t j) const { return q_.scores[row][j] == masked_score; }

  void heading() {
    const std::string title =
        !spec_.title.empty() ? spec_.title
        : one() ? fmt::format("attention for the token '{}'", asker())
                : std::string("attention for all tokens at once");
    out_ += fmt::format("## Question {} ({}): {}\n\n", number_, spec_.id, title);
    if (!spec_.prompt.empty()) out_ += spec_.prompt + "\n\n";
  }

  void givens() {
    std::string tokens;
    for (std::size_t i = 0; i < q_.tokens.size(); ++i) tokens += (i ? ", " : "") + q_.tokens[i];
    out_ += fmt::format("Tokens, in order: {}.", tokens);
    if (spec_.projections) {
      out_ += " Each token's query is q = x·W_Q, its key k = x·W_K and its value v = x·W_V.\n\n";
      Table x{{"Token", "Embedding x"}, {}};
      for (std::size_t i = 0; i < q_.tokens.size(); ++i) x.rows.push_back({q_.tokens[i], vector_text(q_.embeddings[i])});
      out_ += x.render();
      Table w{{"Row", "W_Q", "W_K", "W_V"}, {}};
      for (std::size_t r = 0; r < q_.w_q.size(); ++r)
        w.rows.push_back({std::to_string(r + 1), vector_text(q_.w_q[r]), vector_text(q_.w_k[r]), vector_text(q_.w_v[r])});
      out_ += w.render();
      if (one()) out_ += fmt::format("The token asking is **{}**.\n\n", asker());
    } else if (one()) {
      out_ += fmt::format(" The query of **{}** is ({}).\n\n", asker(), vector_text(q_.queries[0]));
      Table t{{"Token", "Key", "Value"}, {}};
      for (std::size_t i = 0; i < q_.tokens.size(); ++i)
        t.rows.push_back({q_.tokens[i], vector_text(q_.keys[i]), vector_text(q_.values[i])});
      out_ += t.render();
    } else {
      out_ += "\n\n";
      Table t{{"Token", "Query", "Key", "Value"}, {}};
      for (std::size_t i = 0; i < q_.tokens.size(); ++i)
        t.rows.push_back({q_.tokens[i], vector_text(q_.queries[i]), vector_text(q_.keys[i]), vector_text(q_.values[i])});
      out_ += t.render();
    }
    if (q_.scale != 1) {
      out_ += spec_.scale.kind == ScaleSpec::Kind::sqrt_dk
                  ? fmt::format("Scale: divide every query·key by √d_k = √{} = {}.\n\n", spec_.d_k, given(q_.scale))
                  : fmt::format("Scale: divide every query·key by {}.\n\n", given(q_.scale));
    }
    if (spec_.mask == Mask::causal)
      out_ += "Causal mask: a token attends only to itself and the tokens before it. Write `masked` for a "
              "score it cannot see; its weight is exactly 0.\n\n";
  }

  void part(Part p) {
    const int decimals = spec_.decimals(p);
    out_ += fmt::format("### {} ({}", part_title(p), marks_text(spec_.marking.at(p).marks));
    out_ += p == Part::most_attended ? ")\n\n" : fmt::format("; give {})\n\n", decimals_text(decimals));
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
    out_ += fmt::format("Multiply each embedding x by the table: {} = x·W.\n\n", name);
    Table t{{"Token"}, {}};
    for (std::size_t j = 0; j < w[0].size(); ++j) t.header.push_back(fmt::format("{}[{}]", name, j + 1));
    for (std::size_t r = 0; r < tokens.size(); ++r) {
      const std::size_t token = tokens[r];
      const Vector& row = result.size() == tokens.size() ? result[r] : result[token];
      std::vector<std::string> cells{q_.tokens[token]};
      for (std::size_t j = 0; j < w[0].size(); ++j) {
        Vector column;
        for (const Vector& wr : w) column.push_back(wr[j]);
        cells.push_back(blank_or(dot_steps(q_.embeddings[token], column) + " = " + format_fixed(row[j], decimals)));
      }
      t.rows.push_back(std::move(cells));
    }
    out_ += t.render();
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
    out_ += fmt::format("Score the query of {} against each key: multiply matching entries and add{}.\n\n", asker(),
                        q_.scale == 1 ? "" : fmt::format(", then divide by {}", given(q_.scale)));
    Table t{{"Token", "Key", "Query · key", "Score"}, {}};
    for (std::size_t j = 0; j < q_.tokens.size(); ++j)
      t.rows.push_back({q_.tokens[j], spec_.projections ? blank_or(rounded_vector(q_.keys[j], spec_.decimals(Part::keys))) : vector_text(q_.keys[j]),
                        blank_or(score_steps(0, j, decimals)), blank_or(score_text(0, j))});
    out_ += t.render();
  }

  void scores_all(int decimals) {
    out_ += fmt::format("Row = query token, column = key token: S = Q·Kᵀ{}.\n\n",
                        q_.scale == 1 ? "" : fmt::format(" ÷ {}", given(q_.scale)));
    Table t{{"Query \\ Key"}, {}};
    for (const std::string& w : q_.tokens) t.header.push_back(w);
    for (std::size_t r = 0; r < q_.tokens.size(); ++r) {
      std::vector<std::string> cells{q_.tokens[r]};
      for (std::size_t j = 0; j < q_.tokens.size(); ++j) cells.push_back(blank_or(score_steps(r, j, decimals)));
      t.rows.push_back(std::move(cells));
    }
    out_ += t.render();
  }

  std::string power_text(std::size_t row, std::size_t j) const {
    return masked(row, j) ? "0" : format_fixed(portable_exp(q_.scores[row][j]), 2);
  }
  double power_total(std::size_t row) const {
    double total = 0;
    for (std::size_t j = 0; j < q_.tokens.size(); ++j)
      if (!masked(row, j)) total += portable_exp(q_.scores[row][j]);
    return total;
  }

  void weights_one(int decimals) {
    out_ += "Softmax: take e to the power of each score, then divide each one by the total.\n\n";
    Table t{{"Token", "Score", "e^score", "Weight"}, {}};
    for (std::size_t j = 0; j < q_.tokens.size(); ++j)
      t.rows.push_back({q_.tokens[j], blank_or(score_text(0, j)), blank_or(power_text(0, j)),
                        blank_or(format_fixed(q_.weights[0][j], decimals))});
    t.rows.push_back({"**Total**", "", blank_or(format_fixed(power_total(0), 2)), format_fixed(1, decimals)});
    out_ += t.render();
  }

  void weights_all(int decimals) {
    out_ += "Softmax along each row: e to the power of each score, divided by the row's total. Each row adds up to 1.\n\n";
    if (key_) {
      Table e{{"e^score"}, {}};
      for (const std::string& w : q_.tokens) e.header.push_back(w);
      e.header.push_back("Total");
      for (std::size_t r = 0; r < q_.tokens.size(); ++r) {
        std::vector<std::string> cells{q_.tokens[r]};
        for (std::size_t j = 0; j < q_.tokens.size(); ++j) cells.push_back(power_text(r, j));
        cells.push_back(format_fixed(power_total(r), 2));
        e.rows.push_back(std::move(cells));
      }
      out_ += e.render();
    }
    Table t{{"Weight"}, {}};
    for (const std::string& w : q_.tokens) t.header.push_back(w);
    t.header.push_back("Total");
    for (std::size_t r = 0; r < q_.tokens.size(); ++r) {
      std::vector<std::string> cells{q_.tokens[r]};
      for (std::size_t j = 0; j < q_.tokens.size(); ++j) cells.push_back(blank_or(format_fixed(q_.weights[r][j], decimals)));
      cells.push_back(format_fixed(1, decimals));
      t.rows.push_back(std::move(cells));
    }
    out_ += t.render();
  }

  std::string value_text(std::size_t j) const {
    return spec_.projections ? blank_or(rounded_vector(q_.values[j], spec_.decimals(Part::values)))
                             : vector_text(q_.values[j]);
  }

  void output_one(int decimals) {
    out_ += "Multiply each token's value by its weight, then add the results.\n\n";
    const int wd = spec_.decimals(Part::weights);
    Table t{{"Token", "Weight", "Value", "Weight × value"}, {}};
    for (std::size_t j = 0; j < q_.tokens.size(); ++j) {
      Vector product;
      for (double v : q_.values[j]) product.push_back(q_.weights[0][j] * v);
      t.rows.push_back({q_.tokens[j], blank_or(format_fixed(q_.weights[0][j], wd)), value_text(j),
                        blank_or(rounded_vector(product, decimals))});
    }
    t.rows.push_back({"**Output**", "", "", blank_or("**" + rounded_vector(q_.output[0], decimals) + "**")});
    out_ += t.render();
    if (key_) out_ += fmt::format("Unrounded output: {}.\n\n", rounded_vector(q_.output[0], 6));
  }

  void output_all(int decimals) {
    out_ += "Row = token: the weights of its row times the values, added up (W·V).\n\n";
    const int wd = spec_.decimals(Part::weights);
    Table t{{"Token"}, {}};
    for (int j = 0; j < spec_.d_v; ++j) t.header.push_back(fmt::format("output[{}]", j + 1));
    for (std::size_t r = 0; r < q_.tokens.size(); ++r) {
      std::vector<std::string> cells{q_.tokens[r]};
      for (std::size_t c = 0; c < static_cast<std::size_t>(spec_.d_v); ++c) {
        std::string steps;
        for (std::size_t j = 0; j < q_.tokens.size(); ++j) {
          if (masked(r, j)) continue;
          steps += (steps.empty() ? "" : " + ") + format_fixed(q_.weights[r][j], wd) + "×" + factor(q_.values[j][c]);
        }
        cells.push_back(blank_or(steps + " ≈ " + format_fixed(q_.output[r][c], decimals)));
      }
      t.rows.push_back(std::move(cells));
    }
    out_ += t.render();
  }

  void most() {
    const int wd = spec_.decimals(Part::weights);
    if (one()) {
      out_ += fmt::format("Which token gets the most weight from the query of {}? {}\n\n", asker(),
                          key_ ? fmt::format("**{}** (weight {})", q_.tokens[q_.most_attended[0]],
                                             format_fixed(q_.weights[0][q_.most_attended[0]], wd))
                               : std::string("____________"));
      return;
    }
    out_ += "For each token, which token gets the most weight in its row?\n\n";
    Table t{{"Token", "Most attended"}, {}};
    for (std::size_t r = 0; r < q_.tokens.size(); ++r)
      t.rows.push_back({q_.tokens[r], blank_or(fmt::format("{} ({})", q_.tokens[q_.most_attended[r]],
                                                           format_fixed(q_.weights[r][q_.most_attended[r]], wd)))});
    out_ += t.render();
  }

  const QuestionVariant& q_;
  const QuestionSpec& spec_;
  bool key_;
  std::size_t number_;
  std::string out_;
};

}  // namespace

std::string render_markdown(const Rubric& rubric, const Variant& variant, Sheet sheet) {
  std::string out;
  const std::string title = rubric.title.empty() ? rubric.name : rubric.title;
  out += fmt::format("# {}: {}\n\n", title, sheet == Sheet::key ? "answer key" : "worksheet");
  out += fmt::format("Student: {} · Variant: {} · Seed: {} · Rubric: {} · {}\n\n",
                     variant.student.empty() ? "(none)" : variant.student, variant.id_text(), variant.seed,
                     variant.rubric, generator_version);
  if (sheet == Sheet::worksheet)
    out += "Give each answer to the decimal places asked. Fill in the blank cells, or the answer file "
           "from `attnmark template`.\n\n";
  for (std::size_t i = 0; i < variant.questions.size(); ++i)
    out += QuestionWriter(variant.questions[i], sheet, i + 1).write();
  return out;
}

}  // namespace attnmark
