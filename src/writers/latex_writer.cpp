#include "writers/latex_writer.h"

#include <fmt/format.h>

#include "base/text.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {
namespace {

// The lesson's symbols and common punctuation, as LaTeX commands.
const char* symbol(std::uint32_t cp) {
  switch (cp) {
    case 0xa0: return "~";
    case 0xd7: return "\\ensuremath{\\times}";
    case 0xf7: return "\\ensuremath{\\div}";
    case 0xb7: return "\\ensuremath{\\cdot}";
    case 0x221a: return "\\ensuremath{\\surd}";
    case 0x1d40: return "\\ensuremath{^{\\mathsf{T}}}";
    case 0x2248: return "\\ensuremath{\\approx}";
    case 0x2212: return "\\ensuremath{-}";
    case 0x221e: return "\\ensuremath{\\infty}";
    case 0x2192: return "\\ensuremath{\\to}";
    case 0x2013: return "--";
    case 0x2014: return "---";
    case 0x2018: return "`";
    case 0x2019: return "'";
    case 0x201c: return "``";
    case 0x201d: return "''";
    case 0x2026: return "\\ldots{}";
    default: return nullptr;
  }
}

// Like latex_escape, with a break allowed after every character, for ids
// and addresses that may have no spaces but must fit a narrow box.
std::string breakable(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = std::max<std::size_t>(1, decode_utf8(text, i, cp));
    out += latex_escape(text.substr(i, n)) + "\\allowbreak{}";
    i += n;
  }
  return out;
}

// A roster's name for the name box: \fitname{...} (see sheet_latex) around
// the name's words, each latex_escape'd and as the roster has it, one space
// between them (so the .tex holds the name itself); empty for no name, as
// \fitname takes at least one word.
std::string name_tex(std::string_view name) {
  std::string words;
  std::size_t i = 0;
  auto space = [&](std::size_t at) { return name[at] == ' ' || name[at] == '\t' || name[at] == '\n' || name[at] == '\r'; };
  while (i < name.size()) {
    while (i < name.size() && space(i)) ++i;
    const std::size_t start = i;
    while (i < name.size() && !space(i)) ++i;
    if (i > start) words += (words.empty() ? "" : " ") + latex_escape(name.substr(start, i - start));
  }
  return words.empty() ? std::string() : "\\fitname{" + words + "}";
}

std::string inline_tex(const Inline& text) {
  std::string out;
  for (const Span& s : text) {
    switch (s.style) {
      case Span::Style::plain: out += latex_escape(s.text); break;
      case Span::Style::strong: out += "\\textbf{" + latex_escape(s.text) + "}"; break;
      case Span::Style::code: out += "\\texttt{" + latex_escape(s.text) + "}"; break;
      case Span::Style::blank: out += "\\underline{\\hspace{45mm}}"; break;
    }
  }
  return out;
}

std::string table_tex(const SheetTable& t) {
  std::string out = "\\begin{tabularx}{\\linewidth}{|l|";
  for (std::size_t i = 1; i < t.header.size(); ++i) out += "Y|";
  out += "}\\hline\n";
  for (std::size_t i = 0; i < t.header.size(); ++i) out += (i ? " & \\textbf{" : "\\textbf{") + latex_escape(t.header[i]) + "}";
  out += " \\\\\\hline\n";
  for (const auto& row : t.rows) {
    bool write = false;
    for (const SheetCell& c : row) write = write || c.kind == SheetCell::Kind::write_in;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) out += " & ";
      if (i == 0 && write) out += "\\writein{}";  // room for handwriting in the whole row
      const SheetCell& c = row[i];
      if (c.kind == SheetCell::Kind::given || c.kind == SheetCell::Kind::answer) out += inline_tex(c.text);
    }
    out += " \\\\\\hline\n";
  }
  return out + "\\end{tabularx}\n\n";
}

std::string blocks_tex(const std::vector<SheetBlock>& blocks) {
  std::string out;
  for (const SheetBlock& b : blocks) out += b.is_table ? table_tex(b.table) : inline_tex(b.text) + "\n\n";
  return out;
}

