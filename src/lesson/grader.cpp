#include "attnmark/lesson/grader.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <fmt/format.h>
#include <array>
#include <optional>

#include "base/text.h"
#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/diagnosis.h"
#include "attnmark/lesson/number_reader.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/tolerance.h"

namespace attnmark {
namespace {

constexpr double tiny = rounding_slack;


// One row of a student's numbers; false when some cell of it is not readable.
// (Like an optional<Vector>, but its storage outlives being empty.)
struct StudentRow {
  Vector numbers;
  bool complete = false;
  bool accepted = false;  // complete, and every cell right (within its tolerance)
  bool any_right = false; // complete, and some cell right, or right to the decimals written (a masked
                          // cell too: masking is part of the step)
  std::size_t wrong = 0;  // cells neither right nor right to the decimals written
  explicit operator bool() const { return complete; }
  const Vector& operator*() const { return numbers; }
  const Vector* operator->() const { return &numbers; }
};

// A matrix read from the student's cells, when every cell of the rows is readable.
struct StudentRows {
  std::vector<StudentRow> rows;
  bool differs = false;  // some complete row differs from the reference
  bool ready = false;    // filled for the current question
};

bool is_vector_part(const QuestionVariant& q, Part p) {
  return q.query_token && p != Part::keys && p != Part::values;
}

const PartAnswer* find_part(const Submission& s, const std::string& question, Part part) {
  auto qa = s.answers.find(question);
  if (qa == s.answers.end()) return nullptr;
  auto pa = qa->second.find(part_name(part));
  if (pa == qa->second.end() && part == Part::most_attended) pa = qa->second.find(std::string(most_attended_alias));
  return pa == qa->second.end() ? nullptr : &pa->second;
}

std::string_view cell_text(const PartAnswer* a, std::size_t r, std::size_t c) {
  if (!a || r >= a->rows.size() || c >= a->rows[r].size()) return {};
  return a->rows[r][c];
}

// Whether a cell counts as something written: a reading other than
// unanswered, of text that is not blank (a blank masked score is right, but
// writes nothing), or a part that could not be taken from the file at all
// (PartAnswer::unreadable), which the student did write.
bool counts_as_answered(const CellReading& reading, std::string_view text) {
  if (reading.kind == CellReading::Kind::unreadable) return true;
  return reading.kind != CellReading::Kind::unanswered && !is_blank(text);
}

// True when two rows are the same numbers (to rounding noise).
bool same_row(const Vector& a, const Vector& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t c = 0; c < a.size(); ++c)
    if (!(a[c] == b[c]) && !(std::fabs(a[c] - b[c]) <= 1e-9)) return false;
  return true;
}

// Marks one question after another; its working storage is kept from one
// to the next (a class is millions of cells), so it is not thread-safe.
class QuestionGrader {
 public:
  QuestionResult run(const QuestionVariant& q, const Submission& s) {
    q_ = &q;
    spec_ = q.spec;
    s_ = &s;
    for (Written& w : written_) w.ready = false;
    for (StudentRows& rows : student_rows_) rows.ready = false;
    for (PartAnswers& a : answers_) a.ready = false;
    for (auto& rows : tolerances_)
      for (std::vector<Tolerance>& row : rows) row.clear();
    for (std::vector<char>& rows : carried_rows_) rows.clear();
    for (auto& c : candidates_) c.reset();
    QuestionResult result;
    result.id = spec_->id;
    result.tokens = q.tokens;
    result.query_rows = q.query_rows();
    leading_hints_.clear();
    for (Part p : spec_->ask) {
      last_leading_ = 0;
      PartResult part = p == Part::most_attended ? grade_words() : grade_numbers(p);
      leading_hints_.push_back(last_leading_);
      result.score += part.score;
      result.max_score += part.max_score;
      result.parts.push_back(std::move(part));
    }
    mark_went_off(result);
    return result;
  }

 private:
  const Matrix& truth(Part p) const {
    switch (p) {
      case Part::query:
      case Part::queries: return q_->queries;
      case Part::keys: return q_->keys;
      case Part::values: return q_->values;
      case Part::scores: return q_->scores;
      case Part::weights: return q_->weights;
      default: return q_->output;
    }
  }

  bool asked(Part p) const { return std::find(spec_->ask.begin(), spec_->ask.end(), p) != spec_->ask.end(); }

  // The student's cells of a part, read once: text and reading per cell of
  // the reference's shape, row after row.
  struct Written {
    std::vector<std::string_view> texts;  // into the submission
    std::vector<CellReading> readings;
    std::size_t cols = 0;
    bool answered = false;  // something written (a blank masked score does not count)
    bool ready = false;     // filled for the current question
    std::string_view text(std::size_t r, std::size_t c) const { return texts[r * cols + c]; }
    const CellReading& read(std::size_t r, std::size_t c) const { return readings[r * cols + c]; }
  };
  const Written& written(Part p) {
    Written& w = written_[static_cast<std::size_t>(p)];
    if (w.ready) return w;
    w.ready = true;
    w.answered = false;
    w.texts.clear();
    w.readings.clear();
    const Matrix& ref = truth(p);
    w.cols = ref.empty() ? 0 : ref[0].size();
    const PartAnswer* a = answer(p);
    const bool masked_allowed = p == Part::scores && spec_->mask == Mask::causal;
    for (std::size_t r = 0; r < ref.size(); ++r)
      for (std::size_t c = 0; c < w.cols; ++c) {
        const std::string_view text = cell_text(a, r, c);
        w.texts.push_back(text);
        if (a && !a->unreadable.empty()) {
          CellReading reading;
          reading.kind = CellReading::Kind::unreadable;
          reading.problem = a->unreadable;
          w.readings.push_back(std::move(reading));
        } else {
          w.readings.push_back(read_number(text, masked_allowed));
        }
        if (counts_as_answered(w.readings.back(), text)) w.answered = true;
      }
    return w;
  }

