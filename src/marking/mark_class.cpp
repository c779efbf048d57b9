#include "marking/mark_class.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_set>
#include <utility>

#include "base/error.h"
#include "base/file_names.h"
#include "base/files.h"
#include "base/text.h"
#include "lesson/fingerprint.h"
#include "lesson/variant.h"
#include "marking/class_roster.h"
#include "marking/inputs.h"
#include "marking/judge.h"
#include "marking/summary.h"
#include "writers/feedback.h"
#include "writers/gradebook.h"
#include "writers/lms_export.h"

namespace attnmark {
namespace fs = std::filesystem;
namespace {

// One student's feedback files (feedback files only).
struct FeedbackFiles {
  std::string json, markdown, html;
};

// A run of consecutive submissions, judged by one thread, with everything
// they add to the reports rendered in order. Chunks are the same whatever
// the number of threads, so the reports are too. Their text buffers are
// reused from chunk to chunk.
struct Chunk {
  std::string gradebook;             // the gradebook rows of those that count, in order, without their flags
  std::vector<std::pair<std::size_t, std::size_t>> rows;  // (submission, end of its row in `gradebook`)
  std::string jsonl;                 // their feedback.jsonl lines (feedback jsonl)
  std::vector<FeedbackFiles> files;  // theirs, in order (feedback files)
  std::vector<std::pair<std::size_t, LmsRow>> exports;  // (submission, its row) of those that count (--export)
  std::optional<ClassSummary> summary;
};

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

// What the roster says of a judged submission that counts: its name, or
// that its id is not on the roster (and the id it most likely meant).
void apply_roster(const ClassRoster& roster, GradedSubmission& g) {
  if (g.student.empty()) return;
  if (const std::size_t at = roster.find(g.student); at != ClassRoster::npos) {
    if (!roster.students()[at].name.empty()) g.name = roster.students()[at].name;
    return;
  }
  const std::string near = roster.near(g.student);
  std::string reason = "not on the roster";
  if (!near.empty())
    reason += fmt::format("; did you mean {}? (--near-ids match marks it as {})", quoted_printable(near),
                          quoted_printable(near));
  g.status = SubmissionStatus::not_on_roster;
  g.reason = g.reason.empty() ? reason : reason + "; " + g.reason;
}

// Judges chunk c of the inputs' submissions into `chunk`; `stems` names
// each submission's feedback files (feedback files).
void judge_chunk(const Rubric& rubric, const MarkSettings& settings, const ClassRoster* roster, ClassCopies* copies,
                 const std::vector<std::string>& stems, Inputs& in, std::size_t c, Chunk& chunk) {
  chunk.gradebook.clear();
  chunk.rows.clear();
  chunk.exports.clear();
  chunk.jsonl.clear();
  chunk.summary.emplace(rubric);
  const std::size_t first = c * chunk_size, end = std::min(in.submissions.size(), first + chunk_size);
  chunk.files.resize(settings.feedback == FeedbackMode::files ? end - first : 0);
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
    if (counts) {
      // A superseded submission is no gradebook row: a lookup by id finds
      // the one that counts. Its flags come once the class is judged.
      append_gradebook_cells(chunk.gradebook, rubric, graded);
      chunk.rows.emplace_back(i, chunk.gradebook.size());
      if (!settings.exports.empty() && !graded.student.empty() && graded.status != SubmissionStatus::not_on_roster)
        chunk.exports.emplace_back(i, LmsRow{graded.student, graded.name,
                                             graded.marked ? std::optional<double>(graded.marked->score) : std::nullopt,
                                             lms_feedback(rubric, graded), {}});
    }
    if (settings.feedback == FeedbackMode::jsonl) {
      append_feedback_json(chunk.jsonl, graded);
      chunk.jsonl += '\n';
    } else if (settings.feedback == FeedbackMode::files) {
      FeedbackFiles& f = chunk.files[i - first];
      f.json.clear();
      append_feedback_json(f.json, graded);
      f.json += '\n';
      const FeedbackView view = feedback_view(rubric, graded, rubric.reveal_in_feedback);
      f.markdown = feedback_markdown(view);
      f.html = feedback_html(view, settings.style);
    }
    chunk.summary->add(graded);
  }
  if (settings.feedback == FeedbackMode::files) {
    // (Only then: summary.html links each row to its feedback page by this name.)
    std::vector<ClassSummary::Row>& rows = chunk.summary->rows();
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].file_stem = stems[first + i];
  }
  chunk.summary->render_rows_html();
}

