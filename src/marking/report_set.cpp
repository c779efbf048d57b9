#include "marking/report_set.h"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <set>
#include <unordered_map>

#include "attnmark/base/error.h"
#include "base/file_names.h"
#include "base/text.h"
#include "base/threads.h"
#include "writers/feedback.h"
#include "writers/feedback_view.h"
#include "writers/gradebook.h"
#include "writers/report_words.h"

namespace attnmark {
namespace fs = std::filesystem;

namespace {

// The reason of a roster student's row when they handed nothing in.
constexpr const char* missing_reason = "no submission";

// What an earlier run leaves in --out, in the order an error names them.
// Every name a run writes is here, so that --force can replace them all.
constexpr const char* report_names[] = {"gradebook.csv", "summary.md", "summary.html", "feedback",
                                        "feedback.jsonl", "canvas.csv", "moodle.csv"};

// True for a name an --out folder may hold besides the reports: a crashed
// run's temporaries, and what file browsers leave behind.
bool is_litter(const std::string& name) {
  return name == ".DS_Store" || name == "Thumbs.db" || name == "desktop.ini" ||
         (name.starts_with(".attnmark-") && name.ends_with(".tmp"));
}

}  // namespace

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

std::string report_folder(std::string out_dir) {
  while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();
  if (std::error_code ec; fs::is_symlink(out_dir, ec))
    if (const fs::path target = fs::canonical(out_dir, ec); !ec) out_dir = target.string();
  return out_dir;
}

GradedSubmission missing_submission(const RosterEntry& student) {
  GradedSubmission missing;
  missing.student = student.student;
  missing.name = student.name;
  missing.status = SubmissionStatus::missing;
  missing.reason = missing_reason;
  return missing;
}

LmsRow lms_row(const Rubric& rubric, const GradedSubmission& graded, const RosterEntry* entry, MissingScore missing) {
  LmsRow row{graded.student, graded.name, graded.marked ? std::optional<double>(graded.marked->score) : std::nullopt,
             lms_feedback(rubric, graded), {}};
  if (graded.status == SubmissionStatus::missing && missing == MissingScore::zero) {
    row.score = 0;
    row.feedback = fmt::format("0 / {}. No submission.", score_text(max_score(rubric)));
  }
  if (entry) {
    if (!entry->name.empty()) row.name = entry->name;
    row.fields = entry->fields;
  }
  return row;
}

std::vector<std::string> feedback_stems(const std::vector<StemSource>& submissions) {
  const std::size_t count = submissions.size();
  std::vector<std::string> stems(count);
  FileStems counted, superseded, nameless;
  std::unordered_set<std::string> own;  // lower-case ids that got their own name
  for (std::size_t k = 0; k < count; ++k) {
    const std::string& id = submissions[k].student;
    if (!id.empty() && submissions[k].counts && FileStems::stem(id) == id && own.insert(lower(id)).second)
      stems[k] = counted.take(id);
  }
  for (std::size_t k = 0; k < count; ++k) {
    const std::string& id = submissions[k].student;
    if (!stems[k].empty()) continue;
    if (!submissions[k].counts) stems[k] = "superseded/" + superseded.take(id);
    else if (!id.empty()) stems[k] = counted.take(id);
    else stems[k] = "no-student/" + nameless.take(submissions[k].file);
  }
  return stems;
}

void ReportChunk::begin(const Rubric& rubric, const MarkSettings& settings, std::size_t first, std::size_t count) {
  rubric_ = &rubric;
  settings_ = &settings;
  first_ = next_ = first;
  gradebook_.clear();
  rows_.clear();
  exports_.clear();
  jsonl_.clear();
  summary_.emplace(rubric);
  files_.resize(settings.feedback == FeedbackMode::files ? count : 0);
}

void ReportChunk::add(const GradedSubmission& graded, bool counts) {
  const Rubric& rubric = *rubric_;
  const MarkSettings& settings = *settings_;
  const std::size_t i = next_++;
  if (counts) {
    // A superseded submission is no gradebook row: a lookup by id finds
    // the one that counts. Its flags come once the class is judged.
    append_gradebook_cells(gradebook_, rubric, graded);
    rows_.emplace_back(i, gradebook_.size());
    if (!settings.exports.empty() && !graded.student.empty() && graded.status != SubmissionStatus::not_on_roster)
      exports_.emplace_back(i, lms_row(rubric, graded));
  }
  if (settings.feedback == FeedbackMode::jsonl) {
    append_feedback_json(jsonl_, graded);
    jsonl_ += '\n';
  } else if (settings.feedback == FeedbackMode::files) {
    FeedbackFiles& f = files_[i - first_];
    f.json.clear();
    append_feedback_json(f.json, graded);
    f.json += '\n';
    const FeedbackView view = feedback_view(rubric, graded, rubric.reveal_in_feedback);
    f.markdown = feedback_markdown(view);
    f.html = feedback_html(view, settings.style);
  }
  summary_->add(graded);
}

void ReportChunk::end(const std::vector<std::string>& stems) {
  if (settings_->feedback == FeedbackMode::files) {
    // (Only then: summary.html links each row to its feedback page by this name.)
    std::vector<ClassSummary::Row>& rows = summary_->rows();
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].file_stem = stems[first_ + i];
  }
  summary_->render_rows_html();
}