  // The student's cells of part p, or nullptr: the reader's other reading
  // of them (PartAnswer::other_reading) when it holds exactly the values of
  // a one-row part, and then `note` says so.
  struct PartAnswers {
    bool ready = false;
    const PartAnswer* answer = nullptr;
    PartAnswer other;       // the other reading's row, when it is used
    std::string_view note;  // "" unless it is (into the submission)
  };
  const PartAnswer* answer(Part p) {
    PartAnswers& out = answers_[static_cast<std::size_t>(p)];
    if (out.ready) return out.answer;
    out.ready = true;
    out.note = {};
    out.answer = find_part(*s_, spec_->id, p);
    const Matrix& ref = truth(p);
    const PartAnswer* a = out.answer;
    if (!a || !a->other_reading || ref.size() != 1 || a->other_reading->row.size() != ref[0].size())
      return out.answer;
    out.other.rows.assign(1, a->other_reading->row);
    out.note = a->other_reading->note;
    out.answer = &out.other;
    return out.answer;
  }

  // True when the student wrote anything for part p.
  bool answered(Part p) { return asked(p) && p != Part::most_attended && written(p).answered; }

  // The tolerance of each cell of a row of the reference.
  const std::vector<Tolerance>& tolerance_row(Part p, std::size_t r) {
    auto& rows = tolerances_[static_cast<std::size_t>(p)];
    if (!rows.empty() && !rows[r].empty()) return rows[r];  // the common case, every cell of every student
    const Matrix& ref = truth(p);
    if (rows.size() != ref.size()) rows.resize(ref.size());
    if (rows[r].empty()) {
      const PartMarking& m = spec_->marking.at(p);
      if (m.tolerance) rows[r].assign(ref[r].size(), *m.tolerance);
      else if (p == Part::weights) weight_tolerances(*q_, q_->scores[r], q_->weights[r], rows[r]);
      else if (p == Part::output) output_tolerances(*q_, q_->weights[r], q_->values, rows[r]);
      else rows[r].assign(ref[r].size(), plain_tolerance(*q_, p));
    }
    return rows[r];
  }

  // The student's own numbers for an earlier part, row by row.
  const StudentRows& student_rows(Part p) {
    StudentRows& out = student_rows_[static_cast<std::size_t>(p)];
    if (out.ready) return out;
    out.ready = true;
    out.differs = false;
    const Matrix& ref = truth(p);
    out.rows.resize(ref.size());
    for (StudentRow& row : out.rows) row.complete = row.accepted = row.any_right = false;
    if (asked(p)) {
      const Written& w = written(p);
      for (std::size_t r = 0; r < ref.size(); ++r) {
        Vector& row = out.rows[r].numbers;
        row.clear();
        bool complete = true;
        for (std::size_t c = 0; c < ref[r].size() && complete; ++c) {
          const CellReading& read = w.read(r, c);
          if (read.kind == CellReading::Kind::value) row.push_back(read.value);
          else if (read.kind == CellReading::Kind::masked && p == Part::scores) row.push_back(masked_score);
          else complete = false;
        }
        if (!complete) continue;
        bool row_differs = false, coarse = false, any_right = false;
        std::size_t wrong = 0;
        for (std::size_t c = 0; c < row.size(); ++c) {
          const bool either_masked = row[c] == masked_score || ref[r][c] == masked_score;
          if (either_masked ? row[c] == ref[r][c] : within(tolerance_row(p, r)[c], row[c], ref[r][c])) {
            any_right = true;
            continue;
          }
          if (!either_masked && right_but_coarse(p, w.read(r, c), ref[r][c])) coarse = any_right = true;
          else row_differs = true, ++wrong;
        }
        // A row that is right but rounded too far is not carried from: the
        // parts after it are judged against the right answer, so coarse
        // rounding never earns more than precise work (it is "too few
        // decimals" there too).
        if (coarse && !row_differs) row = ref[r];
        out.differs = out.differs || row_differs;
        out.rows[r].complete = true;
        out.rows[r].accepted = !row_differs;
        out.rows[r].any_right = any_right;
        out.rows[r].wrong = wrong;
      }
    }
    return out;
  }

  const Tolerance& cell_tol(Part p, std::size_t r, std::size_t c) { return tolerance_row(p, r)[c]; }

  // True when a number is the right one rounded to fewer decimals than asked
  // ("0.67" for 0.665 when 3 are asked): verdict imprecise. A weight written
  // as a whole number is 0 or 1, picking one token (the lesson's common
  // mistake), and is never "right but coarse".
  bool right_but_coarse(Part p, const CellReading& read, double truth) const {
    return read.kind == CellReading::Kind::value && read.decimals >= 0 && read.decimals < spec_->decimals(p) &&
           std::fabs(read.value - truth) < 0.51 * decimal_unit(read.decimals) &&
           !(p == Part::weights && read.decimals == 0);
  }

  // ---- Follow-through (docs/marking.md, "Follow-through").

  // True when the student's cell (r, c) of part p, as read, is `want` at the
  // precision they wrote or within the cell's tolerance: how a mistake is
  // matched against what the student wrote. A masked cell matches only a
  // masked `want`.
  bool reproduces(Part p, std::size_t r, std::size_t c, double want) {
    const CellReading& read = written(p).read(r, c);
    if (read.kind == CellReading::Kind::masked) return want == masked_score;
    if (read.kind != CellReading::Kind::value || want == masked_score) return false;
    const double slack =
        std::max(half_width(cell_tol(p, r, c), want), read.decimals >= 0 ? 0.51 * decimal_unit(read.decimals) : 0.0);
    return std::fabs(read.value - want) <= slack + tiny;
  }

