#include "writers/feedback.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <vector>

#include "base/text.h"
#include "attnmark/lesson/cell_names.h"
#include "attnmark/lesson/numbers.h"
#include "writers/html_page.h"
#include "writers/markdown_writer.h"
#include "writers/report_words.h"

namespace attnmark {
namespace {

// A JSON string, always well-formed UTF-8: quotes, backslashes and control
// characters escaped, and each byte that is not part of a UTF-8 character
// written as the text \xHH (as printable shows it), since JSON has no way
// to hold the byte itself.
void json_string(std::string& out, std::string_view text) {
  // The bytes copied as they are without a look at UTF-8: printable ASCII but '"' and '\\'.
  static constexpr auto plain_ascii = [] {
    std::array<bool, 256> table{};
    for (int c = 0x20; c < 0x7F; ++c) table[c] = c != '"' && c != '\\';
    return table;
  }();
  out += '"';
  std::size_t plain = 0;  // start of the run of characters copied as they are
  for (std::size_t i = 0; i < text.size(); ++i) {
    while (i < text.size() && plain_ascii[static_cast<unsigned char>(text[i])]) ++i;
    if (i == text.size()) break;
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      std::uint32_t code_point = 0;
      if (const std::size_t n = decode_utf8(text, i, code_point); n > 0) {
        i += n - 1;
        continue;
      }
      out.append(text.data() + plain, i - plain);
      plain = i + 1;
      out += "\\\\x";  // a JSON backslash, then xHH
      out += "0123456789ABCDEF"[c >> 4];
      out += "0123456789ABCDEF"[c & 15];
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += fmt::format("\\u{:04x}", c);
    }
  }
  out.append(text.data() + plain, text.size() - plain);
  out += '"';
}

// A JSON string of our own making that needs no escapes ("1.2", "correct").
void json_plain(std::string& out, std::string_view text) {
  out += '"';
  out += text;
  out += '"';
}

void json_strings(std::string& out, const std::vector<std::string>& list) {
  out += '[';
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    json_string(out, list[i]);
  }
  out += ']';
}

// ,"grid":{"corner":"query ↓ key →","rows":["bus",...],"columns":["bus",...]}:
// the lesson's table of a part, named as FeedbackView names it (grid_of).
void append_grid_json(std::string& out, const QuestionResult& q, Part part, GridSize size) {
  out += ",\"grid\":{\"corner\":";
  json_plain(out, table_corner(part));
  out += ",\"rows\":[";
  for (std::size_t r = 1; r <= size.rows; ++r) {
    if (r > 1) out += ',';
    json_string(out, row_name(q.tokens, q.query_rows, part, r));
  }
  out += "],\"columns\":[";
  for (std::size_t c = 1; c <= size.columns; ++c) {
    if (c > 1) out += ',';
    json_string(out, column_name(q.tokens, part, c));
  }
  out += "]}";
}

}  // namespace

