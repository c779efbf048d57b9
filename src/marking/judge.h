// marking/judge.h: one submission judged against the rubric: its status, the
// reason, and its marks.
//
//   GradedSubmission g = judge(rubric, seed, submission, "");
//   g.status == SubmissionStatus::graded && g.marked->score == 10
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/submission.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

// Judges one submission. Pure and thread-safe. `seed` is the class's seed
// (--seed, or the rubric's), else the file's own is used. `superseded` says
// why another of the student's submissions counts instead ("superseded by
// answers/s01-v2.yaml (submitted 2026-12-01T10:02Z, later than this file's
// 2026-12-01T09:00Z)": Inputs::superseded_reason), or is empty when this one
// counts. Throws Error when the rubric's constraints cannot be met for the
// student's variant. When `own_key` is given and the submission was marked
// against its student's own variant, *own_key is set to that variant's
// key_fingerprint (lesson/fingerprint.h), at no second making of the variant.
// `made`, when given, is the student's own variant as the caller made it
// (make_variant(rubric, seed, student)); it is marked against instead of
// making the variant again when it is the one the submission is for.
GradedSubmission judge(const Rubric& rubric, std::optional<std::uint64_t> seed, const Submission& submission,
                       const std::string& superseded, std::optional<std::uint64_t>* own_key = nullptr,
                       const Variant* made = nullptr);

// Judges a submission against the variant its file records, as a self-check
// does when the file records a variant but no seed (a served class's
// worksheets and notebooks carry none): the numbers follow from the variant
// id alone, so this marks the student's own numbers without the class's
// seed, and the reason says what it was marked against. Whether that id is
// the student's own only the class's seed can tell. Statuses as judge's; a
// file with no variant id (parse_variant_id) is wrong-variant, not marked.
GradedSubmission judge_recorded_variant(const Rubric& rubric, const Submission& submission);

}  // namespace attnmark