  // The typical mistakes of part p: made on the right earlier steps, and,
  // when the student wrote every row of their own scores and some differ, on
  // theirs (a mistake made after a wrong earlier step). Worked out once.
  const std::vector<MistakenAnswer>& candidates(Part p) {
    std::optional<std::vector<MistakenAnswer>>& cached = candidates_[static_cast<std::size_t>(p)];
    if (cached) return *cached;
    std::vector<MistakenAnswer>& out = cached.emplace();
    own_from_[static_cast<std::size_t>(p)] = static_cast<std::size_t>(-1);
    if (p != Part::query && p != Part::scores && p != Part::weights && p != Part::output) return out;
    // Mistakes of an earlier step count here only when that step is not written down.
    const Part before = p == Part::output ? Part::weights : Part::scores;
    const bool upstream = (p == Part::weights || p == Part::output) && !answered(before);
    out = mistaken_answers(*q_, p, q_->scores, q_->weights, upstream);
    const StudentRows& ss = student_rows(Part::scores);
    const StudentRows& sw = student_rows(Part::weights);
    if ((p == Part::weights || p == Part::output) && (ss.differs || sw.differs)) {
      Matrix scores = q_->scores, weights = q_->weights;
      bool complete = true;
      for (std::size_t r = 0; r < scores.size(); ++r) {
        if (asked(Part::scores) && !ss.rows[r]) complete = false;
        if (ss.rows[r]) scores[r] = *ss.rows[r];
        if (sw.rows[r]) weights[r] = *sw.rows[r];
      }
      // A mistake that gives what the right method gives on the student's own
      // rows names nothing (all-equal scores make every base's softmax equal).
      // (Row by row: explained() skips a row that is the right method's.)
      Matrix& own_right = own_right_[static_cast<std::size_t>(p)];
      own_right = p == Part::weights ? softmax_rows(scores) : mix_values(weights, q_->values);
      const auto same_as_own = [&](const Matrix& m) {
        for (std::size_t r = 0; r < m.size(); ++r)
          if (!same_row(m[r], own_right[r])) return false;
        return true;
      };
      own_from_[static_cast<std::size_t>(p)] = out.size();
      if (complete)
        for (MistakenAnswer& m : mistaken_answers(*q_, p, scores, weights, upstream))
          if (!same_as_own(m.numbers)) out.push_back(std::move(m));
    }
    return out;
  }

  // True when a typical mistake gives every cell of row r of part p, rounded
  // to the decimals asked (not only at a coarser precision the student
  // wrote: 1, 1, 1 is not 0.71, 1.41, 0.71 when 2 decimals are asked).
  bool explained(Part p, std::size_t r) {
    const Written& w = written(p);
    const std::vector<MistakenAnswer>& made = candidates(p);
    const std::size_t own_from = own_from_[static_cast<std::size_t>(p)];
    for (std::size_t k = 0; k < made.size(); ++k) {
      const MistakenAnswer& m = made[k];
      if (r >= m.numbers.size()) continue;
      // A row a mistake on the student's own rows gives, that the right method gives too, is not the mistake's.
      if (k >= own_from && same_row(m.numbers[r], own_right_[static_cast<std::size_t>(p)][r])) continue;
      // A mistake that mixes the rows explains a row only with all the others.
      const bool whole = !row_by_row(m.code);
      bool all = true;
      for (std::size_t row = whole ? 0 : r; all && row < (whole ? m.numbers.size() : r + 1); ++row)
      for (std::size_t c = 0; all && c < m.numbers[row].size(); ++c) {
        const double want = m.numbers[row][c];
        const double asked_slack = std::max(half_width(cell_tol(p, row, c), want), 0.51 * decimal_unit(spec_->decimals(p)));
        const CellReading& read = w.read(row, c);
        all = read.kind == CellReading::Kind::masked
                  ? want == masked_score
                  : read.kind == CellReading::Kind::value && want != masked_score &&
                        std::fabs(read.value - want) <= asked_slack + tiny;
      }
      if (all) return true;
    }
    return false;
  }

  // trivial_weights at the decimals asked, masked keys as the variant masks them.
  bool trivial_weights(const Vector& weights, std::size_t r) const {
    return attnmark::trivial_weights(weights, q_->scores[r], asked(Part::weights) ? spec_->decimals(Part::weights) : 3);
  }

  // True when the student's row r of part p is, number for number, a row of
  // something else they could copy: the question's given inputs (rows and
  // columns), another part of theirs in this question, or the same part of
  // another question.
  bool copied(Part p, std::size_t r) {
    const Vector& row = *student_rows(p).rows[r];
    if (row.size() < 2) return false;
    const auto same = [&](const auto& other) {
      if (other.size() != row.size()) return false;
      for (std::size_t c = 0; c < row.size(); ++c)
        if (!(row[c] == other[c]) && !(std::fabs(row[c] - other[c]) <= tiny)) return false;
      return true;
    };
    const auto in_matrix = [&](const Matrix& m) {
      for (const Vector& other : m)
        if (same(other)) return true;
      Vector column;
      for (std::size_t c = 0; !m.empty() && c < m[0].size(); ++c) {
        column.clear();
        for (const Vector& other : m) column.push_back(other[c]);
        if (same(column)) return true;
      }
      return false;
    };
    if (in_matrix(q_->keys) || in_matrix(q_->values) || in_matrix(q_->queries)) return true;
    if (spec_->projections && in_matrix(q_->embeddings)) return true;
    for (Part other : spec_->ask) {
      if (other == p || other == Part::most_attended) continue;
      const StudentRows& rows = student_rows(other);
      for (const StudentRow& o : rows.rows)
        if (o && same(*o)) return true;
    }
    for (const auto& [question, parts] : s_->answers) {
      if (question == spec_->id) continue;
      const auto a = parts.find(part_name(p));
      if (a == parts.end()) continue;
      Vector other;
      for (const std::vector<std::string>& cells : a->second.rows) {
        other.clear();
        for (const std::string& text : cells) {
          const CellReading read = read_number(text, true);
          if (read.kind == CellReading::Kind::value) other.push_back(read.value);
          else if (read.kind == CellReading::Kind::masked) other.push_back(masked_score);
          else break;
        }
        if (same(other)) return true;
      }
    }
    return false;
  }

