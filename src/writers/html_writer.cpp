#include "writers/html_writer.h"

#include <fmt/format.h>

#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"
#include "writers/html_page.h"

namespace attnmark {
namespace {

// Where a block's answer cells are in a form: the sheet form, and the
// question and part whose fields they are. Null where the sheet is for print.
struct FormPlace {
  const SheetForm* form = nullptr;
  std::string question, part;
  std::size_t number = 0;  // the question's, 1-based
};

// One answer cell as an input, its value as last sent and its mark beside
// it. Its box is wide enough for its answer at any text size (ch follow the
// font): 8 characters, or what was typed and one more.
std::string input_html(const FormPlace& place, std::size_t row, std::size_t column, const std::string& spoken) {
  const std::string name = answer_field_name(place.question, place.part, row, column);
  const auto v = place.form->values.find(name);
  const auto m = place.form->marks.find(name);
  const CellMark* mark = m != place.form->marks.end() ? &m->second : nullptr;
  std::string label = fmt::format("Question {}, {}", place.number, spoken);
  if (mark) label += ", " + mark->word;
  std::string out = "<input type=\"text\" class=\"cell\" name=\"" + html_escape(name) + "\" aria-label=\"" +
                    html_escape(label) + "\" autocomplete=\"off\" enterkeyhint=\"next\"";
  if (mark && mark->invalid) out += " aria-invalid=\"true\"";
  if (mark && !mark->revealed.empty()) out += " aria-describedby=\"mark-" + html_escape(name) + "\"";
  if (v != place.form->values.end()) {
    out += " value=\"" + html_escape(v->second) + "\"";
    // Characters, not bytes: a UTF-8 continuation byte starts none.
    std::size_t length = 0;
    for (unsigned char c : v->second) length += (c & 0xC0) != 0x80;
    if (length >= 8) out += fmt::format(" style=\"width:{}ch\"", length + 1);
  }
  out += ">";
  if (mark) {
    out += fmt::format("<span class=\"mark\" id=\"mark-{}\"><span class=\"{}\" title=\"{}\" aria-hidden=\"true\">{}</span>",
                       html_escape(name), mark->css, html_escape(mark->word), html_escape(mark->symbol));
    if (!mark->revealed.empty()) out += " <span class=\"muted\">" + html_escape(mark->revealed) + "</span>";
    out += "</span>";
  }
  return out;
}

std::string inline_html(const Inline& text, const FormPlace& place = {}) {
  std::string out;
  for (const Span& s : text) {
    switch (s.style) {
      case Span::Style::plain: out += html_escape(s.text); break;
      case Span::Style::strong: out += "<strong>" + html_escape(s.text) + "</strong>"; break;
      case Span::Style::code: out += "<code>" + html_escape(s.text) + "</code>"; break;
      case Span::Style::blank:
        out += place.form && s.answer ? input_html(place, 0, 0, s.answer_name)
                                      : "<span class=\"blank\" aria-label=\"write your answer here\"></span>";
        break;
    }
  }
  return out;
}

// A form's tables scroll sideways in their own frame when the screen is too
// narrow, rather than squeeze a box or break a header.
std::string table_html(const SheetTable& t, const FormPlace& place) {
  std::string out = place.form ? "<div class=\"scroll\"><table>\n<colgroup><col class=\"lab\">" : "<table>\n<colgroup><col class=\"lab\">";
  for (std::size_t i = 1; i < t.header.size(); ++i) out += "<col>";
  out += "</colgroup>\n<thead><tr>";
  for (const std::string& h : t.header) out += "<th scope=\"col\">" + html_escape(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const SheetCell& c = row[i];
      if (i == 0 && c.kind == SheetCell::Kind::given) {
        out += "<th scope=\"row\">" + inline_html(c.text) + "</th>";
        continue;
      }
      switch (c.kind) {
        case SheetCell::Kind::given: out += "<td>" + inline_html(c.text) + "</td>"; break;
        case SheetCell::Kind::write_in:
          if (place.form && !c.answers.empty()) {
            out += "<td class=\"write form\">";
            for (const SheetCell::Address& a : c.answers) out += input_html(place, a.row, a.column, a.name);
            out += "</td>";
          } else {
            out += "<td class=\"write\"></td>";
          }
          break;
        case SheetCell::Kind::answer: out += "<td class=\"answer\">" + inline_html(c.text) + "</td>"; break;
        case SheetCell::Kind::none: out += "<td class=\"none\"></td>"; break;
      }
    }
    out += "</tr>\n";
  }
  return out + (place.form ? "</tbody>\n</table></div>\n" : "</tbody>\n</table>\n");
}

std::string blocks_html(const std::vector<SheetBlock>& blocks, const FormPlace& place = {}) {
  std::string out;
  for (const SheetBlock& b : blocks)
    out += b.is_table ? table_html(b.table, place) : "<p>" + inline_html(b.text, place) + "</p>\n";
  return out;
}

std::string marks_of(double marks) { return fmt::format("{} mark{}", format_exact(marks), marks == 1 ? "" : "s"); }

// The running footer's text: enough to put a loose page back with its student.
std::string footer_text(const SheetDocument& doc) {
  return fmt::format("{} · {} · {} · variant {}{} · {}", doc.title,
                     doc.sheet == Sheet::key ? "answer key" : "worksheet",
                     doc.student.empty() ? "no student id" : "student " + doc.student, doc.variant,
                     doc.seed ? fmt::format(" · seed {}", *doc.seed) : std::string(), generator_version);
}

// The questions of a sheet; with a form, each answer cell is an input.
std::string questions_html(const SheetDocument& doc, const SheetForm* form) {
  const bool key = doc.sheet == Sheet::key;
  std::string out;
  for (const QuestionSection& q : doc.questions) {
    out += "<section class=\"question\">\n";
    out += fmt::format("<h2><span>Question {}: {}</span><span class=\"marks\">{} · {}</span></h2>\n",
                       q.number, html_escape(q.title), html_escape(q.id), marks_of(q.marks));
    out += "<div class=\"givens\">\n";
    if (!q.prompt.empty()) out += "<p class=\"prompt\">" + html_escape(q.prompt) + "</p>\n";
    out += blocks_html(q.givens, FormPlace{form, q.id, "", q.number}) + "</div>\n";
    for (const PartSection& p : q.parts) {
      out += "<section class=\"part\">\n";
      out += fmt::format("<h3><span>{}</span><span class=\"marks\">{}{}</span></h3>\n", html_escape(p.title),
                         html_escape(p.marks), p.precision.empty() ? "" : " · give " + html_escape(p.precision));
      out += blocks_html(p.blocks, FormPlace{form, q.id, part_name(p.part), q.number}) + "</section>\n";
    }
    if (!key && !form) out += "<div class=\"working\"><span>Working</span></div>\n";
    out += "</section>\n";
  }
  return out;
}

}  // namespace