std::string sheet_tex(const SheetDocument& doc) {
  const bool key = doc.sheet == Sheet::key;
  std::string out = "\\clearpage\\setcounter{page}{1}\n";
  out += fmt::format("\\renewcommand{{\\sheetfooter}}{{{} \\ensuremath{{\\cdot}} {} \\ensuremath{{\\cdot}} {} "
                     "\\ensuremath{{\\cdot}} variant {}{}}}\n",
                     latex_escape(doc.title), key ? "answer key" : "worksheet",
                     doc.student.empty() ? std::string("no student id") : "student " + breakable(doc.student),
                     doc.variant, doc.seed ? fmt::format(" \\ensuremath{{\\cdot}} seed {}", *doc.seed) : std::string());
  out += fmt::format("{{\\small\\bfseries {}}}\\par\n{{\\titlesize\\bfseries\\raggedright {}\\par}}\\medskip\n",
                     key ? "ANSWER KEY \\ensuremath{\\cdot} FOR THE TEACHER" : "WORKSHEET", latex_escape(doc.title));
  out += "\\noindent\\begin{tabularx}{\\linewidth}{@{}>{\\bfseries}l>{\\hsize=1.4\\hsize}X>{\\bfseries}l>{\\hsize=.6\\hsize}X>{\\bfseries}lp{18mm}@{}}\n";
  out += fmt::format("Name & {} & Student ID & {} & Score & \\hfill / {} \\\\\\cline{{2-2}}\\cline{{4-4}}\\cline{{6-6}}\n",
                     name_tex(doc.name), breakable(doc.student), format_exact(doc.max_score));
  out += "\\end{tabularx}\n\n";
  out += fmt::format("{{\\small Variant {}{} \\ensuremath{{\\cdot}} Rubric {} \\ensuremath{{\\cdot}} {}}}\n\n",
                     doc.variant, doc.seed ? fmt::format(" \\ensuremath{{\\cdot}} Seed {}", *doc.seed) : std::string(),
                     latex_escape(doc.rubric), generator_version);
  if (!doc.check_url.empty())
    out += fmt::format("{{\\small Check your answers at \\textbf{{{}}} with your access code \\textbf{{{}}}}}\n\n",
                       breakable(doc.check_url), latex_escape(doc.access_code));
  out += key ? "Every worked step, rounded as the student is asked to round.\n\n"
             : "Fill in the empty boxes. Give each answer to the decimal places asked, and use the Working box for "
               "anything else you write down.\n\n";
  for (const QuestionSection& q : doc.questions) {
    // The heading stays with what is given, so it is never left at the foot of a page.
    out += "\\begin{keep}\n";
    out += fmt::format("\\questionhead{{Question {}: {}}}{{{} \\ensuremath{{\\cdot}} {} mark{}}}\n", q.number,
                       latex_escape(q.title), latex_escape(q.id), format_exact(q.marks), q.marks == 1 ? "" : "s");
    if (!q.prompt.empty()) out += latex_escape(q.prompt) + "\n\n";
    out += blocks_tex(q.givens) + "\\end{keep}\n";
    for (const PartSection& p : q.parts) {
      out += "\\begin{keep}\n";
      out += fmt::format("\\parthead{{{}}}{{{}{}}}\n", latex_escape(p.title), latex_escape(p.marks),
                         p.precision.empty() ? "" : " \\ensuremath{\\cdot} give " + latex_escape(p.precision));
      out += blocks_tex(p.blocks) + "\\end{keep}\n";
    }
    if (!key) out += "\\working\n";
  }
  return out;
}

}  // namespace

std::string latex_escape(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = decode_utf8(text, i, cp);
    if (n == 0) {
      out += '?';
      ++i;
      continue;
    }
    i += n;
    if (const char* s = symbol(cp)) {
      out += s;
      continue;
    }
    if (n > 1) {
      // C1 controls are never text; every other letter is written as it is,
      // for the engine to set (see sheet_latex).
      if (cp < 0xa0) out += '?';
      else out.append(text.substr(i - n, n));
      continue;
    }
    const char c = static_cast<char>(cp);
    switch (c) {
      case '\\': out += "\\textbackslash{}"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '$': out += "\\$"; break;
      case '&': out += "\\&"; break;
      case '#': out += "\\#"; break;
      case '_': out += "\\_"; break;
      case '%': out += "\\%"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '<': out += "\\textless{}"; break;
      case '>': out += "\\textgreater{}"; break;
      case '|': out += "\\textbar{}"; break;
      case '"': out += "''"; break;
      // Each alone, so no -- --- `` ?` ligature forms from a student's text.
      case '-': out += "-{}"; break;
      case '`': out += "{`}"; break;
      case '\'': out += "{'}"; break;
      case '\t': case '\n': case '\r': out += ' '; break;
      default:
        if (cp < 0x20 || cp == 0x7f) out += '?';
        else out += c;
    }
    // Braces keep pdflatex from joining two characters into a ligature, but
    // not LuaLaTeX or XeLaTeX: an italic correction (no space after an
    // upright letter) keeps all three from it.
    if (i < text.size() && std::string_view("-`',!?").find(c) != std::string_view::npos &&
        std::string_view("-`',").find(text[i]) != std::string_view::npos)
      out += "\\/";
  }
  return out;
}

