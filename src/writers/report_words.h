// writers/report_words.h: the words, symbols and styles that every report shares,
// defined once: the verdict symbols and their legend, scores as people read
// them, and the CSS of the HTML reports.
//
//   verdict_look(Verdict::carried).symbol == "✓*"
//   score_text(4.333333) == "4.33";  score_text(5) == "5"
#pragma once

#include <string>

#include "lesson/graded_submission.h"
#include "lesson/grader.h"

namespace attnmark {

// How a verdict is shown to people.
struct VerdictLook {
  const char* symbol;     // "✓*"
  const char* word;       // beside the symbol in a feedback page's cell: "right for your earlier answers"
  const char* explained;  // in the feedback legend: "right for your earlier answers (follow-through)"
  const char* terse;      // in the terminal's legend: "right for your earlier answers"
  const char* css;        // the HTML class of its cell: good, warn, bad, muted
};
const VerdictLook& verdict_look(Verdict verdict);

// Every verdict's symbol and meaning on one line, in the order of Verdict.
// explained: "✓ right · ✓* right for your earlier answers (follow-through) · ..."
// terse:     "✓ right  ✓* right for your earlier answers  ≈ too few decimals  ..."
enum class LegendStyle { explained, terse };
std::string verdict_legend(LegendStyle style);

// A score for people: at most 2 decimals, no trailing zeros ("4.33", "5").
std::string score_text(double score);

// The class attribute that colours a status in HTML reports: nothing for
// graded, ` class="bad"` for what could not be marked at all, else ` class="warn"`.
const char* status_class(SubmissionStatus status);

// The CSS that summary.html and the feedback pages add to the page's own.
std::string report_css();

}  // namespace attnmark
