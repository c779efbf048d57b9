// writers/latex_writer.h: worksheets, keys and class packs as LaTeX for pdflatex.
//
//   std::string tex = sheet_latex({{doc, "Ada Lovelace"}}, TextSize::normal);
//
// Only the standard classes and packages (article, geometry, array,
// tabularx) are used. Every piece of text is escaped; characters pdflatex
// cannot set without extra fonts become '?', so a roster in any script
// still compiles. The text block fits both A4 and US Letter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "writers/html_writer.h"
#include "writers/theme.h"

namespace attnmark {

// One or more sheets in one document, each starting on a new page with its
// own running footer and page numbers from 1.
std::string sheet_latex(const std::vector<NamedSheet>& sheets, TextSize size);

// Text for LaTeX's text mode: specials escaped (\ { } $ & # ^ _ % ~ < > |),
// the lesson's symbols (× ÷ · √ ᵀ ≈ − – —) as commands, Latin-1 letters as
// they are (pdflatex reads UTF-8), anything else as '?'.
std::string latex_escape(std::string_view text);

}  // namespace attnmark
