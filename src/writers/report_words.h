// writers/report_words.h: the words, symbols and styles that every report shares,
// defined once: the verdict symbols and their legend, scores as people read
// them, and the CSS of the HTML reports.
//
//   verdict_look(Verdict::carried).symbol == "✓*"
//   score_text(4.333333) == "4.33";  score_text(5) == "5"
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/grader.h"

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
// The same, appended to out (for the feedback JSON, written per student).
void append_score_text(std::string& out, double score);

// How much of a submission's notes a report holds, so reports stay
// proportional to the class, not to the junk a file holds. A spreadsheet
// cell holds at most 32,767 characters.
constexpr std::size_t max_reason_cell_bytes = 4000;  // the gradebook's reason cell
constexpr std::size_t max_reason_bytes = 16000;      // a feedback file's reason
constexpr std::size_t max_notes_shown = 100;         // a feedback file's list of notes

// A reason (notes joined by "; ") made one printable line (printable) and
// cut to at most max_bytes: at the end of a note when one ends in the second
// half, else at a character, then " … (and N more notes)". N counts the
// "; " after the cut, so a note that itself holds "; " counts twice.
std::string bounded_reason(std::string_view reason, std::size_t max_bytes);

// The notes a feedback file lists: the first max_notes_shown of `notes`,
// then "and N more notes" when there are more.
std::vector<std::string> shown_notes(const std::vector<std::string>& notes);

// The class attribute that colours a status in HTML reports: nothing for
// graded, ` class="bad"` for what could not be marked at all, else ` class="warn"`.
const char* status_class(SubmissionStatus status);

// The CSS that summary.html and the feedback pages add to the page's own.
std::string report_css();

}  // namespace attnmark