std::string sheet_form_questions(const SheetDocument& doc, const SheetForm& form) { return questions_html(doc, &form); }

std::string sheet_form_css() {
  return "td.write.form{height:auto;white-space:nowrap}\n"
         ".scroll{overflow-x:auto;max-width:100%}\n"
         ".scroll table{table-layout:auto;width:auto;min-width:100%}\n"
         ".scroll th,.scroll td{overflow-wrap:normal}\n"
         ".scroll th{white-space:nowrap}\n"
         "input.cell{font:inherit;width:8ch;min-width:8ch;box-sizing:content-box;padding:.15em .3em;"
         "margin:.1em .2em .1em 0;border:var(--line) solid var(--rule);background:var(--page);color:var(--text)}\n";
}

// In print the sheet is packed (issue 13, "paper is not wasted"): the lesson
// on at most 3 pages and a one-question sheet on one, on A4 and Letter at the
// normal text size. Headings keep the chosen size; prompts are .9 and tables
// .92 of it, answer cells 8 mm high (a handwritten number fits), Working boxes
// 18 mm.
// Headings keep with what follows (h2/h3 break-after:avoid, a part and a
// question's givens unbroken); the browser tests pin the page counts.
std::string sheet_css() {
  return R"(.sheet+.sheet{break-before:page}
.sheet-head{border-bottom:calc(var(--line) * 2) solid var(--rule);padding-bottom:.5em;margin-bottom:.6em}
.kind{margin:0;font-size:.85em;font-weight:bold;letter-spacing:.06em;text-transform:uppercase;color:var(--muted)}
.who{display:flex;flex-wrap:wrap;gap:.4em 1.2em;margin:.5em 0 .3em}
.who div{display:flex;align-items:flex-end;gap:.4em;flex:1 1 auto;min-width:12em}
.who div.name{flex:3 1 18em}
.who .label{font-weight:bold;color:var(--heading);white-space:nowrap}
.who .line{flex:1;display:flex;align-items:flex-end;min-height:1.9em;border-bottom:var(--line) solid var(--text);padding:0 .3em;overflow-wrap:anywhere;min-width:0}
.who .line.score{justify-content:flex-end}
.meta{margin:.2em 0 0;font-size:.9em}
.intro{margin:.5em 0}
.question{margin-top:1em}
.question h2{display:flex;flex-wrap:wrap;align-items:baseline;gap:.1em .6em;border-bottom:var(--line) solid var(--rule);padding-bottom:.15em}
.question h2 .marks,.part h3 .marks{margin-left:auto;font-size:.8em;font-weight:normal;color:var(--muted)}
.part h3{display:flex;flex-wrap:wrap;align-items:baseline;gap:.1em .6em}
.givens,.part{break-inside:avoid}
col.lab{width:6.5em}
td.write{background:var(--write-in);height:max(11mm,2.4em)}
td.answer{color:var(--answer)}
code{font-family:"DejaVu Sans Mono","Liberation Mono",monospace;font-size:.92em}
.blank{display:inline-block;min-width:45mm;border-bottom:var(--line) solid var(--text);height:1.3em;vertical-align:bottom}
.working{break-inside:avoid;border:var(--line) dashed var(--rule);border-radius:4px;min-height:40mm;margin:.6em 0 .2em;padding:.3em .6em;background:var(--write-in)}
.working span{color:var(--muted);font-size:.85em}
.sheet-foot{margin-top:1.2em;padding-top:.4em;border-top:var(--line) solid var(--rule);font-size:.85em}
@page{margin:9mm 14mm 11mm 14mm}
@media print{.sheet{line-height:1.25}
.sheet .kind{font-size:.75em;float:right;margin:.45em 0 0 1em}
.sheet h1{font-size:1.3em;margin:0}
.who{margin:.2em 0 .1em;gap:.3em 1em}
.who div{min-width:9em}
.who div.name{flex:3 1 12em}
.who .line{min-height:1.4em}
.sheet-head{padding-bottom:.2em;margin-bottom:.3em}
.sheet .meta{font-size:.8em;margin:.1em 0 0}
.sheet .intro{margin:.2em 0;font-size:.8em}
.question{margin-top:.4em}
.question h2{margin:.4em 0 .15em;font-size:1.12em}
.part h3{margin:.3em 0 0;font-size:1em}
.sheet p{margin:.15em 0}
.part p,.prompt{font-size:.9em;line-height:1.2}
.sheet table{margin:.1em 0 .25em}
.sheet th,.sheet td{padding:.1em .4em;font-size:.92em}
.sheet td.write{height:max(8mm,2.1em)}
.working{min-height:max(18mm,4em);margin:.3em 0 .1em}}
)";
}