ReportWriter::ReportWriter(const Rubric& rubric, const MarkSettings& settings, std::vector<std::string> stems, bool replace,
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

void ReportWriter::add(ReportChunk& chunk) {
  // Rows are held until the end: their flags are known only then, and
  // with a roster the gradebook follows the roster's order.
  std::size_t start = 0;
  for (const auto& [k, end] : chunk.rows_) {
    if (k >= held_at_.size()) held_at_.resize(k + 1, {0, 0});
    held_at_[k] = {held_.size() + start, held_.size() + end};
    held_order_.push_back(k);
    start = end;
  }
  held_ += chunk.gradebook_;
  for (auto& [k, row] : chunk.exports_) exports_.emplace_back(k, std::move(row));
  if (jsonl_) jsonl_->append(chunk.jsonl_);
  const std::vector<ClassSummary::Row>& rows = std::as_const(*chunk.summary_).rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ClassSummary::Row& row = rows[i];
    // (A not-on-roster row is never marked: it is counted as that.)
    if (row.status == SubmissionStatus::not_on_roster) ++not_on_roster_;
    else if (row.status != SubmissionStatus::duplicate && !row.score) ++unmarked_;
    if (settings_.feedback == FeedbackMode::files) {
      if (!feedback_) feedback_.emplace((root_ / "feedback").string());
      if (const std::size_t slash = row.file_stem.find('/'); slash != std::string::npos)
        if (const std::string folder = row.file_stem.substr(0, slash); made_.insert(folder).second)
          feedback_->make_folder(folder);
      feedback_->write(row.file_stem + ".json", chunk.files_[i].json);
      feedback_->write(row.file_stem + ".md", chunk.files_[i].markdown);
      feedback_->write(row.file_stem + ".html", chunk.files_[i].html);
    }
  }
  summary_.append(std::move(*chunk.summary_));
  chunk.summary_.reset();
}

// Writes held row k with its flag (from `flags`, per submission) to the gradebook.
void ReportWriter::write_row(std::size_t k, const std::vector<std::string>& flags) {
  const auto [begin, end] = held_at_[k];
  rows_out_.append(held_, begin, end - begin);
  append_gradebook_flags(rows_out_, flags[k].empty() ? std::vector<std::string>{} : std::vector<std::string>{flags[k]});
  flush_rows(false);
}

// Passes the rows written so far to the gradebook file, in blocks of a
// megabyte or so (or all, at the end).
void ReportWriter::flush_rows(bool all) {
  if (rows_out_.size() < (1u << 20) && !all) return;
  gradebook_->append(rows_out_);
  rows_out_.clear();
}