  // True when the student's row r of part p makes the step after it trivial,
  // or was copied with more than one cell wrong: no follow-through is
  // carried from it.
  bool degenerate(Part p, std::size_t r) {
    const Vector& row = *student_rows(p).rows[r];
    // One wrong cell is a slip, whatever else its row happens to equal.
    if (student_rows(p).rows[r].wrong > 1 && copied(p, r)) return true;
    switch (p) {
      case Part::scores: {
        if (std::none_of(row.begin(), row.end(), [](double x) { return x != masked_score; })) return true;
        Vector weights;
        softmax_into(row, weights);
        return trivial_weights(weights, r) && !trivial_weights(q_->weights[r], r);
      }
      case Part::weights: return trivial_weights(row, r) && !trivial_weights(q_->weights[r], r);
      default: {
        // A projected row of one number repeated (all 0, say) scores every key alike.
        const Vector& right = truth(p)[r];
        const auto all_equal = [](const Vector& v) { return std::all_of(v.begin(), v.end(), [&](double x) { return x == v[0]; }); };
        return row.size() > 1 && all_equal(row) && !all_equal(right);
      }
    }
  }

  // True when the student's row r of part p is an honest attempt at its step,
  // so later steps worked from it may earn follow-through: it is right; or it
  // was itself carried whole; or a typical mistake gives it; or some cell of
  // it is right and it neither makes the next step trivial nor was copied.
  bool honest(Part p, std::size_t r) { return not_honest(p, r).empty(); }

  // Why row r of part p is not an honest attempt, in words for the student;
  // empty when it is one (or when it is not complete, so nothing is carried).
  std::string_view not_honest(Part p, std::size_t r) {
    const StudentRows& rows = student_rows(p);
    if (r >= rows.rows.size() || !rows.rows[r]) return {};
    const StudentRow& row = rows.rows[r];
    // A row carried whole is the right method on an earlier honest row.
    const std::vector<char>& carried_rows = carried_rows_[static_cast<std::size_t>(p)];
    if (row.accepted || (r < carried_rows.size() && carried_rows[r])) return {};
    if (row.any_right && !degenerate(p, r)) return {};
    if (explained(p, r)) return {};
    return row.any_right ? "its numbers make this step trivial or repeat numbers given elsewhere"
                         : "none of its numbers is right and no typical mistake gives them";
  }

  // Carried reference rows: the right method applied to the student's own
  // earlier rows, where those differ from the reference and are honest
  // attempts; with what each row was computed from, for its tolerance.
  struct Carried {
    std::vector<std::optional<Vector>> rows;  // per row of the reference; empty when nothing is carried
    std::vector<Vector> inputs;               // per row: the scores or weights it was computed from
    Matrix values;                            // output: the values it was mixed from
    std::vector<std::string_view> refused;    // per row: why the earlier row carries nothing (not_honest), or ""
  };
  Carried carried(Part p) {
    Carried carried;
    carried.rows.resize(truth(p).size());
    carried.inputs.resize(truth(p).size());
    carried.refused.resize(truth(p).size());
    std::vector<std::optional<Vector>>& out = carried.rows;
    switch (p) {
      case Part::scores: {
        if (!spec_->projections) break;
        const Part query_part = q_->query_token ? Part::query : Part::queries;
        const StudentRows& sq = student_rows(query_part);
        const StudentRows& sk = student_rows(Part::keys);
        if (!sq.differs && !sk.differs) break;
        Matrix keys = q_->keys;
        for (std::size_t j = 0; j < keys.size(); ++j)
          if (sk.rows[j]) {
            if (!honest(Part::keys, j)) return carried;  // every score uses every key
            keys[j] = *sk.rows[j];
          }
        for (std::size_t r = 0; r < out.size(); ++r) {
          if (sq.rows[r] && !(carried.refused[r] = not_honest(query_part, r)).empty()) continue;
          const Vector query = sq.rows[r] ? *sq.rows[r] : q_->queries[r];
          out[r] = attention_scores({query}, keys, q_->scale, spec_->mask, {q_->query_rows()[r]})[0];
        }
        break;
      }
      case Part::weights: {
        const StudentRows& ss = student_rows(Part::scores);
        if (!ss.differs) break;
        for (std::size_t r = 0; r < out.size(); ++r)
          if (ss.rows[r] && std::any_of(ss.rows[r]->begin(), ss.rows[r]->end(), [](double x) { return x != masked_score; })) {
            carried.refused[r] = not_honest(Part::scores, r);
            if (carried.refused[r].empty()) {
              softmax_into(*ss.rows[r], out[r].emplace());
              carried.inputs[r] = *ss.rows[r];
            }
          }
        break;
      }
      case Part::output: {
        const StudentRows& sw = student_rows(Part::weights);
        const StudentRows& sv = student_rows(Part::values);
        if (!sw.differs && !sv.differs) break;
        Matrix values = q_->values;
        for (std::size_t j = 0; j < values.size(); ++j)
          if (sv.rows[j]) {
            if (!honest(Part::values, j)) return carried;  // every output mixes every value
            values[j] = *sv.rows[j];
          }
        for (std::size_t r = 0; r < out.size(); ++r) {
          if (sw.rows[r] && !(carried.refused[r] = not_honest(Part::weights, r)).empty()) continue;
          const Vector weights = sw.rows[r] ? *sw.rows[r] : q_->weights[r];
          out[r] = mix_values({weights}, values)[0];
          carried.inputs[r] = weights;
        }
        carried.values = std::move(values);
        break;
      }
      default: break;
    }
    return carried;
  }

