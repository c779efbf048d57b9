#include "marking/mark_class.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "base/threads.h"
#include "attnmark/lesson/fingerprint.h"
#include "attnmark/lesson/variant.h"
#include "marking/class_roster.h"
#include "marking/inputs.h"
#include "marking/judge.h"
#include "marking/summary.h"

namespace attnmark {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t chunk_size = 256;  // submissions in a chunk

// Answers copied from a classmate, found in one pass over the class. While
// judging, each counted submission leaves the fingerprint of its student's
// key and, when it lost marks, of its answers; once all are judged, answers
// equal to another student's key are flagged (fits-variant-of). Used only
// when the class has one seed (--seed or the rubric's).
class ClassCopies {
 public:
  ClassCopies(const Rubric& rubric, std::uint64_t seed, const Inputs& in)
      : rubric_(rubric), seed_(seed), in_(in), wanted_(!same_for_everyone(rubric)) {
    if (wanted_) {
      key_.resize(in.submissions.size());
      answer_.resize(in.submissions.size());
    }
  }

  // Whether judge should give each student's key fingerprint: not for a
  // rubric with the same numbers for all (the lesson's own), where there is
  // no one to copy from.
  bool wanted() const { return wanted_; }

  // Records counted submission k, judged as g from s, `own_key` its
  // student's key as judge gave it; names the student whose variant a
  // wrong-variant file is for. Thread-safe for distinct k.
  void judged(std::size_t k, const Submission& s, GradedSubmission& g, const std::optional<std::uint64_t>& own_key) {
    if (g.status == SubmissionStatus::wrong_variant)
      if (const std::optional<std::uint64_t> id = parse_variant_id(s.variant); id) {
        // Whose variant each is: made once, when a class has a wrong-variant file at all.
        std::call_once(owners_made_, [&] {
          owner_.reserve(in_.submissions.size());
          for (std::size_t j = 0; j < in_.submissions.size(); ++j)
            if (in_.superseding[j] == Inputs::counts && !in_.students[j].empty())
              owner_.emplace(variant_id(seed_, in_.students[j]), in_.students[j]);
        });
        if (auto owner = owner_.find(*id); owner != owner_.end() && owner->second != g.student)
          g.reason += fmt::format("; {} is {}'s variant", s.variant, printable(owner->second, 60));
      }
    // The student the submission counts for (the file's own id, or the one
    // its folder or name gives when the file cannot be read).
    const std::string& student = in_.students[k];
    if (!wanted_ || student.empty()) return;
    key_[k] = student == g.student ? own_key : std::nullopt;
    if (!key_[k]) {  // not marked (an unreadable file, say): the student's key is still one to copy from
      thread_local Variant variant;  // its storage is reused, student after student
      try {
        make_variant_into(rubric_, seed_, variant_id(seed_, student), student, variant);
        key_[k] = key_fingerprint(variant);
      } catch (const Error&) {
        // A variant that cannot be made: the submission's own row says so.
      }
    }
    if (g.marked && !g.student.empty() && g.marked->score < g.marked->max_score - 1e-9)
      answer_[k] = answer_fingerprint(rubric_, *g.marked);
  }

  // The flag of each submission ("fits-variant-of:s01", or empty).
  // REQUIRES: every counted submission was judged().
  std::vector<std::string> flags() const {
    std::vector<std::string> out(in_.submissions.size());
    if (!wanted_) return out;
    constexpr std::size_t shared = static_cast<std::size_t>(-1);
    std::unordered_map<std::uint64_t, std::size_t> key_of;  // fingerprint → its submission, or `shared`
    key_of.reserve(key_.size());
    for (std::size_t k = 0; k < key_.size(); ++k) {
      if (!key_[k]) continue;
      const auto [it, fresh] = key_of.emplace(*key_[k], k);
      if (!fresh && it->second != shared && in_.students[it->second] != in_.students[k])
        it->second = shared;  // two students' keys alike: neither is a copy's source
    }
    for (std::size_t k = 0; k < answer_.size(); ++k) {
      if (!answer_[k]) continue;
      const auto it = key_of.find(*answer_[k]);
      if (it == key_of.end() || it->second == shared || in_.students[it->second] == in_.students[k]) continue;
      out[k] = "fits-variant-of:" + in_.students[it->second];
    }
    return out;
  }