// What an earlier run leaves in --out, in the order an error names them.
constexpr const char* report_names[] = {"gradebook.csv", "summary.md", "summary.html", "feedback", "feedback.jsonl"};

// True for a name an --out folder may hold besides the reports: a crashed
// run's temporaries, and what file browsers leave behind.
bool is_litter(const std::string& name) {
  return name == ".DS_Store" || name == "Thumbs.db" || name == "desktop.ini" ||
         (name.starts_with(".attnmark-") && name.ends_with(".tmp"));
}

// Checks that `out` can take this run's reports. Returns whether a folder is
// there already (to be swapped out whole at the end).
bool check_out_folder(const MarkSettings& settings) {
  const fs::path out(settings.out_dir);
  std::error_code ec;
  const fs::file_status status = fs::status(out, ec);
  if (!fs::exists(status)) return false;
  if (!fs::is_directory(status)) throw Error(settings.out_dir, 0, 0, "is not a folder; choose another --out");
  std::set<std::string> reports;
  std::vector<std::string> others;
  for (auto it = fs::directory_iterator(out, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (std::find(std::begin(report_names), std::end(report_names), name) != std::end(report_names)) reports.insert(name);
    else if (!is_litter(name)) others.push_back(name);
  }
  if (ec) throw Error(settings.out_dir, 0, 0, "cannot read folder: " + ec.message());
  std::sort(others.begin(), others.end());
  if (!others.empty())
    throw Error(settings.out_dir, 0, 0,
                fmt::format("holds files that are not attnmark's reports ({}{}); the reports are replaced as a "
                            "folder, so choose a new or empty --out",
                            quoted_printable(others[0]), others.size() > 1 ? fmt::format(" and {} more", others.size() - 1) : ""));
  if (!settings.force)
    for (const char* name : report_names)
      if (reports.count(name))
        throw Error(settings.out_dir, 0, 0,
                    fmt::format("already holds '{}' from an earlier run; pass --force to replace it, or choose another --out",
                                name));
  return true;
}

// The name of each submission's feedback files. feedback/<id>.* is always
// the student's counted submission: ids that are their own safe name get it
// first, whatever their order, so no other submission can take it; a
// superseded submission goes in superseded/, one without a student id in
// no-student/ (folder names that no feedback file of an id can have).
std::vector<std::string> feedback_stems(const Inputs& in) {
  const std::size_t count = in.submissions.size();
  std::vector<std::string> stems(count);
  FileStems counted, superseded, nameless;
  std::unordered_set<std::string> own;  // lower-case ids that got their own name
  for (std::size_t k = 0; k < count; ++k) {
    const std::string& id = in.students[k];
    if (!id.empty() && in.superseding[k] == Inputs::counts && FileStems::stem(id) == id && own.insert(lower(id)).second)
      stems[k] = counted.take(id);
  }
  for (std::size_t k = 0; k < count; ++k) {
    const std::string& id = in.students[k];
    if (!stems[k].empty()) continue;
    if (in.superseding[k] != Inputs::counts) stems[k] = "superseded/" + superseded.take(id);
    else if (!id.empty()) stems[k] = counted.take(id);
    else stems[k] = "no-student/" + nameless.take(fs::path(in.files[in.submissions[k].file]).filename().string());
  }
  return stems;
}

// With a roster, the order of the gradebook: each roster student's counted
// submission (or none), then the counted ones not on the roster, then those
// without a student id, each in input order.
struct RosterOrder {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> of_student;  // per roster student: the submission that counts, or none
  std::vector<std::size_t> others;      // not on the roster, then without an id
};

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

// Writes the reports as submissions arrive into a temporary folder beside
// --out, which takes the place of --out whole when the run has finished; a
// run that fails leaves --out as it was.
class ReportWriter {
 public:
  // REQUIRES: check_out_folder(settings) passed; `replace` is what it returned.
  // `roster` and `order`, when given, outlive the writer.
  ReportWriter(const Rubric& rubric, const MarkSettings& settings, std::vector<std::string> stems, bool replace,
               const ClassRoster* roster, const RosterOrder* order)
      : rubric_(rubric), settings_(settings), summary_(rubric), stems_(std::move(stems)), replace_(replace),
        roster_(roster), order_(order) {
    const fs::path out = fs::path(settings.out_dir);
    std::error_code ec;
    if (out.has_parent_path()) fs::create_directories(out.parent_path(), ec);
    if (ec) throw Error(settings.out_dir, 0, 0, "cannot create folder: " + ec.message());
    // A killed run's temporary folder is cleared; a live run's is locked and kept.
    remove_stale_temporaries(out.parent_path().string());
    staging_.emplace(settings.out_dir);
    root_ = staging_->temporary();
    gradebook_.emplace((root_ / "gradebook.csv").string());
    gradebook_->append(gradebook_header(rubric));
    if (settings.feedback == FeedbackMode::jsonl) jsonl_.emplace((root_ / "feedback.jsonl").string());
  }

  // The name of each submission's feedback files (feedback files), else empty.
  const std::vector<std::string>& stems() const { return stems_; }

  // Adds a chunk's submissions after those added before. Empties the chunk.
  void add(Chunk& chunk) {
    // Rows are held until the end: their flags are known only then, and
    // with a roster the gradebook follows the roster's order.
    std::size_t start = 0;
    for (const auto& [k, end] : chunk.rows) {
      if (k >= held_at_.size()) held_at_.resize(k + 1, {0, 0});
      held_at_[k] = {held_.size() + start, held_.size() + end};
      held_order_.push_back(k);
      start = end;
    }
    held_ += chunk.gradebook;
    for (auto& [k, row] : chunk.exports) exports_.emplace_back(k, std::move(row));
    if (jsonl_) jsonl_->append(chunk.jsonl);
    const std::vector<ClassSummary::Row>& rows = std::as_const(*chunk.summary).rows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const ClassSummary::Row& row = rows[i];
      if (row.status != SubmissionStatus::duplicate && !row.score) ++unmarked_;
      if (row.status == SubmissionStatus::not_on_roster) ++not_on_roster_;
      if (settings_.feedback == FeedbackMode::files) {
        if (!feedback_) feedback_.emplace((root_ / "feedback").string());
        if (const std::size_t slash = row.file_stem.find('/'); slash != std::string::npos)
          if (const std::string folder = row.file_stem.substr(0, slash); made_.insert(folder).second)
            feedback_->make_folder(folder);
        feedback_->write(row.file_stem + ".json", chunk.files[i].json);
        feedback_->write(row.file_stem + ".md", chunk.files[i].markdown);
        feedback_->write(row.file_stem + ".html", chunk.files[i].html);
      }
    }
    summary_.append(std::move(*chunk.summary));
    chunk.summary.reset();
  }

  // Writes held row k with its flag (from `flags`, per submission) to the gradebook.
  void write_row(std::size_t k, const std::vector<std::string>& flags) {
    const auto [begin, end] = held_at_[k];
    rows_out_.append(held_, begin, end - begin);
    append_gradebook_flags(rows_out_, flags[k].empty() ? std::vector<std::string>{} : std::vector<std::string>{flags[k]});
    flush_rows(false);
  }

  // Passes the rows written so far to the gradebook file, in blocks of a
  // megabyte or so (or all, at the end).
  void flush_rows(bool all) {
    if (rows_out_.size() < (1u << 20) && !all) return;
    gradebook_->append(rows_out_);
    rows_out_.clear();
  }

  // REQUIRES: flags has an entry per submission added.
  ClassMarked finish(const std::vector<InputNotice>& notices, const std::vector<std::string>& flags) {
    ClassMarked marked;
    for (std::size_t k = 0; k < flags.size(); ++k)
      if (!flags[k].empty()) summary_.flag(k, {flags[k]});
    for (const InputNotice& n : notices) {
      summary_.add_notice(n.text);
      if (n.needs_teacher) ++marked.not_read;
    }
    std::vector<LmsRow> lms;  // the exports' rows, in the gradebook's order
    std::unordered_map<std::size_t, LmsRow*> lms_of;
    for (auto& [k, row] : exports_) lms_of.emplace(k, &row);
    if (roster_) {
      for (std::size_t r = 0; r < order_->of_student.size(); ++r) {
        const RosterEntry& entry = roster_->students()[r];
        const std::size_t k = order_->of_student[r];
        if (k != RosterOrder::none) {
          write_row(k, flags);
        } else {
          GradedSubmission missing;
          missing.student = entry.student;
          missing.name = entry.name;
          missing.status = SubmissionStatus::missing;
          missing.reason = "no submission";
          append_gradebook_row(rows_out_, rubric_, missing);
          flush_rows(false);
          summary_.add(missing);
          ++marked.missing;
        }
        if (!settings_.exports.empty()) {
          const auto it = k == RosterOrder::none ? lms_of.end() : lms_of.find(k);
          LmsRow row = it != lms_of.end() ? std::move(*it->second) : LmsRow{entry.student, entry.name, std::nullopt, "no submission", {}};
          row.name = entry.name.empty() ? row.name : entry.name;
          row.fields = entry.fields;
          lms.push_back(std::move(row));
        }
      }
      for (const std::size_t k : order_->others) write_row(k, flags);
      const std::size_t n = roster_->students().size();
      summary_.set_roster_note(fmt::format(
          "Roster: {} student{}, {} handed in, {} missing; {} submission{} not on the roster. {}", n, n == 1 ? "" : "s",
          n - marked.missing, marked.missing, not_on_roster_, not_on_roster_ == 1 ? "" : "s",
          settings_.match_near_ids
              ? "An id near a roster id (S002, s2 or s002. for s002) is marked as that roster student (--near-ids match)."
              : "An id near a roster id (S002, s2 or s002. for s002) is not marked as that student, only named "
                "(--near-ids flag; --near-ids match marks it as the roster student)."));
    } else {
      for (const std::size_t k : held_order_) write_row(k, flags);
      for (auto& [k, row] : exports_) lms.push_back(std::move(row));
    }
    flush_rows(true);
    write_exports(lms);
    // The two summaries at once, with more than one job (each reads the summary only).
    auto markdown = std::async(settings_.jobs > 1 ? std::launch::async : std::launch::deferred,
                               [&] { write_file((root_ / "summary.md").string(), summary_markdown(rubric_, summary_)); });
    write_file((root_ / "summary.html").string(), summary_html(rubric_, summary_, settings_.style, settings_.jobs));
    markdown.get();
    if (jsonl_) jsonl_->commit();
    if (feedback_) feedback_->commit();
    gradebook_->commit();
    staging_->commit(replace_);
    marked.statuses = summary_.statuses();
    marked.unmarked = unmarked_;
    marked.not_on_roster = not_on_roster_;
    return marked;
  }

  // canvas.csv and moodle.csv, as --export asks.
  void write_exports(const std::vector<LmsRow>& rows) {
    const std::string& assignment = settings_.assignment.empty() ? display_title(rubric_) : settings_.assignment;
    for (const std::string& format : settings_.exports) {
      if (format == "canvas")
        write_file((root_ / "canvas.csv").string(), canvas_csv(rows, assignment, settings_.assignment_id, max_score(rubric_)));
      else if (format == "moodle")
        write_file((root_ / "moodle.csv").string(), moodle_csv(rows, assignment));
    }
  }

 private:
  const Rubric& rubric_;
  const MarkSettings& settings_;
  ClassSummary summary_;
  std::vector<std::string> stems_;  // feedback file names, per submission (feedback files)
  bool replace_;                    // an earlier run's folder is at --out
  std::size_t unmarked_ = 0, not_on_roster_ = 0;
  const ClassRoster* roster_;   // --roster, or null
  const RosterOrder* order_;    // with a roster: the gradebook's order
  std::string held_;                                       // the gradebook rows, without their flags
  std::vector<std::pair<std::size_t, std::size_t>> held_at_;  // submission → its row in held_ (begin, end)
  std::vector<std::size_t> held_order_;                     // the submissions with a row, in input order
  std::string rows_out_;                                    // rows on their way to the gradebook file
  std::vector<std::pair<std::size_t, LmsRow>> exports_;     // (submission, row) for --export, in input order
  std::optional<NewFolder> staging_;  // the new --out, until it takes its place
  fs::path root_;                     // staging_'s temporary folder
  std::optional<NewFile> gradebook_, jsonl_;
  std::optional<NewFolder> feedback_;  // feedback files, made when the first is written
  std::unordered_set<std::string> made_;  // its folders made so far (superseded/, no-student/)
};

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
  const std::size_t chunks = (in.submissions.size() + chunk_size - 1) / chunk_size;
  if (settings.jobs == 1) {  // one thread throughout
    Chunk chunk;
    for (std::size_t c = 0; c < chunks; ++c) {
      judge_chunk(rubric, settings, roster, copies, writer.stems(), in, c, chunk);
      writer.add(chunk);
    }
    return writer.finish(in.notices, copies ? copies->flags() : std::vector<std::string>(in.submissions.size()));
  }
  // `jobs` threads judge chunks in order, each taking the next; this thread
  // writes them in order as they are done. At most `ring` chunks are judged
  // ahead of the writer, so memory stays bounded however large the class.
  constexpr std::size_t ring = 32;
  std::vector<Chunk> slots(ring);
  std::vector<char> done(ring, 0);                // slot holds a judged chunk, not yet written
  std::vector<std::exception_ptr> errors(ring);   // why judging the slot's chunk failed
  std::size_t written = 0;                        // chunks written
  bool stop = false;                              // the run failed: every thread stops
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable changed;
  std::atomic<std::size_t> next{0};
  auto judge_chunks = [&] {
    for (std::size_t c; (c = next.fetch_add(1)) < chunks;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return c < written + ring || stop; });
        if (stop) return;
      }
      std::exception_ptr error;
      try {
        judge_chunk(rubric, settings, roster, copies, writer.stems(), in, c, slots[c % ring]);
      } catch (...) {
        error = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(mutex);
      errors[c % ring] = error;
      done[c % ring] = 1;
      changed.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < settings.jobs; ++t) threads.emplace_back(judge_chunks);
  // Chunks are written, and their errors met, in order: the error reported
  // is the first in input order, whatever the number of threads.
  try {
    for (std::size_t c = 0; c < chunks && !failure; ++c) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return done[c % ring] != 0; });
        failure = errors[c % ring];
      }
      if (failure) break;
      writer.add(slots[c % ring]);
      const std::lock_guard<std::mutex> lock(mutex);
      done[c % ring] = 0;
      written = c + 1;
      changed.notify_all();
    }
  } catch (...) {
    failure = std::current_exception();
  }
  {
    const std::lock_guard<std::mutex> lock(mutex);
    stop = true;
    changed.notify_all();
  }
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  return writer.finish(in.notices, copies ? copies->flags() : std::vector<std::string>(in.submissions.size()));
}

}  // namespace

