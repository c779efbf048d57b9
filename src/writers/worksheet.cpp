#include "writers/worksheet.h"

#include "writers/sheet_document.h"

namespace attnmark {

// The Markdown is one rendering of the sheet document, as the HTML and LaTeX
// are, so the three can never say different things.
std::string render_markdown(const Rubric& rubric, const Variant& variant, Sheet sheet) {
  return sheet_markdown(sheet_document(rubric, variant, sheet));
}

}  // namespace attnmark