std::string sheet_page_css(const SheetDocument& doc, std::size_t position, const HtmlStyle& style) {
  // A named page per sheet, so each printed page's footer names its own
  // student even in a class pack (and a change of name forces a new page).
  return fmt::format(
      ".sheet:nth-of-type({0}){{page:sheet-{0}}}\n"
      "@page sheet-{0}{{@bottom-left{{content:{1};font-family:\"DejaVu Sans\",Arial,sans-serif;font-size:8pt;"
      "color:{2}}}}}\n",
      position, css_string(footer_text(doc)), palette(style.theme).muted.hex());
}

std::string sheet_article(const SheetDocument& doc, std::string_view name) {
  const bool key = doc.sheet == Sheet::key;
  std::string out = fmt::format("<article class=\"sheet {}\">\n<header class=\"sheet-head\">\n", key ? "key" : "worksheet");
  out += fmt::format("<p class=\"kind\">{}</p>\n<h1>{}</h1>\n", key ? "Answer key · for the teacher" : "Worksheet",
                     html_escape(doc.title));
  out += "<div class=\"who\">\n";
  out += fmt::format("<div class=\"name\"><span class=\"label\">Name</span><span class=\"line\">{}</span></div>\n",
                     html_escape(name));
  out += fmt::format("<div><span class=\"label\">Student ID</span><span class=\"line\">{}</span></div>\n",
                     html_escape(doc.student));
  out += key ? fmt::format("<div><span class=\"label\">Marks</span><span class=\"line\">{}</span></div>\n",
                           format_exact(doc.max_score))
             : fmt::format("<div><span class=\"label\">Score</span><span class=\"line score\">/ {}</span></div>\n",
                           format_exact(doc.max_score));
  out += "</div>\n";
  out += fmt::format("<p class=\"meta muted\">Variant {}{} · Rubric {} · {}</p>\n", html_escape(doc.variant),
                     doc.seed ? fmt::format(" · Seed {}", *doc.seed) : std::string(), html_escape(doc.rubric),
                     generator_version);
  if (!doc.check_url.empty())
    out += fmt::format("<p class=\"meta\">Check your answers at <b>{}</b> with your access code <b>{}</b></p>\n",
                       html_escape(doc.check_url), html_escape(doc.access_code));
  out += "</header>\n";
  out += key ? "<p class=\"intro\">Every worked step, rounded as the student is asked to round. Answers within "
               "rounding of these, or right for the student's own earlier answers, earn the marks.</p>\n"
             : "<p class=\"intro\">Fill in the empty boxes. Give each answer to the decimal places asked, and use "
               "the Working box for anything else you write down.</p>\n";
  out += questions_html(doc, nullptr);
  out += "<footer class=\"sheet-foot muted screen-only\">" + html_escape(footer_text(doc)) + "</footer>\n";
  return out + "</article>\n";
}