 private:
  const Rubric& rubric_;
  std::uint64_t seed_;
  const Inputs& in_;
  bool wanted_;
  std::once_flag owners_made_;
  std::unordered_map<std::uint64_t, std::string> owner_;  // variant id → its student (made on first need)
  std::vector<std::optional<std::uint64_t>> key_, answer_;  // per submission
};

// Whom a submission counts as (docs/marking.md, "Who a submission is"): a
// roster id as given; else the student whose identity columns hold the id
// (a form that asks for the email); else the one an identity cell of the row
// names (a blank or unknown id beside a roster email); else, with --near-ids
// match, the roster id it nearly is. Otherwise the id stands, or, when blank,
// the row's first identity cell does (so the row says whose it is).
CountsAs roster_student(const ClassRoster& roster, bool match_near_ids, const std::string& id,
                        const std::vector<std::string>& others) {
  const std::vector<RosterEntry>& students = roster.students();
  if (!id.empty()) {
    if (roster.find(id) != ClassRoster::npos) return {};
    if (const std::size_t at = roster.identify(id); at != ClassRoster::npos) return {students[at].student, ""};
  }
  for (const std::string& other : others)
    if (const std::size_t at = roster.identify(other); at != ClassRoster::npos)
      return {students[at].student,
              fmt::format("{}; {} is the roster's {}",
                          id.empty() ? std::string("no student id")
                                     : fmt::format("student {} is not on the roster", quoted_printable(id)),
                          quoted_printable(other), quoted_printable(students[at].student))};
  if (match_near_ids && !id.empty())
    if (std::string near = roster.near(id); !near.empty())
      return {near, fmt::format("the file says student {}; marked as the roster's {} (--near-ids match)",
                                quoted_printable(id), quoted_printable(near))};
  if (id.empty())
    for (const std::string& other : others)
      if (!other.empty()) return {other, ""};
  return {};
}

// What the roster says of a judged submission that counts: its name, or
// that its id is not on the roster (and the id it most likely meant).
void apply_roster(const ClassRoster& roster, GradedSubmission& g) {
  if (g.student.empty()) return;
  if (const std::size_t at = roster.find(g.student); at != ClassRoster::npos) {
    if (!roster.students()[at].name.empty()) g.name = roster.students()[at].name;
    return;
  }
  // Its variant was made from an id no worksheet was made for: a score
  // against it would be a mark for a sheet nobody was given.
  g.marked.reset();
  const std::string near = roster.near(g.student);
  std::string reason = "not on the roster, so not marked";
  if (!near.empty())
    reason += fmt::format("; did you mean {}? (--near-ids match marks it as {})", quoted_printable(near),
                          quoted_printable(near));
  g.status = SubmissionStatus::not_on_roster;
  g.reason = g.reason.empty() ? reason : reason + "; " + g.reason;
}

// Judges chunk c of the inputs' submissions into `chunk`; `stems` names
// each submission's feedback files (feedback files).
void judge_chunk(const Rubric& rubric, const MarkSettings& settings, const ClassRoster* roster, ClassCopies* copies,
                 const std::vector<std::string>& stems, Inputs& in, std::size_t c, ReportChunk& chunk) {
  const std::size_t first = c * chunk_size, end = std::min(in.submissions.size(), first + chunk_size);
  chunk.begin(rubric, settings, first, end - first);
  thread_local Submission s;  // its storage is reused, row after row of a sheet
  for (std::size_t i = first; i < end; ++i) {
    in.take(i, s);
    const bool counts = in.superseding[i] == Inputs::counts;
    GradedSubmission graded;
    std::optional<std::uint64_t> own_key;
    try {
      graded = judge(rubric, settings.seed, s, in.superseded_reason(i), copies && copies->wanted() ? &own_key : nullptr);
    } catch (const Error& e) {
      // A variant the file asks for that cannot be made: that student's
      // problem, not the class's.
      graded = GradedSubmission{};
      graded.source = s.source;
      graded.student = s.student;
      graded.variant = s.variant;
      graded.status = SubmissionStatus::unreadable;
      graded.reason = "cannot make the variant this file is for: " + e.message();
    }
    if (roster && counts) apply_roster(*roster, graded);
    if (copies && counts) copies->judged(i, s, graded, own_key);
    chunk.add(graded, counts);
  }
  chunk.end(stems);
}

// The name of each submission's feedback files (report_set.h's feedback_stems).
std::vector<std::string> feedback_stems(const Inputs& in) {
  std::vector<StemSource> sources(in.submissions.size());
  for (std::size_t k = 0; k < sources.size(); ++k)
    sources[k] = {in.students[k], in.superseding[k] == Inputs::counts,
                  in.students[k].empty() ? fs::path(in.files[in.submissions[k].file]).filename().string() : std::string()};
  return feedback_stems(sources);
}

// With a roster, the order of the gradebook (RosterOrder), each part in input order.
RosterOrder roster_order(const ClassRoster& roster, const Inputs& in) {
  RosterOrder order;
  order.of_student.assign(roster.students().size(), RosterOrder::none);
  std::vector<std::size_t> without_id;
  for (std::size_t k = 0; k < in.submissions.size(); ++k) {
    if (in.superseding[k] != Inputs::counts) continue;
    if (in.students[k].empty()) {
      without_id.push_back(k);
    } else if (const std::size_t at = roster.find(in.students[k]); at != ClassRoster::npos) {
      order.of_student[at] = k;
    } else {
      order.others.push_back(k);
    }
  }
  order.others.insert(order.others.end(), without_id.begin(), without_id.end());
  return order;
}

// Says on `err` what the inputs hold that was not marked: the first few
// notices, then how many more (all of them are in the summaries).
void report_notices(const std::vector<InputNotice>& notices, std::ostream& err) {
  constexpr std::size_t shown = 20;
  for (std::size_t i = 0; i < std::min(notices.size(), shown); ++i) err << "attnmark: " << notices[i].text << "\n";
  if (notices.size() > shown)
    err << fmt::format("attnmark: ... and {} more; every one is listed in summary.md\n", notices.size() - shown);
}

ClassMarked mark_chunks(const Rubric& rubric, const MarkSettings& settings, const ClassRoster* roster,
                        ClassCopies* copies, Inputs& in, ReportWriter& writer) {
  // `jobs` threads judge chunks, each taking the next; this thread writes
  // them in order as they are done. At most 32 chunks are judged ahead of
  // the writer, so memory stays bounded however large the class; the error
  // reported is the first in input order, whatever the number of threads.
  const std::size_t chunks = (in.submissions.size() + chunk_size - 1) / chunk_size;
  ordered_pipeline<ReportChunk>(
      chunks, settings.jobs, 32,
      [&](std::size_t c, ReportChunk& chunk) { judge_chunk(rubric, settings, roster, copies, writer.stems(), in, c, chunk); },
      [&](std::size_t c, ReportChunk& chunk) {
        writer.add(chunk);
        if (settings.progress) settings.progress(std::min((c + 1) * chunk_size, in.submissions.size()), in.submissions.size());
      });
  return writer.finish(in.notices, copies ? copies->flags() : std::vector<std::string>(in.submissions.size()));
}

// Refuses to mark a served class's files with a seed that is not the
// class's. Those files record a variant and no seed (a served class's
// worksheets, answer files and notebooks carry none); when not one of them
// is its student's variant under `seed`, the seed is another class's (the
// rubric's own, say), and every mark would be against another student's
// numbers. One such file among files that fit is a copy, and is
// wrong-variant as any other.
void require_class_seed(const Inputs& in, std::optional<std::uint64_t> seed) {
  std::size_t seedless = 0, fitting = 0;
  std::string example;  // the first such file, for the message
  for (std::size_t k = 0; k < in.submissions.size(); ++k) {
    if (in.superseding[k] != Inputs::counts) continue;
    const std::optional<Submission>& s = in.parsed[in.submissions[k].file];
    if (!s || !s->unreadable.empty() || s->seed || s->student.empty()) continue;
    const std::optional<std::uint64_t> recorded = parse_variant_id(s->variant);
    if (!recorded) continue;
    ++seedless;
    if (example.empty()) example = in.source(k);
    if (seed && *recorded == variant_id(*seed, s->student)) ++fitting;
  }
  if (seedless == 0 || fitting > 0) return;
  const std::string files =
      seedless == 1 ? example : fmt::format("{} and {} more", example, seedless - 1);
  if (!seed)
    throw Error(fmt::format("{} record{} a variant but no seed (a served class's files), and none was given: pass "
                            "the class's --seed, or mark the served class with mark --db CLASS.sqlite",
                            files, seedless == 1 ? "s" : ""));
  throw Error(fmt::format("{} record{} a variant but no seed (a served class's files), and not one of those variants "
                          "is its student's with seed {}: pass the class's --seed, or mark the served class with "
                          "mark --db CLASS.sqlite",
                          files, seedless == 1 ? "s" : "", *seed));
}

}  // namespace