  PartResult grade_numbers(Part p) {
    const PartMarking& marking = spec_->marking.at(p);
    const Matrix& ref = truth(p);
    const bool vector = is_vector_part(*q_, p);
    const int decimals = spec_->decimals(p);
    Carried carry_from;
    if (marking.follow_through) carry_from = carried(p);
    else carry_from.rows.resize(ref.size());
    const std::vector<std::optional<Vector>>& carry = carry_from.rows;

    PartResult result;
    result.part = p;
    result.max_score = marking.marks;
    std::size_t cells = 0, right = 0, carried_cells = 0;
    const Written& w = written(p);
    std::size_t all_cells = 0;
    for (const Vector& row : ref) all_cells += row.size();
    result.cells.reserve(all_cells);
    std::vector<char>& carried_rows = carried_rows_[static_cast<std::size_t>(p)];
    carried_rows.assign(ref.size(), 0);
    carry_from.refused.resize(ref.size());
    std::string refused_note;  // why a row carries nothing, for the first such row
    for (std::size_t r = 0; r < ref.size(); ++r) {
      std::vector<Tolerance> carried_row;  // computed when first needed
      std::optional<AcceptedOutput> from_accepted;  // likewise (outputs)
      const std::size_t row_start = result.cells.size();
      // A row is carried only as a whole: every cell of it the right method
      // applied to the student's own earlier row.
      bool whole = carry[r].has_value(), all_right = true;
      const auto matches_carried = [&](std::size_t c, const CellReading& read) {
        const double want = (*carry[r])[c];
        if (want == masked_score) return read.kind == CellReading::Kind::masked;
        if (read.kind != CellReading::Kind::value) return false;
        if (carried_row.empty()) carried_row = carried_tolerances(p, r, carry_from);
        return within(carried_row[c], read.value, want);
      };
      for (std::size_t c = 0; c < ref[r].size(); ++c) {
        ++cells;
        CellResult& cell = result.cells.emplace_back();  // filled in place
        append_cell_label(cell.label, {vector ? 0 : r + 1, c + 1});
        cell.given = w.text(r, c);
        const double t = ref[r][c];
        cell.expected = t == masked_score ? "masked" : format_fixed(t, decimals);
        const CellReading& read = w.read(r, c);
        // A blank masked score is right, but does not by itself make a part answered.
        if (counts_as_answered(read, cell.given)) ++result.answered;
        switch (read.kind) {
          case CellReading::Kind::unanswered: cell.verdict = Verdict::unanswered; break;
          case CellReading::Kind::unreadable:
            cell.verdict = Verdict::unreadable;
            cell.note = read.problem;
            break;
          case CellReading::Kind::masked:
            cell.masked = true;
            cell.verdict = t == masked_score ? Verdict::correct : Verdict::wrong;
            if (t != masked_score) cell.note = "this score is not masked: its key is at or before the query's token";
            else ++right;
            break;
          case CellReading::Kind::value: {
            cell.value = read.value;
            if (t == masked_score) {
              cell.verdict = Verdict::wrong;
              cell.note = "this key comes after the query's token, so its score is masked";
              break;
            }
            if (within(cell_tol(p, r, c), read.value, t) ||
                (p == Part::output && right_for_accepted_weights(r, c, read.value, from_accepted))) {
              cell.verdict = Verdict::correct;
              ++right;
            } else if (right_but_coarse(p, read, t)) {
              cell.verdict = Verdict::imprecise;
              cell.note = fmt::format("'{}' is right to {} decimal place{}; give {}", cell_quote(cell.given), read.decimals,
                                      read.decimals == 1 ? "" : "s", decimals);
            } else {
              cell.verdict = Verdict::wrong;
              if (p == Part::weights && q_->scores[r][c] == masked_score)
                cell.note = "this key is masked, so its weight is exactly 0";
            }
            break;
          }
        }
        all_right = all_right && cell.verdict == Verdict::correct;
        whole = whole && matches_carried(c, read);
      }
      if (!carry[r] && !carry_from.refused[r].empty() && !all_right && refused_note.empty())
        refused_note = fmt::format("No follow-through from your {} for {}: {}.", earlier_part_words(p),
                                   row_name(q_->tokens, q_->query_rows(), p, r + 1), carry_from.refused[r]);
      if (whole && !all_right) {
        carried_rows[r] = 1;
        for (std::size_t i = row_start; i < result.cells.size(); ++i) {
          CellResult& cell = result.cells[i];
          if (cell.verdict == Verdict::correct) continue;
          cell.verdict = Verdict::carried;
          cell.note.clear();
          ++carried_cells;
        }
      }
    }
    if (result.answered == 0) {
      // Nothing written: blank masked scores are not answers either.
      for (CellResult& cell : result.cells)
        if (cell.verdict == Verdict::correct) cell.verdict = Verdict::unanswered;
      right = 0;
    }
    // Values written beyond the part's shape count as wrong cells: a part
    // that holds stray numbers never gets full marks.
    std::string count_note;
    const std::size_t stray = stray_values(p, count_note);
    score(result, marking, cells + stray, right, carried_cells);
    if (right < cells && result.answered > 0) diagnose(result, p);
    hints(result, p);
    if (!refused_note.empty()) result.hints.push_back(std::move(refused_note));
    if (!count_note.empty()) {
      result.hints.insert(result.hints.begin(), std::move(count_note));
      ++last_leading_;
    }
    if (const std::string_view note = answers_[static_cast<std::size_t>(p)].note; !note.empty()) {
      result.hints.insert(result.hints.begin(), std::string(note));
      ++last_leading_;
    }
    return result;
  }