// Written by hand rather than through a JSON library: a course of 100,000
// students writes millions of cells, and this is the hot path.
void append_feedback_json(std::string& out, const GradedSubmission& g) {
  out += "{\"student\":";
  json_string(out, g.student);
  out += ",\"variant\":";
  json_string(out, g.variant);
  out += ",\"source\":";
  json_string(out, g.source);
  out += ",\"status\":";
  json_plain(out, status_name(g.status));
  out += ",\"reason\":";
  json_string(out, bounded_reason(g.reason, max_reason_bytes));
  auto number = [&](const char* key, double x) {
    out += key;
    append_exact(out, x);
  };
  // "score_text":"1.78 / 16", as the reports show the score.
  auto shown = [&](double score, double max_score) {
    out += ",\"score_text\":\"";
    append_score_text(out, score);
    out += " / ";
    append_score_text(out, max_score);
    out += '"';
  };
  if (g.marked) {
    number(",\"score\":", g.marked->score);
    number(",\"max_score\":", g.marked->max_score);
    shown(g.marked->score, g.marked->max_score);
    out += ",\"notes\":";
    json_strings(out, shown_notes(g.marked->notes));
  } else {
    out += ",\"score\":null,\"max_score\":null,\"score_text\":null";
  }
  out += ",\"questions\":[";
  if (g.marked) {
    for (std::size_t qi = 0; qi < g.marked->questions.size(); ++qi) {
      const QuestionResult& q = g.marked->questions[qi];
      if (qi) out += ',';
      out += "{\"id\":";
      json_string(out, q.id);
      number(",\"score\":", q.score);
      number(",\"max_score\":", q.max_score);
      shown(q.score, q.max_score);
      out += ",\"parts\":{";
      for (std::size_t pi = 0; pi < q.parts.size(); ++pi) {
        const PartResult& p = q.parts[pi];
        if (pi) out += ',';
        json_plain(out, part_name(p.part));
        out += ":{\"label\":";
        json_plain(out, part_label(p.part));
        number(",\"score\":", p.score);
        number(",\"max_score\":", p.max_score);
        shown(p.score, p.max_score);
        out += p.follow_through ? ",\"follow_through\":true,\"diagnoses\":" : ",\"follow_through\":false,\"diagnoses\":";
        json_strings(out, p.diagnoses);
        out += ",\"hints\":";
        json_strings(out, p.hints);
        if (p.went_off) {
          // Where the working first left the right path (the first hint says it in words).
          out += ",\"went_off\":{\"part\":";
          json_plain(out, part_name(p.went_off->part));
          out += ",\"cell\":";
          json_plain(out, p.went_off->label);
          out += ",\"given\":";
          json_string(out, cell_quote(p.went_off->given));
          out += '}';
        }
        if (const GridSize size = grid_size(p); size.rows) append_grid_json(out, q, p.part, size);
        out += ",\"cells\":[";
        for (std::size_t ci = 0; ci < p.cells.size(); ++ci) {
          const CellResult& c = p.cells[ci];
          if (ci) out += ',';
          out += "{\"cell\":";
          json_plain(out, c.label);
          out += ",\"given\":";
          json_string(out, cell_quote(c.given));
          if (c.value) {
            out += ",\"value\":";
            append_exact(out, *c.value, c.given);
          }
          else out += c.masked ? ",\"value\":\"masked\"" : ",\"value\":null";
          out += ",\"verdict\":";
          json_plain(out, verdict_name(c.verdict));
          if (!c.note.empty()) {
            out += ",\"note\":";
            json_string(out, c.note);
          }
          out += '}';
        }
        out += "]}";
      }
      out += "}}";
    }
  }
  out += "]}";
}

std::string feedback_markdown(const FeedbackView& v) {
  std::string out = fmt::format("# Feedback: {}\n\n", markdown_text(v.title));
  out += fmt::format("Student: {} · Variant: {} · Status: {}\n\n", markdown_text(v.student.empty() ? "(none)" : v.student),
                     v.variant.empty() ? "(unknown)" : v.variant, status_name(v.status));
  if (!v.reason.empty()) out += fmt::format("{}\n\n", markdown_text(v.reason));
  if (!v.marked) return out;
  out += fmt::format("**Score: {}**\n\n", v.score);
  out += verdict_legend(LegendStyle::explained) + "\n\n";
  for (const QuestionView& q : v.questions) {
    out += fmt::format("## {}: {}\n\n", q.id, q.score);
    for (const PartView& p : q.parts) {
      out += fmt::format("### {}: {}\n\n", p.label, p.score);
      if (p.grid) {
        // A matrix as the lesson's table: your answer and its mark in each cell.
        out += "| " + std::string(p.grid->corner) + " |";
        for (const std::string& column : p.grid->columns) out += " " + markdown_text(column) + " |";
        out += "\n|---|";
        for (std::size_t c = 0; c < p.grid->columns.size(); ++c) out += "---|";
        out += "\n";
        for (std::size_t r = 0; r < p.grid->rows.size(); ++r) {
          out += "| " + markdown_text(p.grid->rows[r]) + " |";
          for (std::size_t c = 0; c < p.grid->columns.size(); ++c) {
            const CellView& cell = p.cells[r * p.grid->columns.size() + c];
            out += " ";
            if (!cell.given.empty()) out += markdown_text(cell.given) + " ";
            out += cell.look.symbol;
            if (v.reveal) out += " (" + markdown_text(cell.expected) + ")";
            out += " |";
          }
          out += "\n";
        }
      } else {
        out += v.reveal ? "| Cell | Your answer | Mark | Answer |\n|---|---|---|---|\n" : "| Cell | Your answer | Mark |\n|---|---|---|\n";
        for (const CellView& c : p.cells) {
          out += fmt::format("| {} | {} | {} |", c.name.empty() ? "-" : markdown_text(c.name), markdown_text(c.given),
                             c.look.symbol);
          out += v.reveal ? fmt::format(" {} |\n", markdown_text(c.expected)) : "\n";
        }
      }
      out += "\n";
      for (const HintView& h : p.hints) out += "- " + markdown_text(h.text) + "\n";
      if (!p.hints.empty()) out += "\n";
    }
  }
  for (const std::string& n : v.notes) out += "- Note: " + markdown_text(n) + "\n";
  return out;
}