ClassMarked mark_class(const Rubric& rubric, const MarkSettings& settings, const std::vector<std::string>& inputs,
                       std::ostream& err) {
  if (settings.out_dir.empty()) throw Error("mark: --out DIR is required");
  // --out as a clean path: "out/" and "out" are one folder, and its temporary lies beside it.
  MarkSettings cleaned = settings;
  while (cleaned.out_dir.size() > 1 && cleaned.out_dir.back() == '/') cleaned.out_dir.pop_back();
  // --out as a link to a folder (results -> /mnt/share/results): the folder
  // it names is the one replaced, its temporary beside it.
  if (std::error_code ec; fs::is_symlink(cleaned.out_dir, ec))
    if (const fs::path target = fs::canonical(cleaned.out_dir, ec); !ec) cleaned.out_dir = target.string();
  InputList list = input_files(inputs, cleaned.out_dir);  // first: an input inside --out is the clearer error
  const bool replace = check_out_folder(cleaned);
  for (const std::string& format : cleaned.exports)
    if (format != "canvas" && format != "moodle")
      throw Error(fmt::format("--export: expected canvas or moodle; got {}", quoted_printable(format)));
  std::optional<ClassRoster> roster;
  if (cleaned.roster) roster.emplace(*cleaned.roster);
  std::function<std::string(const std::string&)> counts_as;
  if (roster && cleaned.match_near_ids)
    counts_as = [&](const std::string& id) {
      if (roster->find(id) != ClassRoster::npos) return id;
      const std::string near = roster->near(id);
      return near.empty() ? id : near;
    };
  Inputs in = read_inputs(std::move(list), cleaned.jobs, cleaned.sheet_columns, counts_as);
  report_notices(in.notices, err);
  std::optional<RosterOrder> order;
  if (roster) order.emplace(roster_order(*roster, in));
  ReportWriter writer(rubric, cleaned,
                      cleaned.feedback == FeedbackMode::files ? feedback_stems(in) : std::vector<std::string>(), replace,
                      roster ? &*roster : nullptr, order ? &*order : nullptr);
  std::optional<ClassCopies> copies;
  if (cleaned.seed) copies.emplace(rubric, *cleaned.seed, in);
  return mark_chunks(rubric, cleaned, roster ? &*roster : nullptr, copies ? &*copies : nullptr, in, writer);
}


}  // namespace attnmark
