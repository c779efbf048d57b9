#include "marking/judge.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <vector>

#include "attnmark/lesson/fingerprint.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

GradedSubmission judge(const Rubric& rubric, std::optional<std::uint64_t> seed, const Submission& s,
                       const std::string& superseded, std::optional<std::uint64_t>* own_key,
                       const Variant* made) {
  GradedSubmission g;
  g.source = s.source;
  g.student = s.student;
  g.name = s.name;
  g.variant = s.variant;
  if (!s.unreadable.empty()) {
    g.status = SubmissionStatus::unreadable;
    g.reason = s.unreadable;
    return g;
  }
  if (!superseded.empty()) {
    g.status = SubmissionStatus::duplicate;
    g.reason = superseded;
    return g;
  }
  if (!s.rubric.empty() && s.rubric != rubric.name) {
    g.status = SubmissionStatus::wrong_rubric;
    g.reason = fmt::format("answers are for rubric '{}', not '{}'", s.rubric, rubric.name);
    return g;
  }
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
  for (const std::string& n : s.notes) why.push_back(n);
  g.marked = grade(*marked_against, s);
  for (const std::string& n : g.marked->notes) why.push_back(n);
  g.status = status ? *status : g.marked->answered == 0 ? SubmissionStatus::unanswered : SubmissionStatus::graded;
  if (g.status == SubmissionStatus::unanswered) why.insert(why.begin(), "no answers given");
  g.reason = fmt::format("{}", fmt::join(why, "; "));
  return g;
}

}  // namespace attnmark
