// LaTeX sheets (writers/latex_writer.h): any text made safe for pdflatex.
// The sheets themselves: golden_test.cpp; compiled by pdflatex: browser/print_test.cpp.
#include "support/test_support.h"

#include "writers/latex_writer.h"

using namespace attnmark;

TEST_CASE("latex_escape makes any text safe for pdflatex") {
  CHECK(latex_escape("50% of $5 & #1 {x} a_b ^ ~ \\") ==
        "50\\% of \\$5 \\& \\#1 \\{x\\} a\\_b \\textasciicircum{} \\textasciitilde{} \\textbackslash{}");
  CHECK(latex_escape("1×2 ÷ √4 ≈ Kᵀ · −1") ==
        "1\\ensuremath{\\times}2 \\ensuremath{\\div} \\ensuremath{\\surd}4 \\ensuremath{\\approx} "
        "K\\ensuremath{^{\\mathsf{T}}} \\ensuremath{\\cdot} \\ensuremath{-}1");
  CHECK(latex_escape("Zoë Łukasiewicz 李") == "Zoë Łukasiewicz ?");
  CHECK(latex_escape("--`a'<b>|") == "-{}-{}{`}a{'}\\textless{}b\\textgreater{}\\textbar{}");
  CHECK(latex_escape("\xff") == "?");
}

TEST_CASE("a LaTeX sheet shows a roster's id escaped, wherever the id is shown") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "\\input{/etc/passwd}$_%#");
  const std::string tex = sheet_latex({{sheet_document(rubric, v, Sheet::worksheet), "a}b"}}, TextSize::normal);
  CHECK(count(tex, "\\input{/etc") == 0);
  CHECK(count(tex, "\\textbackslash{}\\allowbreak{}i\\allowbreak{}n") == 2);  // the footer and the id box
  CHECK(count(tex, "a\\allowbreak{}\\}\\allowbreak{}b") == 1);
}