  // How many values the student wrote beyond the shape of part p (a row per
  // query, a value per token or dimension), and `note` saying how the count
  // differs, more or fewer ("output has 2 values; you wrote 4"); "" when it
  // does not. Missing values are the unanswered cells.
  std::size_t stray_values(Part p, std::string& note) {
    const PartAnswer* a = answer(p);
    // (A part that could not be taken from the file holds no values to count.)
    if (!a || a->shaped_by_sheet || !a->unreadable.empty()) return 0;
    const Matrix& ref = truth(p);
    const std::string name = part_label(p);
    std::size_t stray = 0;
    const auto values = [](std::size_t n) { return fmt::format("{} value{}", n, n == 1 ? "" : "s"); };
    // No value: blank, ~, -, ?, null (as number_reader.h reads them).
    const auto empty = [](std::string_view text) {
      return read_number(text, false).kind == CellReading::Kind::unanswered;
    };
    // Entries of a row, not counting empty ones written past its end.
    const auto wrote = [&](const std::vector<std::string>& row, std::size_t want) {
      std::size_t n = row.size();
      while (n > want && empty(row[n - 1])) --n;
      return n;
    };
    if (ref.size() == 1 && a->rows.size() <= 1) {
      const std::size_t n = a->rows.empty() ? 0 : wrote(a->rows[0], ref[0].size());
      if (n != ref[0].size() && n > 0) note = fmt::format("{} has {}; you wrote {}", name, values(ref[0].size()), n);
      for (std::size_t c = ref[0].size(); c < n; ++c) stray += !empty(a->rows[0][c]);
      return stray;
    }
    if (a->rows.size() != ref.size())
      note = fmt::format("{} has {} rows, one per query; you wrote {}", name, ref.size(), a->rows.size());
    for (std::size_t r = 0; r < a->rows.size(); ++r) {
      const std::size_t want = r < ref.size() ? ref[r].size() : 0;
      const std::size_t n = wrote(a->rows[r], want);
      if (r < ref.size() && n != want && note.empty())
        note = fmt::format("{} row {} has {}; you wrote {}", name, r + 1, values(want), n);
      for (std::size_t c = want; c < n; ++c) stray += !empty(a->rows[r][c]);
    }
    return stray;
  }

  // The output of a row worked from the student's own weights, when the
  // grader accepted every one of them (each within its tolerance, e.g. worked
  // the lesson's way with e^score to 2 decimals): an output right for
  // accepted weights is right, whether or not follow-through is on.
  struct AcceptedOutput {
    bool usable = false;
    Vector output;
    std::vector<Tolerance> tolerances;
  };
  bool right_for_accepted_weights(std::size_t r, std::size_t c, double value, std::optional<AcceptedOutput>& cache) {
    if (!cache) {
      AcceptedOutput& a = cache.emplace();
      if (!asked(Part::weights)) return false;
      const StudentRows& sw = student_rows(Part::weights);
      if (r >= sw.rows.size() || !sw.rows[r].accepted) return false;
      a.usable = true;
      a.output = mix_values({*sw.rows[r]}, q_->values)[0];
      output_tolerances(*q_, *sw.rows[r], q_->values, a.tolerances);
    }
    return cache->usable && within(cache->tolerances[c], value, cache->output[c]);
  }

  // Tolerances of a carried row, derived from what it was carried from.
  std::vector<Tolerance> carried_tolerances(Part p, std::size_t r, const Carried& carried) {
    const PartMarking& m = spec_->marking.at(p);
    if (m.tolerance) return std::vector<Tolerance>(truth(p)[r].size(), *m.tolerance);
    if (p != Part::weights && p != Part::output) return tolerance_row(p, r);
    std::vector<Tolerance> out;
    if (p == Part::weights) weight_tolerances(*q_, carried.inputs[r], *carried.rows[r], out);
    else output_tolerances(*q_, carried.inputs[r], carried.values, out);
    return out;
  }

  static void score(PartResult& result, const PartMarking& marking, std::size_t cells, std::size_t right,
                    std::size_t carried_cells) {
    result.follow_through = carried_cells > 0;
    const double ft = marking.follow_through_credit;
    if (marking.per_cell) {
      result.score = marking.marks * (static_cast<double>(right) + ft * static_cast<double>(carried_cells)) /
                     static_cast<double>(cells);
    } else if (right == cells) {
      result.score = marking.marks;
    } else if (right + carried_cells == cells) {
      result.score = marking.marks * ft;
    }
  }

  // Names the mistake that reproduces the student's numbers, if one does
  // and explains them better than the right method.
  void diagnose(PartResult& result, Part p) {
    if (p != Part::query && p != Part::scores && p != Part::weights && p != Part::output) return;
    std::size_t readable = 0, credited = 0, coarse = 0;
    for (const CellResult& cell : result.cells) {
      if (cell.value || cell.masked) ++readable;
      if (cell.verdict == Verdict::correct || cell.verdict == Verdict::carried) ++credited;
      if (cell.verdict == Verdict::imprecise) ++coarse;
    }
    if (readable == 0) return;
    // No mistake can explain more than the right method; nor is one named for
    // numbers the right answer gives at the decimals the student wrote
    // (right but coarse: the hint asks for more decimals).
    if (readable <= credited + coarse) return;
    // Matching mistakes; those that give every cell to the decimals asked
    // (not only to the fewer decimals the student wrote) are kept apart: when
    // there are such, they alone name what the student did.
    std::vector<std::string> codes, exact_codes;
    for (const MistakenAnswer& m : candidates(p)) {
      if (std::find(exact_codes.begin(), exact_codes.end(), m.code) != exact_codes.end()) continue;
      // Every readable cell must match: within tolerance, or the precision
      // written. A cell that is right to the decimals written (imprecise) is
      // the mistake only when it is what the mistake gives to the decimals
      // asked: coarse rounding of the right answer is not a mistake's name.
      bool all = true, exact = true;
      std::size_t i = 0;
      for (std::size_t r = 0; r < m.numbers.size() && all; ++r)
        for (std::size_t c = 0; c < m.numbers[r].size() && all; ++c, ++i) {
          const CellResult& cell = result.cells[i];
          const double want = m.numbers[r][c];
          if (!cell.value && !cell.masked) continue;
          all = reproduces(p, r, c, want);
          if (cell.value) {
            const bool cell_exact = std::fabs(*cell.value - want) <= half_width(cell_tol(p, r, c), want) + tiny;
            exact = exact && cell_exact;
            if (cell.verdict == Verdict::imprecise) all = all && cell_exact;
          }
        }
      if (!all) continue;
      if (exact) exact_codes.push_back(m.code);
      if (std::find(codes.begin(), codes.end(), m.code) == codes.end()) codes.push_back(m.code);
    }
    if (!exact_codes.empty()) codes = std::move(exact_codes);
    // A named mistake that reproduces the cells wins over "too few decimals":
    // those cells were the mistake.
    if (!codes.empty())
      for (CellResult& cell : result.cells)
        if (cell.verdict == Verdict::imprecise) {
          cell.verdict = Verdict::wrong;
          cell.note.clear();
        }
    result.diagnoses = diagnoses(*q_, p, codes, written(p).readings);
  }

