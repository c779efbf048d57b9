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