ClassMarked ReportWriter::finish(const std::vector<InputNotice>& notices, const std::vector<std::string>& flags) {
  ClassMarked marked;
  for (std::size_t k = 0; k < flags.size(); ++k)
    if (!flags[k].empty()) summary_.flag(k, {flags[k]});
  for (const InputNotice& n : notices) {
    summary_.add_notice(n.text);
    if (n.needs_teacher) ++marked.not_read;
  }
  std::vector<LmsRow> lms;  // the exports' rows, in the gradebook's order
  std::size_t missing_left_out = 0;  // of them, missing roster students without a score
  std::unordered_map<std::size_t, LmsRow*> lms_of;
  for (auto& [k, row] : exports_) lms_of.emplace(k, &row);
  if (roster_) {
    for (std::size_t r = 0; r < order_->of_student.size(); ++r) {
      const RosterEntry& entry = roster_->students()[r];
      const std::size_t k = order_->of_student[r];
      if (k != RosterOrder::none) {
        write_row(k, flags);
      } else {
        const GradedSubmission missing = missing_submission(entry);
        append_gradebook_row(rows_out_, rubric_, missing);
        flush_rows(false);
        summary_.add(missing);
        ++marked.missing;
      }
      if (!settings_.exports.empty()) {
        const auto it = k == RosterOrder::none ? lms_of.end() : lms_of.find(k);
        if (it == lms_of.end()) {
          lms.push_back(lms_row(rubric_, missing_submission(entry), &entry, settings_.missing));
          if (!lms.back().score) ++missing_left_out;
        } else {
          LmsRow& row = *it->second;
          if (!entry.name.empty()) row.name = entry.name;
          row.fields = entry.fields;
          lms.push_back(std::move(row));
        }
      }
    }
    for (const std::size_t k : order_->others) write_row(k, flags);
    marked.not_on_roster = not_on_roster_;
    if (roster_note_) summary_.set_roster_note(roster_note_(marked));
  } else {
    for (const std::size_t k : held_order_) write_row(k, flags);
    for (auto& [k, row] : exports_) lms.push_back(std::move(row));
  }
  flush_rows(true);
  write_exports(lms, missing_left_out, marked);
  // The two summaries at once, with more than one job (each reads the report only).
  const ClassReport report = class_report(rubric_, summary_);
  run_both([&] { write_file((root_ / "summary.html").string(), summary_html(report, settings_.style, settings_.jobs)); },
           [&] { write_file((root_ / "summary.md").string(), summary_markdown(report)); }, settings_.jobs);
  if (jsonl_) jsonl_->commit();
  if (feedback_) feedback_->commit();
  gradebook_->commit();
  staging_->commit(replace_);
  marked.statuses = summary_.statuses();
  marked.unmarked = unmarked_;
  marked.not_on_roster = not_on_roster_;
  return marked;
}

// canvas.csv and moodle.csv, as --export asks, each holding only students
// with a score, and what the teacher should know of them.
void ReportWriter::write_exports(const std::vector<LmsRow>& rows, std::size_t missing, ClassMarked& marked) {
  if (settings_.exports.empty()) return;
  const std::string& assignment = settings_.assignment.empty() ? display_title(rubric_) : settings_.assignment;
  for (const std::string& format : settings_.exports) {
    if (format == "canvas") {
      write_file((root_ / "canvas.csv").string(), canvas_csv(rows, assignment, settings_.assignment_id, max_score(rubric_)));
      marked.exports.push_back("canvas.csv");
    } else if (format == "moodle" && roster_) {
      write_file((root_ / "moodle.csv").string(), moodle_csv(rows, assignment));
      marked.exports.push_back("moodle.csv");
    } else if (format == "moodle") {
      // Moodle's import stops at the first row that is no Moodle user and
      // imports nothing; only a roster says which ids are its users.
      marked.export_notes.push_back(
          "moodle.csv not written: without --roster nothing says which ids are Moodle users, and Moodle's import "
          "stops at the first that is not; give --roster (Moodle's participants export works as downloaded)");
    }
  }
  std::size_t unmarked = 0;  // rows without a score that are not missing students'
  for (const LmsRow& row : rows) unmarked += !row.score;
  unmarked -= missing;
  if (missing + unmarked > 0 && !marked.exports.empty()) {
    std::string who;
    if (missing) who = fmt::format("{} handed nothing in", missing);
    if (unmarked) who += fmt::format("{}{} could not be marked", who.empty() ? "" : ", ", unmarked);
    std::string files;
    for (const std::string& f : marked.exports) files += (files.empty() ? "" : " and ") + f;
    marked.export_notes.push_back(fmt::format(
        "{} hold{} no row for {} student{} ({}; see summary.md): the LMS keeps the grade each has{}", files,
        marked.exports.size() == 1 ? "s" : "", missing + unmarked, missing + unmarked == 1 ? "" : "s", who,
        missing ? "; --missing zero writes 0 for those who handed nothing in" : ""));
  }
  if (settings_.missing == MissingScore::zero && !roster_)
    marked.export_notes.push_back("--missing zero: without --roster no student is known to be missing; no 0 is written");
}

}  // namespace attnmark
