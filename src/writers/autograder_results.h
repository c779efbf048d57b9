// writers/autograder_results.h: one submission's marks as the results.json
// of an autograder: Gradescope's (gradescope/autograder_samples,
// docs/specs.md) and PrairieLearn's external grader (PrairieLearn,
// docs/externalGrading.md). docs/autograders.md shows both.
//
//   std::string json = gradescope_results(rubric, graded, notes);
//   write_file("/autograder/results/results.json", json);
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"

namespace attnmark {

// PrairieLearn reads at most 1 MB of results.json; both writers keep to it
// by cutting the long texts (the output first, then the tests' messages).
constexpr std::size_t max_results_bytes = 1'000'000;

// What the student reads above the marks: `notes` (which file was marked,
// whose id; one line each), then the table and hints as `attnmark check`
// prints them, without answers; for a submission that was not marked, why
// and "Not marked: ... Score 0 / 15."
std::string autograder_output(const Rubric& rubric, const GradedSubmission& graded,
                              const std::vector<std::string>& notes);

// One asked part as the student sees it in a test: a line of marks per row
// ("✓ ✓ ≈", or "is: ✓ ✓ ✓" for a row of a matrix), then "hint: ..." lines.
// REQUIRES: graded.marked.
std::string part_output(const QuestionResult& question, const PartResult& part);

// Gradescope's results.json, indented, ending in a newline:
// score (rounded to 2 decimals, as the gradebook shows it), output,
// output_format "text", visibility "visible", extra_data (student, variant,
// status), and tests[]: one per asked part, in the rubric's order, with name
// ("q1 weights"), number ("1.2"), score, max_score, status ("passed" when
// full marks, else "failed") and output (part_output). A submission that
// was not marked scores 0 and every test fails.
std::string gradescope_results(const Rubric& rubric, const GradedSubmission& graded,
                               const std::vector<std::string>& notes);

// PrairieLearn's results.json, indented, ending in a newline. Marked:
// gradable true, score (the marks over the maximum, 0 to 1), message
// ("13.67 / 15"), output (autograder_output), tests[] with name, points,
// max_points and message (the part's hints, one a line). Not marked:
// gradable false, format_errors [the reason], message, output.
std::string prairielearn_results(const Rubric& rubric, const GradedSubmission& graded,
                                 const std::vector<std::string>& notes);

}  // namespace attnmark