ClassMarked mark_class(const Rubric& rubric, const MarkSettings& settings, const std::vector<std::string>& inputs,
                       std::ostream& err) {
  if (settings.out_dir.empty()) throw Error("mark: --out DIR is required");
  MarkSettings cleaned = settings;
  cleaned.out_dir = report_folder(settings.out_dir);
  InputList list = input_files(inputs, cleaned.out_dir);  // first: an input inside --out is the clearer error
  const bool replace = check_out_folder(cleaned);
  for (const std::string& format : cleaned.exports)
    if (format != "canvas" && format != "moodle")
      throw Error(fmt::format("--export: expected canvas or moodle; got {}", quoted_printable(format)));
  std::optional<ClassRoster> roster;
  if (cleaned.roster) roster.emplace(*cleaned.roster);
  StudentMatcher counts_as;
  if (roster)
    counts_as = [&](const std::string& id, const std::vector<std::string>& others) {
      return roster_student(*roster, cleaned.match_near_ids, id, others);
    };
  Inputs in = read_inputs(std::move(list), cleaned.jobs, cleaned.sheet_columns, counts_as);
  require_class_seed(in, cleaned.seed);
  report_notices(in.notices, err);
  std::optional<RosterOrder> order;
  if (roster) order.emplace(roster_order(*roster, in));
  ReportWriter writer(rubric, cleaned,
                      cleaned.feedback == FeedbackMode::files ? feedback_stems(in) : std::vector<std::string>(), replace,
                      roster ? &*roster : nullptr, order ? &*order : nullptr);
  if (roster)
    writer.set_roster_note([&](const ClassMarked& counted) {
      const std::size_t n = roster->students().size();
      return fmt::format(
          "Roster: {} student{}, {} handed in, {} missing; {} submission{} not on the roster. {}", n, n == 1 ? "" : "s",
          n - counted.missing, counted.missing, counted.not_on_roster, counted.not_on_roster == 1 ? "" : "s",
          cleaned.match_near_ids
              ? "An id near a roster id (S002, s2 or s002. for s002) is marked as that roster student (--near-ids match)."
              : "An id near a roster id (S002, s2 or s002. for s002) is not marked as that student, only named "
                "(--near-ids flag; --near-ids match marks it as the roster student).");
    });
  std::optional<ClassCopies> copies;
  if (cleaned.seed) copies.emplace(rubric, *cleaned.seed, in);
  return mark_chunks(rubric, cleaned, roster ? &*roster : nullptr, copies ? &*copies : nullptr, in, writer);
}


}  // namespace attnmark
