#include "marking/judge.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>
#include <vector>

#include "attnmark/lesson/fingerprint.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

namespace {

// The statuses found before any variant is made: an unreadable file, an
// earlier submission of the student, another rubric's answers. True when
// `g` is then complete.
bool judged_before_marking(const Rubric& rubric, const Submission& s, const std::string& superseded,
                           GradedSubmission& g) {
  g.source = s.source;
  g.student = s.student;
  g.name = s.name;
  g.variant = s.variant;
  if (!s.unreadable.empty()) {
    g.status = SubmissionStatus::unreadable;
    g.reason = s.unreadable;
    return true;
  }
  if (!superseded.empty()) {
    g.status = SubmissionStatus::duplicate;
    g.reason = superseded;
    return true;
  }
  if (!s.rubric.empty() && s.rubric != rubric.name) {
    g.status = SubmissionStatus::wrong_rubric;
    g.reason = fmt::format("answers are for rubric '{}', not '{}'", s.rubric, rubric.name);
    return true;
  }
  return false;
}

// Marks `s` against `variant`, with `why` (so far) and `status` (when it is
// not graded or unanswered) into `g`.
void mark_against(const Variant& variant, const Submission& s, std::vector<std::string>& why,
                  std::optional<SubmissionStatus> status, GradedSubmission& g) {
  for (const std::string& n : s.notes) why.push_back(n);
  g.marked = grade(variant, s);
  for (const std::string& n : g.marked->notes) why.push_back(n);
  g.status = status ? *status : g.marked->answered == 0 ? SubmissionStatus::unanswered : SubmissionStatus::graded;
  if (g.status == SubmissionStatus::unanswered) why.insert(why.begin(), "no answers given");
  g.reason = fmt::format("{}", fmt::join(why, "; "));
}

}  // namespace

GradedSubmission judge(const Rubric& rubric, std::optional<std::uint64_t> seed, const Submission& s,
                       const std::string& superseded, std::optional<std::uint64_t>* own_key,
                       const Variant* made) {
  GradedSubmission g;
  if (judged_before_marking(rubric, s, superseded, g)) return g;
  const std::optional<std::uint64_t> marking_seed = seed ? seed : s.seed;
  if (!marking_seed) {
    g.status = SubmissionStatus::wrong_variant;
    g.reason = "no seed: the file records none and none was given (--seed)";
    return g;
  }
  const std::optional<std::uint64_t> recorded = parse_variant_id(s.variant);
  std::vector<std::string> why;
  std::optional<SubmissionStatus> status;  // when not graded or unanswered
  thread_local Variant made_here;  // its storage is reused, submission after submission
  const Variant* marked_against = &made_here;
  if (s.student.empty()) {
    status = SubmissionStatus::unknown_student;
    if (!recorded) {
      g.status = *status;
      g.reason = "no student id and no variant in the submission";
      return g;
    }
    why.push_back("no student id; marked against the variant recorded in the file");
    make_variant_into(rubric, *marking_seed, *recorded, s.student, made_here);
  } else {
    const std::uint64_t own = variant_id(*marking_seed, s.student);
    if (made && made->id == own && made->student == s.student) marked_against = made;
    else make_variant_into(rubric, *marking_seed, own, s.student, made_here);
    const Variant& variant = *marked_against;
    if (own_key) *own_key = key_fingerprint(variant);
    g.variant = variant.id_text();
    if (recorded && *recorded != variant.id) {
      status = SubmissionStatus::wrong_variant;
      why.push_back(fmt::format("the file is for variant {}, but {}'s variant (seed {}) is {}; marked against {}'s own",
                                s.variant, s.student, *marking_seed, variant.id_text(), s.student));
    }
  }
  if (seed && s.seed && *s.seed != *seed)
    why.push_back(fmt::format("the file records seed {}; marked with seed {}", *s.seed, *seed));
  mark_against(*marked_against, s, why, status, g);
  return g;
}

GradedSubmission judge_recorded_variant(const Rubric& rubric, const Submission& s) {
  GradedSubmission g;
  if (judged_before_marking(rubric, s, "", g)) return g;
  const std::optional<std::uint64_t> recorded = parse_variant_id(s.variant);
  if (!recorded) {
    g.status = SubmissionStatus::wrong_variant;
    g.reason = "no seed and no variant: the file records neither";
    return g;
  }
  std::vector<std::string> why;
  std::optional<SubmissionStatus> status;
  if (s.student.empty()) {
    status = SubmissionStatus::unknown_student;
    why.push_back("no student id; marked against the variant recorded in the file");
  } else {
    why.push_back(fmt::format("marked against the variant the file records, {}; it records no seed, so only the "
                              "class's page or the teacher can say whether that is {}'s own",
                              s.variant, s.student));
  }
  thread_local Variant made_here;
  // The numbers follow from the id alone; the seed is only recorded in the variant.
  make_variant_into(rubric, 0, *recorded, s.student, made_here);
  mark_against(made_here, s, why, status, g);
  return g;
}

}  // namespace attnmark
