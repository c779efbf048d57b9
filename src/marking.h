// marking.h: marking a class (mark) and one student's self-check (check).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "attnmark/rubric.h"
#include "reports.h"

namespace attnmark {

// Where marking takes its seed from: --seed, else the rubric's, else each file's own.
struct SeedChoice {
  std::optional<std::uint64_t> given;  // --seed or the rubric's seed:
};

// Marks every input (answer files, folders of them, CSV sheets). Every file
// and sheet row comes back exactly once, with a status and a reason.
// Throws Error only for problems with the rubric itself.
std::vector<GradedSubmission> mark_inputs(const Rubric& rubric, const SeedChoice& seed,
                                          const std::vector<std::string>& inputs, std::ostream& err);

// Writes gradebook.csv, summary.md and feedback/<student>.{md,json} into
// `dir`. Refuses (Error) to replace an earlier run's reports unless `force`.
void write_reports(const Rubric& rubric, const std::vector<GradedSubmission>& rows, const std::string& dir,
                   bool force);

// A file name made from a student id: letters, digits, '-', '_' and '.',
// never hidden, at most 64 bytes; `taken` keeps names unique ("s1", "s1-2").
std::string safe_file_stem(const std::string& id, std::vector<std::string>& taken);

}  // namespace attnmark
