// LaTeX sheets (writers/latex_writer.h): any text made safe for LaTeX, and
// set as it is. The sheets themselves: golden_test.cpp; compiled by
// lualatex and pdflatex: browser/print_test.cpp.
#include "support/test_support.h"

#include "writers/latex_writer.h"

using namespace attnmark;

TEST_CASE("latex_escape makes any text safe for LaTeX and keeps every letter as it is") {
  CHECK(latex_escape("50% of $5 & #1 {x} a_b ^ ~ \\") ==
        "50\\% of \\$5 \\& \\#1 \\{x\\} a\\_b \\textasciicircum{} \\textasciitilde{} \\textbackslash{}");
  CHECK(latex_escape("1×2 ÷ √4 ≈ Kᵀ · −1") ==
        "1\\ensuremath{\\times}2 \\ensuremath{\\div} \\ensuremath{\\surd}4 \\ensuremath{\\approx} "
        "K\\ensuremath{^{\\mathsf{T}}} \\ensuremath{\\cdot} \\ensuremath{-}1");
  CHECK(latex_escape("Zoë Łukasiewicz 李") == "Zoë Łukasiewicz 李");
  CHECK(latex_escape("Nguyễn Thị Ánh") == "Nguyễn Thị Ánh");
  CHECK(latex_escape("Σωκράτης Фёдор_1") == "Σωκράτης Фёдор\\_1");
  CHECK(latex_escape("a\xC2\x85" "b\x07") == "a?b?");  // C1 and C0 controls are not text
  CHECK(latex_escape("--`a'<b>|") == "-{}\\/-{}\\/{`}a{'}\\textless{}b\\textgreater{}\\textbar{}");
  CHECK(latex_escape("a-b ?`x ,,y ''z") == "a-{}b ?\\/{`}x ,\\/,y {'}\\/{'}z");
  CHECK(latex_escape("\xff") == "?");
}

TEST_CASE("a LaTeX sheet shows a roster's id escaped, wherever the id is shown") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "\\input{/etc/passwd}$_%#");
  const std::string tex = sheet_latex({sheet_document(rubric, v, Sheet::worksheet, "a}b $x")}, TextSize::normal);
  CHECK(count(tex, "\\input{/etc") == 0);
  CHECK(count(tex, "\\textbackslash{}\\allowbreak{}i\\allowbreak{}n") == 2);  // the footer and the id box
  CHECK(count(tex, "Name & \\fitname{a\\}b \\$x} & Student ID") == 1);
}

TEST_CASE("a LaTeX sheet sets a roster's name in any script as it is, in the name box") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  for (const char* name : {"Nguyễn Thị Ánh", "Σωκράτης Παπαδόπουλος", "Фёдор Достоевский"}) {
    for (const Sheet sheet : {Sheet::worksheet, Sheet::key}) {
      const std::string tex = sheet_latex({sheet_document(rubric, v, sheet, name)}, TextSize::x_large);
      INFO(name);
      CHECK(count(tex, std::string("Name & \\fitname{") + name + "} & Student ID & s\\allowbreak{}0") == 1);
      CHECK(count(tex, "?") == count(sheet_latex({sheet_document(rubric, v, sheet)}, TextSize::x_large), "?"));  // no letter lost
    }
  }
  // The engine: fontspec (DejaVu) under LuaLaTeX or XeLaTeX, T1 under pdflatex.
  const std::string tex = sheet_latex({sheet_document(rubric, v, Sheet::worksheet, "Nguyễn Thị Ánh")}, TextSize::normal);
  CHECK(tex.starts_with("% Written by attnmark (" + std::string(generator_version) + "). Compile with: lualatex FILE.tex"));
  CHECK(count(tex, "\\usepackage{iftex}\n\\ifPDFTeX\n") == 1);
  CHECK(count(tex, "\\usepackage{fontspec}\n\\IfFontExistsTF{DejaVu Serif}{\\setmainfont{DejaVu Serif}}{}\n") == 1);
  CHECK(count(tex, "\\usepackage[T1]{fontenc}\n") == 1);
  // Words as they are, one space apart; a word too wide for the box is
  // shrunk by \fitword in TeX, never cut in the .tex.
  const std::string long_word = "Константинопольская-Дарданелльская";
  const std::string spaced = sheet_latex({sheet_document(rubric, v, Sheet::worksheet, "  Анна \t " + long_word + " ")}, TextSize::normal);
  CHECK(count(spaced, "Name & \\fitname{Анна " + latex_escape(long_word) + "} & Student ID") == 1);
  CHECK(count(spaced, "\\newcommand{\\fitword}[1]{\\sbox{\\fitbox}{#1}\\ifdim\\wd\\fitbox>\\linewidth\\resizebox{\\linewidth}{!}") == 1);
}

TEST_CASE("a LaTeX class pack names each student in their own name box") {
  const Rubric rubric = shipped("lesson");
  const std::string tex = sheet_latex({sheet_document(rubric, make_variant(rubric, 2026, "a"), Sheet::worksheet, "Ánh"),
                                       sheet_document(rubric, make_variant(rubric, 2026, "b"), Sheet::worksheet, "Σοφία"),
                                       sheet_document(rubric, make_variant(rubric, 2026, "c"), Sheet::worksheet)},
                                      TextSize::normal);
  CHECK(count(tex, "Name & \\fitname{Ánh} & Student ID & a\\allowbreak{} & ") == 1);
  CHECK(count(tex, "Name & \\fitname{Σοφία} & Student ID & b\\allowbreak{} & ") == 1);
  CHECK(count(tex, "Name &  & Student ID & c\\allowbreak{} & ") == 1);  // a line to write the name on
  CHECK(tex.find("Ánh") < tex.find("Σοφία"));
}