  void hints(PartResult& result, Part p) {
    for (const std::string& code : result.diagnoses) result.hints.emplace_back(explain(code));
    // A part that could not be taken from the file at all says why once, not once a cell.
    const PartAnswer* whole = answer(p);
    const bool unreadable_part = whole && !whole->unreadable.empty();
    if (unreadable_part) result.hints.push_back(fmt::format("{}: {}", part_label(p), whole->unreadable));
    bool wrong = false;
    for (const CellResult& cell : result.cells) {
      if (!cell.note.empty() && cell.verdict != Verdict::correct && !unreadable_part)
        result.hints.push_back(
            fmt::format("{} · {}: {}", part_label(p), cell_name(q_->tokens, q_->query_rows(), p, cell.label), cell.note));
      wrong = wrong || cell.verdict == Verdict::wrong;
    }
    if (result.follow_through) result.hints.push_back("correct method, carried from your " + earlier_part_words(p));
    if (wrong && result.diagnoses.empty()) result.hints.emplace_back(method_hint(p));
  }

  // What a part is worked from, for "carried from your ...".
  static std::string earlier_part_words(Part p) {
    return p == Part::weights ? "scores" : p == Part::output ? "weights" : p == Part::scores ? "query and keys" : "weights";
  }

  // What the right method is at a step, to say where the student left it.
  // (The scale of scaled scores follows: ", divided by 2".)
  static std::string_view method_words(Part p) {
    switch (p) {
      case Part::query:
      case Part::queries: return "the embedding times W_Q";
      case Part::keys: return "the embedding times W_K";
      case Part::values: return "the embedding times W_V";
      case Part::scores: return "the query times the key";
      case Part::weights: return "e to the power of the score, divided by the total of e to the power of every score";
      case Part::output: return "the weights times the values, added up";
      case Part::most_attended: return "the token with the largest weight";
    }
    return {};
  }

  // Finds the first wrong cell of the question, step by step, and tells every
  // part from that step on that lost marks to it (a wrong or carried cell):
  // its first hint after the notes on reading and counting.
  void mark_went_off(QuestionResult& result) {
    for (std::size_t pi = 0; pi < result.parts.size(); ++pi) {
      const PartResult& part = result.parts[pi];
      const auto wrong = std::find_if(part.cells.begin(), part.cells.end(),
                                      [](const CellResult& c) { return c.verdict == Verdict::wrong; });
      if (wrong == part.cells.end()) continue;
      const WentOff off{part.part, wrong->label, wrong->given};
      const std::string name = cell_name(q_->tokens, q_->query_rows(), part.part, wrong->label);
      std::string sentence = fmt::format("Your working first goes wrong at {}{}{}: you wrote {}", part_label(part.part),
                                         name.empty() ? "" : " · ", name, cell_quote(trim(wrong->given)));
      if (!wrong->note.empty()) {
        fmt::format_to(std::back_inserter(sentence), "; {}.", wrong->note);
      } else {
        fmt::format_to(std::back_inserter(sentence), ", which is not {}", method_words(part.part));
        if (part.part == Part::scores && q_->scale != 1)
          fmt::format_to(std::back_inserter(sentence), ", divided by {}", format_exact(q_->scale));
        sentence += '.';
      }
      for (std::size_t k = pi; k < result.parts.size(); ++k) {
        PartResult& later = result.parts[k];
        if (std::none_of(later.cells.begin(), later.cells.end(), [](const CellResult& c) {
              return c.verdict == Verdict::wrong || c.verdict == Verdict::carried;
            }))
          continue;
        later.went_off = off;
        // After what the student wrote is said to be read otherwise or miscounted.
        later.hints.insert(later.hints.begin() + static_cast<std::ptrdiff_t>(leading_hints_[k]), sentence);
      }
      return;
    }
  }

  std::string method_hint(Part p) {
    switch (p) {
      case Part::query:
      case Part::queries:
      case Part::keys:
      case Part::values: return "Multiply the embedding by the table: entry j is x times column j of W.";
      case Part::scores:
        return q_->scale == 1 ? "A score is the query times the key: multiply matching entries and add."
                             : fmt::format("A score is the query times the key (multiply matching entries and add), divided by {}.",
                                           format_exact(q_->scale));
      case Part::weights: return "Take e to the power of each score, then divide each by the total; the weights add up to 1.";
      case Part::output: return "Multiply each token's value by its weight, then add the results.";
      case Part::most_attended: return "The most attended token is the one with the largest weight.";
    }
    return {};
  }

  // True when `is` names a token that the student's own weights put on top;
  // when several tie for the top (as written), any of them.
  template <typename Names>
  static bool names_top_token(const Vector& weights, Names is) {
    const double top = *std::max_element(weights.begin(), weights.end());
    for (std::size_t t = 0; t < weights.size(); ++t)
      if (weights[t] == top && is(t)) return true;
    return false;
  }

