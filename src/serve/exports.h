// serve/exports.h: the teacher's downloads of a served class, made of the
// gradebook's rows (Classroom::gradebook: each roster student's attempt that
// counts, judged, in roster order): gradebook.csv, canvas.csv, moodle.csv
// and summary.html, as `mark` writes them.
//
//   const std::vector<GradedSubmission> rows = room.gradebook(store.all_attempts(), settings.score);
//   std::string csv = exported_gradebook(room, rows);
#pragma once

#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "serve/classroom.h"
#include "writers/theme.h"

namespace attnmark {

// gradebook.csv.
std::string exported_gradebook(const Classroom& room, const std::vector<GradedSubmission>& rows);

// The LMS a gradebook is imported into.
enum class Lms { canvas, moodle };
// canvas.csv or moodle.csv, each row with its roster student's other columns.
// REQUIRES: rows[i] is room.roster()[i]'s (as Classroom::gradebook returns them).
std::string exported_lms(const Classroom& room, const std::vector<GradedSubmission>& rows, Lms lms);

// summary.html.
std::string exported_summary(const Classroom& room, const std::vector<GradedSubmission>& rows, const HtmlStyle& style);

}  // namespace attnmark