std::string feedback_markdown(const Rubric& rubric, const GradedSubmission& g, bool reveal) {
  return feedback_markdown(feedback_view(rubric, g, reveal));
}

std::string feedback_article(const FeedbackView& v) {
  std::string out = "<p class=\"kind muted\"><b>FEEDBACK</b></p>\n";
  out += fmt::format("<h1>{}</h1>\n", html_escape(v.title));
  out += "<div class=\"panel\">\n";
  out += fmt::format("<p><b>Student:</b> {} · <b>Variant:</b> {} · <b>Status:</b> <span{}>{}</span></p>\n",
                     html_escape(v.student.empty() ? "(none)" : v.student), html_escape(v.variant.empty() ? "(unknown)" : v.variant),
                     status_class(v.status), status_name(v.status));
  if (!v.reason.empty()) out += "<p>" + html_escape(v.reason) + "</p>\n";
  if (v.marked) out += fmt::format("<p class=\"score-big\">Score: {}</p>\n", v.score);
  out += "</div>\n";
  if (!v.marked) return out;

  out += "<p class=\"legend muted\">" + verdict_legend(LegendStyle::explained) + "</p>\n";
  for (const QuestionView& q : v.questions) {
    const std::string heading = q.title.empty() ? html_escape(q.id) : fmt::format("Question {}: {}", q.number, html_escape(q.title));
    out += fmt::format("<section class=\"qfb\">\n<h2>{} <span class=\"muted\">({})</span></h2>\n", heading, q.score);
    for (const PartView& p : q.parts) {
      out += "<div class=\"part-fb\">\n";
      out += fmt::format("<h3>{} <span class=\"marks\">{}</span>{}</h3>\n", html_escape(p.label), p.score,
                         p.follow_through ? " <span class=\"follow\">✓* follow-through</span>" : "");
      if (p.grid) {
        // A matrix as the lesson's table: your answer and its mark in each cell.
        out += "<table class=\"grid\">\n<thead><tr><th scope=\"col\">" + html_escape(p.grid->corner) + "</th>";
        for (const std::string& column : p.grid->columns) out += "<th scope=\"col\">" + html_escape(column) + "</th>";
        out += "</tr></thead>\n<tbody>\n";
        for (std::size_t r = 0; r < p.grid->rows.size(); ++r) {
          out += "<tr><th scope=\"row\">" + html_escape(p.grid->rows[r]) + "</th>";
          for (std::size_t c = 0; c < p.grid->columns.size(); ++c) {
            const CellView& cell = p.cells[r * p.grid->columns.size() + c];
            out += fmt::format("<td class=\"{}\">{}{} <span title=\"{}\">{}</span>", cell.look.css,
                               cell.given.empty() ? "" : html_escape(cell.given), cell.given.empty() ? "" : "<br>",
                               cell.look.word, cell.look.symbol);
            if (v.reveal) out += "<br><span class=\"muted\">" + html_escape(cell.expected) + "</span>";
            if (!cell.note.empty()) out += "<br><span class=\"muted\">" + html_escape(cell.note) + "</span>";
            out += "</td>";
          }
          out += "</tr>\n";
        }
        out += "</tbody>\n</table>\n";
      } else {
        out += "<table>\n<colgroup><col style=\"width:22%\"><col><col>";
        if (v.reveal) out += "<col>";
        out += "</colgroup>\n<thead><tr><th scope=\"col\">Cell</th><th scope=\"col\">Your answer</th>"
               "<th scope=\"col\">Mark</th>";
        if (v.reveal) out += "<th scope=\"col\">Answer</th>";
        out += "</tr></thead>\n<tbody>\n";
        for (const CellView& c : p.cells) {
          std::string mark = fmt::format("{} {}", c.look.symbol, c.look.word);
          if (!c.note.empty()) mark += fmt::format("<br><span class=\"muted\">{}</span>", html_escape(c.note));
          out += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td><td class=\"{}\">{}</td>",
                             html_escape(c.name.empty() ? "–" : c.name), c.given.empty() ? "" : html_escape(c.given),
                             c.look.css, mark);
          if (v.reveal) out += "<td>" + html_escape(c.expected) + "</td>";
          out += "</tr>\n";
        }
        out += "</tbody>\n</table>\n";
      }
      // A hint that only repeats a cell's note (shown in its row) or a
      // mistake's explanation (shown as the mistake) is left out.
      const bool new_hint = std::any_of(p.hints.begin(), p.hints.end(), [](const HintView& h) { return !h.repeats; });
      if (!p.diagnoses.empty() || new_hint) {
        out += "<ul>\n";
        for (const DiagnosisView& d : p.diagnoses) out += fmt::format("<li><b>Mistake:</b> {}</li>\n", html_escape(d.words));
        for (const HintView& h : p.hints)
          if (!h.repeats) out += "<li><b>Hint:</b> " + html_escape(h.text) + "</li>\n";
        out += "</ul>\n";
      }
      out += "</div>\n";
    }
    out += "</section>\n";
  }
  if (!v.notes.empty()) {
    out += "<h2>Notes</h2>\n<ul>\n";
    for (const std::string& n : v.notes) out += "<li>" + html_escape(n) + "</li>\n";
    out += "</ul>\n";
  }
  return out;
}

