// writers/latex_writer.h: worksheets, keys and class packs as LaTeX.
//
//   SheetDocument doc = sheet_document(rubric, variant, Sheet::worksheet, "Nguyễn Thị Ánh");
//   std::string tex = sheet_latex({doc}, TextSize::normal);
//
// Written for LuaLaTeX (or XeLaTeX): with fontspec and DejaVu (Debian's
// fonts-dejavu-core), a roster's name in Latin with any accents (Vietnamese
// too), Greek or Cyrillic is set as it is. The same file compiles with
// pdflatex (\ifPDFTeX: T1 and Latin Modern), which sets Latin letters and
// prints any letter it has no font for as '?', so a roster in any script
// still compiles. Only the standard classes and packages (article,
// geometry, array, tabularx; fontspec, or inputenc, fontenc and lmodern)
// are used, and every piece of text is escaped. The text block fits both
// A4 and US Letter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "writers/sheet_document.h"
#include "writers/theme.h"

namespace attnmark {

// One or more sheets in one document, each starting on a new page with its
// own running footer and page numbers from 1; each sheet's name box holds
// its SheetDocument::name.
std::string sheet_latex(const std::vector<SheetDocument>& sheets, TextSize size);

// Text for LaTeX's text mode: specials escaped (\ { } $ & # ^ _ % ~ < > |),
// the lesson's symbols (× ÷ · √ ᵀ ≈ − – —) as commands, every other letter
// as it is (UTF-8, for the engine to set), and what is not text (control
// characters, bytes that are not UTF-8) as '?'.
//   latex_escape("Nguyễn & Σ_1") == "Nguyễn \\& Σ\\_1"
std::string latex_escape(std::string_view text);

}  // namespace attnmark