std::string sheet_latex(const std::vector<SheetDocument>& sheets, TextSize size) {
  const char* body = size == TextSize::normal ? "\\normalsize" : size == TextSize::large ? "\\large" : "\\Large";
  const char* head = size == TextSize::normal ? "\\large" : size == TextSize::large ? "\\Large" : "\\LARGE";
  const char* title = size == TextSize::normal ? "\\LARGE" : size == TextSize::large ? "\\huge" : "\\Huge";
  std::string out = fmt::format("% Written by attnmark ({}). Compile with: lualatex FILE.tex (or xelatex);\n"
                                "% pdflatex sets Latin letters only, and prints any other letter as ?.\n",
                                generator_version);
  out += fmt::format("\\documentclass[{}]{{article}}\n", size == TextSize::normal ? "11pt" : "12pt");
  out += R"(\usepackage{iftex}
\ifPDFTeX
% pdflatex: UTF-8 input, Latin letters in T1 (Latin Modern); a letter no
% loaded encoding has (Vietnamese, Greek, Cyrillic...) prints as ? rather
% than stopping the run.
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\makeatletter
\def\UTFviii@undefined@err#1{?}
\makeatother
\else
% LuaLaTeX or XeLaTeX: OpenType fonts, so a name in any script DejaVu covers
% (Latin with Vietnamese, Greek, Cyrillic...) is set as it is.
\usepackage{fontspec}
\IfFontExistsTF{DejaVu Serif}{\setmainfont{DejaVu Serif}}{}
\IfFontExistsTF{DejaVu Sans Mono}{\setmonofont{DejaVu Sans Mono}[Scale=MatchLowercase]}{}
\fi
% The 170 x 235 mm text block fits A4 and US Letter alike: for Letter paper,
% change a4paper to letterpaper and nothing else.
\usepackage[a4paper,textwidth=170mm,textheight=235mm,footskip=10mm]{geometry}
\usepackage{array,tabularx,graphicx}
\setlength{\parindent}{0pt}
\setlength{\parskip}{4pt}
\renewcommand{\arraystretch}{1.4}
\newcolumntype{Y}{>{\raggedright\arraybackslash}X}
\newcommand{\writein}{\rule{0pt}{10mm}}
% The name box: the words of a name, lines broken between them; a word wider
% than the box alone (a long name at a large text size) is shrunk to fit it.
\makeatletter
\newcommand{\fitname}[1]{\raggedright\arraybackslash\fit@words#1 \@nil}
\def\fit@words#1 #2\@nil{\fitword{#1}\if\relax\detokenize{#2}\relax\expandafter\@gobble\else
  \expandafter\@firstofone\fi{ \fit@words#2\@nil}}
\newsavebox{\fitbox}
\newcommand{\fitword}[1]{\sbox{\fitbox}{#1}\ifdim\wd\fitbox>\linewidth\resizebox{\linewidth}{!}{\usebox{\fitbox}}\else
  \usebox{\fitbox}\fi}
\makeatother
\newcommand{\sheetfooter}{}
\makeatletter
\def\ps@sheet{\def\@oddhead{}\let\@evenhead\@oddhead
  \def\@oddfoot{\parbox[t]{\dimexpr\textwidth-16mm}{\raggedright\footnotesize\sheetfooter}\hfill\footnotesize page \thepage}%
  \let\@evenfoot\@oddfoot}
\makeatother
\pagestyle{sheet}
% A part (its heading and table) never splits across pages.
\newenvironment{keep}{\par\noindent\begin{minipage}{\linewidth}\setlength{\parskip}{4pt}}{\end{minipage}\par\medskip}
\newcommand{\working}{\par\noindent\fbox{\parbox[t][38mm][t]{\dimexpr\linewidth-2\fboxsep-2\fboxrule}{\footnotesize Working}}\par}
)";
  out += fmt::format("\\newcommand{{\\titlesize}}{{{}}}\n", title);
  out += fmt::format("\\newcommand{{\\questionhead}}[2]{{\\par\\bigskip{{{}\\bfseries #1}}\\hfill{{\\small #2}}\\par\\nopagebreak\\hrule\\nopagebreak\\smallskip}}\n", head);
  out += "\\newcommand{\\parthead}[2]{{\\bfseries #1}\\hfill{\\small #2}\\par}\n";
  out += fmt::format("\\begin{{document}}\n{}\n", body);
  for (const SheetDocument& doc : sheets) out += sheet_tex(doc);
  return out + "\\end{document}\n";
}

}  // namespace attnmark