std::string feedback_article(const Rubric& rubric, const GradedSubmission& g, bool reveal) {
  return feedback_article(feedback_view(rubric, g, reveal));
}

std::string feedback_html(const FeedbackView& v, const HtmlStyle& style) {
  return html_page("Feedback: " + v.title, style, report_css(), "<main>\n" + feedback_article(v) + "</main>\n");
}

std::string feedback_html(const Rubric& rubric, const GradedSubmission& g, bool reveal, const HtmlStyle& style) {
  return feedback_html(feedback_view(rubric, g, reveal), style);
}

std::string check_table(const FeedbackView& v) {
  // Everything from the answer file is shown through printable: a cell
  // holding CR, VT, FF or ESC must not move the terminal's cursor.
  constexpr std::size_t wide = 1000;
  std::string out = fmt::format("attnmark check: {} · student {} · variant {}\n", printable(v.rubric, wide),
                                v.student.empty() ? "(none)" : printable(v.student, wide), printable(v.variant, wide));
  if (!v.reason.empty()) out += v.reason + "\n";
  if (!v.marked) return out;
  out += verdict_legend(LegendStyle::terse) + "\n\n";
  for (const QuestionView& q : v.questions) {
    out += fmt::format("{:<16}{:>9}\n", q.id, q.score);
    for (const PartView& p : q.parts) {
      const auto marks = [&](std::size_t first, std::size_t end) {
        std::string out;
        for (std::size_t i = first; i < end; ++i) {
          if (!out.empty()) out += ' ';
          out += p.cells[i].look.symbol;
          if (v.reveal) out += "(" + p.cells[i].expected + ")";
        }
        return out;
      };
      if (p.grid) {
        // A matrix as the lesson's table: a line per row, named by its token.
        std::string columns;
        for (const std::string& c : p.grid->columns) columns += (columns.empty() ? "" : ", ") + printable(c, wide);
        out += fmt::format("  {:<14}{:>9}   {}: {}\n", p.label, p.score, p.grid->corner, columns);
        for (std::size_t r = 0; r < p.grid->rows.size(); ++r)
          out += fmt::format("      {}: {}\n", printable(p.grid->rows[r], wide),
                             marks(r * p.grid->columns.size(), (r + 1) * p.grid->columns.size()));
      } else {
        out += fmt::format("  {:<14}{:>9}   {}\n", p.label, p.score, marks(0, p.cells.size()));
      }
      for (const HintView& h : p.hints) out += "      hint: " + printable(h.text, wide) + "\n";
    }
  }
  for (const std::string& n : v.notes) out += "note: " + printable(n, wide) + "\n";
  out += fmt::format("\nTotal: {}\n", v.score);
  return out;
}

std::string check_table(const Rubric& rubric, const GradedSubmission& g, bool reveal) {
  return check_table(feedback_view(rubric, g, reveal));
}

}  // namespace attnmark