std::string sheet_html(const SheetDocument& doc, std::string_view name, const HtmlStyle& style) {
  const std::string title = fmt::format("{}: {}{}", doc.title, doc.sheet == Sheet::key ? "answer key" : "worksheet",
                                        doc.student.empty() ? "" : " · " + doc.student);
  return html_page(title, style, sheet_css() + sheet_page_css(doc, 1, style), sheet_article(doc, name));
}

ClassPageSheet class_page_sheet(const SheetDocument& doc, std::string_view name, std::size_t position,
                                const HtmlStyle& style) {
  ClassPageSheet out{sheet_page_css(doc, position, style), sheet_article(doc, name)};
  out.css.shrink_to_fit();  // kept until the whole class is done: no slack
  out.article.shrink_to_fit();
  return out;
}

std::string class_html(std::vector<ClassPageSheet> sheets, std::string_view title, const HtmlStyle& style) {
  std::string css = sheet_css(), body;
  std::size_t css_size = css.size(), body_size = 0;
  for (const ClassPageSheet& s : sheets) css_size += s.css.size(), body_size += s.article.size();
  css.reserve(css_size);
  body.reserve(body_size);
  for (ClassPageSheet& s : sheets) {
    css += s.css;
    body += s.article;
    s = ClassPageSheet{};  // (a class of 10,000 is tens of MB)
  }
  return html_page(title, style, css, body);
}

}  // namespace attnmark