  PartResult grade_words() {
    const PartMarking& marking = spec_->marking.at(Part::most_attended);
    const PartAnswer* a = find_part(*s_, spec_->id, Part::most_attended);
    static const StudentRows none;
    const StudentRows& sw = marking.follow_through ? student_rows(Part::weights) : none;
    PartResult result;
    result.part = Part::most_attended;
    result.max_score = marking.marks;
    std::size_t right = 0, carried_cells = 0;
    const std::size_t cells = q_->most_attended.size();
    for (std::size_t r = 0; r < cells; ++r) {
      CellResult cell;
      append_cell_label(cell.label, {0, q_->query_token ? 0 : r + 1});
      // A single answer may be written as a scalar or as a one-cell list.
      // All-tokens words may be one list, or a list of one-word rows.
      const bool one_list = !a || a->rows.size() <= 1;
      cell.given = cell_text(a, one_list ? 0 : r, one_list ? r : 0);
      cell.expected = q_->tokens[q_->most_attended[r]];
      const TokenReading reading = read_token(cell.given, q_->tokens);
      if (a && !a->unreadable.empty()) {
        ++result.answered;
        cell.verdict = Verdict::unreadable;
        cell.note = a->unreadable;
      } else if (reading.kind == TokenReading::Kind::unanswered) {
        cell.verdict = Verdict::unanswered;
      } else if (reading.kind == TokenReading::Kind::unreadable) {
        ++result.answered;
        cell.verdict = Verdict::unreadable;
        cell.note = reading.problem;
      } else if (reading.kind == TokenReading::Kind::token) {
        ++result.answered;
        auto is = [&](std::size_t t) { return lower(trim(q_->tokens[t])) == reading.word; };
        if (is(q_->most_attended[r])) {
          cell.verdict = Verdict::correct;
          ++right;
        } else if (sw.rows.size() > r && sw.rows[r] && honest(Part::weights, r) && names_top_token(*sw.rows[r], is)) {
          cell.verdict = Verdict::carried;
          ++carried_cells;
        } else {
          cell.verdict = Verdict::wrong;
        }
      } else if (reading.kind == TokenReading::Kind::not_a_token) {
        ++result.answered;
        cell.verdict = Verdict::wrong;
        cell.note = reading.problem;
      }
      result.cells.push_back(std::move(cell));
    }
    score(result, marking, cells, right, carried_cells);
    hints(result, Part::most_attended);
    return result;
  }

  // The question being marked: set by run(), for every step of it.
  const QuestionVariant* q_ = nullptr;
  const QuestionSpec* spec_ = nullptr;
  const Submission* s_ = nullptr;
  // What has been worked out about the question so far, filled when first
  // needed and reset by run(): each part's cells are read, and each
  // tolerance computed, once per question. The storage itself is kept from
  // question to question (a class is millions of cells).
  static constexpr std::size_t parts = static_cast<std::size_t>(Part::most_attended) + 1;
  std::array<Written, parts> written_;
  std::array<std::vector<std::vector<Tolerance>>, parts> tolerances_;  // an empty row: not yet computed
  std::array<StudentRows, parts> student_rows_;
  std::array<PartAnswers, parts> answers_;
  std::array<std::vector<char>, parts> carried_rows_;
  std::vector<std::size_t> leading_hints_;  // per part marked: how many hints come before went_off's
  std::size_t last_leading_ = 0;            // the part being marked's  // per row: carried whole (set once the part is graded)
  std::array<std::optional<std::vector<MistakenAnswer>>, parts> candidates_;  // candidates(p)
  std::array<std::size_t, parts> own_from_{};  // candidates_[p] from here on are made on the student's own rows
  std::array<Matrix, parts> own_right_;        // the right method on the student's own rows, for those
};

}  // namespace

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::correct: return "correct";
    case Verdict::carried: return "carried";
    case Verdict::imprecise: return "imprecise";
    case Verdict::wrong: return "wrong";
    case Verdict::unanswered: return "unanswered";
    case Verdict::unreadable: return "unreadable";
  }
  return "?";
}

Marked grade(const Variant& variant, const Submission& submission) {
  Marked marked;
  for (const QuestionVariant& q : variant.questions) {
    thread_local QuestionGrader grader;
    QuestionResult result = grader.run(q, submission);
    for (const PartResult& p : result.parts) marked.answered += p.answered;
    marked.score += result.score;
    marked.max_score += result.max_score;
    marked.questions.push_back(std::move(result));
  }
  // Answers the rubric has no place for are reported, never silently dropped;
  // the first ten of each kind by name, then counted, so a sheet of 9,999
  // unknown questions makes a note, not megabytes of them.
  RepeatedNotes unknown_questions("more answers for questions this rubric does not have were not marked");
  RepeatedNotes unasked_parts("more answers for parts this rubric does not ask were not marked");
  for (const auto& question : submission.answers) {
    const std::string& id = question.first;  // named, not bound: clang 14 cannot capture bindings
    const auto& parts = question.second;
    const auto q = std::find_if(variant.questions.begin(), variant.questions.end(),
                                [&](const QuestionVariant& v) { return v.spec->id == id; });
    if (q == variant.questions.end()) {
      // "q 1" or "Q1" means q1; "q9" is another question, not a misspelling.
      const auto plain = [](std::string_view s) {
        std::string out;
        for (char c : lower(s))
          if (c != ' ' && c != '_' && c != '-' && c != '.') out += c;
        return out;
      };
      std::string meant;
      for (const QuestionVariant& v : variant.questions)
        if (plain(v.spec->id) == plain(id)) meant = " (did you mean '" + v.spec->id + "'?)";
      if (unknown_questions.keep())
        marked.notes.push_back(fmt::format("answers for '{}', which this rubric does not have, were not marked{}", id, meant));
      continue;
    }
    std::vector<std::string> asked_names;
    for (Part p : q->spec->ask) asked_names.emplace_back(part_name(p));
    for (const auto& entry : parts) {
      const std::string& name = entry.first;
      const bool asked = std::any_of(q->spec->ask.begin(), q->spec->ask.end(), [&](Part p) {
        return parse_part(name) == p;
      });
      if (!asked && unasked_parts.keep())
        marked.notes.push_back(fmt::format("{}.{} is not asked in this rubric and was not marked{}", id, name,
                                           did_you_mean(name, asked_names)));
    }
  }
  unknown_questions.finish(marked.notes);
  unasked_parts.finish(marked.notes);
  return marked;
}

}  // namespace attnmark
