#include "writers/markdown_writer.h"

#include <fmt/format.h>

#include "base/text.h"

#include "attnmark/lesson/variant.h"

namespace attnmark {

namespace {

// An inline run in Markdown.
std::string markdown_inline(const Inline& text) {
  std::string out;
  for (const Span& s : text) {
    switch (s.style) {
      case Span::Style::plain: out += s.text; break;
      case Span::Style::strong: out += "**" + s.text + "**"; break;
      case Span::Style::code: out += "`" + s.text + "`"; break;
      case Span::Style::blank: out += "____________"; break;
    }
  }
  return out;
}

std::string markdown_table(const SheetTable& table) {
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
  std::string out = line(table.header);
  out += "|";
  for (std::size_t i = 0; i < table.header.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (const SheetCell& c : row) cells.push_back(markdown_inline(c.text));
    out += line(cells);
  }
  return out + "\n";
}

}  // namespace

std::string markdown_blocks(const std::vector<SheetBlock>& blocks) {
  std::string out;
  for (const SheetBlock& b : blocks) out += b.is_table ? markdown_table(b.table) : markdown_inline(b.text) + "\n\n";
  return out;
}

std::string markdown_text(std::string_view text) {
  std::string flat(text);
  for (char& c : flat)
    if (c == '\n' || c == '\r') c = ' ';
  std::string out;
  for (char c : printable(flat, std::string::npos)) {
    if (std::string_view("\\`*_[]<>|~&#").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_who(const SheetDocument& doc) {
  return fmt::format("{}Student: {} · Variant: {} · {}Rubric: {} · {}\n\n",
                     doc.name.empty() ? std::string() : "Name: " + markdown_text(doc.name) + " · ",
                     doc.student.empty() ? "(none)" : markdown_text(doc.student), doc.variant,
                     doc.seed ? fmt::format("Seed: {} · ", *doc.seed) : std::string(), doc.rubric, generator_version);
}

std::string render_markdown(const SheetDocument& doc) {
  std::string out = fmt::format("# {}: {}\n\n", doc.title, doc.sheet == Sheet::key ? "answer key" : "worksheet");
  out += markdown_who(doc);
  if (!doc.check_url.empty())
    out += fmt::format("Check your answers at {} with your access code **{}**.\n\n", markdown_text(doc.check_url),
                       markdown_text(doc.access_code));
  if (doc.sheet == Sheet::worksheet)
    out += "Give each answer to the decimal places asked. Fill in the blank cells, or the answer file "
           "from `attnmark template`.\n\n";
  for (const QuestionSection& q : doc.questions) {
    out += fmt::format("## Question {} ({}): {}\n\n", q.number, q.id, q.title);
    if (!q.prompt.empty()) out += q.prompt + "\n\n";
    out += markdown_blocks(q.givens);
    for (const PartSection& p : q.parts) {
      out += p.precision.empty() ? fmt::format("### {} ({})\n\n", p.title, p.marks)
                                 : fmt::format("### {} ({}; give {})\n\n", p.title, p.marks, p.precision);
      out += markdown_blocks(p.blocks);
    }
  }
  return out;
}

std::string render_markdown(const Rubric& rubric, const Variant& variant, Sheet sheet) {
  return render_markdown(sheet_document(rubric, variant, sheet));
}

}  // namespace attnmark
