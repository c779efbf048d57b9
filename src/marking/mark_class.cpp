#include "marking/mark_class.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "base/error.h"
#include "base/file_names.h"
#include "base/files.h"
#include "marking/inputs.h"
#include "marking/judge.h"
#include "marking/summary.h"
#include "writers/feedback.h"
#include "writers/gradebook.h"

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
  std::string gradebook;             // their gradebook rows
  std::string jsonl;                 // their feedback.jsonl lines (feedback jsonl)
  std::vector<FeedbackFiles> files;  // theirs, in order (feedback files)
  std::optional<ClassSummary> summary;
};

constexpr std::size_t chunk_size = 256;  // submissions in a chunk

// Judges chunk c of the inputs' submissions into `chunk`.
void judge_chunk(const Rubric& rubric, const MarkSettings& settings, Inputs& in, std::size_t c, Chunk& chunk) {
  chunk.gradebook.clear();
  chunk.jsonl.clear();
  chunk.summary.emplace(rubric);
  const std::size_t first = c * chunk_size, end = std::min(in.submissions.size(), first + chunk_size);
  chunk.files.resize(settings.feedback == FeedbackMode::files ? end - first : 0);
  for (std::size_t i = first; i < end; ++i) {
    const Submission s = in.take(i);
    const std::string superseded_by = in.superseding[i] == Inputs::counts ? std::string() : in.source(in.superseding[i]);
    const GradedSubmission graded = judge(rubric, settings.seed, s, superseded_by);
    append_gradebook_row(chunk.gradebook, rubric, graded);
    if (settings.feedback == FeedbackMode::jsonl) {
      append_feedback_json(chunk.jsonl, graded);
      chunk.jsonl += '\n';
    } else if (settings.feedback == FeedbackMode::files) {
      FeedbackFiles& f = chunk.files[i - first];
      f.json.clear();
      append_feedback_json(f.json, graded);
      f.json += '\n';
      f.markdown = feedback_markdown(rubric, graded, rubric.reveal_in_feedback);
      f.html = feedback_html(rubric, graded, rubric.reveal_in_feedback, settings.style);
    }
    chunk.summary->add(graded);
  }
}

// Writes the reports as submissions arrive, each to a temporary name that is
// renamed into place only when the run has finished; a run that fails leaves
// none of them behind.
class ReportWriter {
 public:
  ReportWriter(const Rubric& rubric, const MarkSettings& settings)
      : rubric_(rubric), settings_(settings), root_(settings.out_dir), summary_(rubric) {
    std::error_code ec;
    for (const char* name : {"gradebook.csv", "summary.md", "summary.html", "feedback", "feedback.jsonl"})
      if (fs::exists(root_ / name, ec) && !settings.force)
        throw Error(settings.out_dir, 0, 0,
                    fmt::format("already holds '{}' from an earlier run; pass --force to replace it, or choose another --out",
                                name));
    fs::create_directories(root_, ec);
    if (ec) throw Error(settings.out_dir, 0, 0, "cannot create folder: " + ec.message());
    if (settings.force) {
      fs::remove_all(root_ / "feedback", ec);
      fs::remove(root_ / "feedback.jsonl", ec);
    }
    gradebook_.emplace((root_ / "gradebook.csv").string());
    gradebook_->append(gradebook_header(rubric));
    if (settings.feedback == FeedbackMode::jsonl) jsonl_.emplace((root_ / "feedback.jsonl").string());
  }

  // Adds a chunk's submissions, after those added before. Empties the chunk.
  void add(Chunk& chunk) {
    gradebook_->append(chunk.gradebook);
    if (jsonl_) jsonl_->append(chunk.jsonl);
    std::vector<ClassSummary::Row>& rows = chunk.summary->rows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      ClassSummary::Row& row = rows[i];
      if (settings_.feedback == FeedbackMode::files) {
        // (Only then: summary.html links each row to its feedback page by this name.)
        row.file_stem = stems_.take(row.student.empty() ? fs::path(row.source).filename().string() : row.student);
        // feedback/ appears whole when the run has finished, like the other reports.
        if (!feedback_) feedback_.emplace((root_ / "feedback").string());
        feedback_->write(row.file_stem + ".json", chunk.files[i].json);
        feedback_->write(row.file_stem + ".md", chunk.files[i].markdown);
        feedback_->write(row.file_stem + ".html", chunk.files[i].html);
      }
    }
    summary_.append(std::move(*chunk.summary));
    chunk.summary.reset();
  }

  StatusTally finish() {
    // The two summaries at once, with more than one job (each reads the summary only).
    auto markdown = std::async(settings_.jobs > 1 ? std::launch::async : std::launch::deferred,
                               [&] { write_file((root_ / "summary.md").string(), summary_markdown(rubric_, summary_)); });
    write_file((root_ / "summary.html").string(), summary_html(rubric_, summary_, settings_.style));
    markdown.get();
    if (jsonl_) jsonl_->commit();
    if (feedback_) feedback_->commit();
    // The gradebook last: its presence means the run finished.
    gradebook_->commit();
    return summary_.statuses();
  }

 private:
  const Rubric& rubric_;
  const MarkSettings& settings_;
  fs::path root_;
  ClassSummary summary_;
  FileStems stems_;  // feedback file names
  std::optional<NewFile> gradebook_, jsonl_;  // (optional: made once the checks above pass)
  std::optional<NewFolder> feedback_;         // feedback files, made when the first is written
};

}  // namespace

StatusTally mark_class(const Rubric& rubric, const MarkSettings& settings, const std::vector<std::string>& inputs,
                       std::ostream& err) {
  ReportWriter writer(rubric, settings);
  Inputs in = read_inputs(input_files(inputs, err), settings.jobs, err);
  const std::size_t chunks = (in.submissions.size() + chunk_size - 1) / chunk_size;
  if (settings.jobs == 1) {  // one thread throughout
    Chunk chunk;
    for (std::size_t c = 0; c < chunks; ++c) {
      judge_chunk(rubric, settings, in, c, chunk);
      writer.add(chunk);
    }
    return writer.finish();
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
        judge_chunk(rubric, settings, in, c, slots[c % ring]);
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
  return writer.finish();
}

}  // namespace attnmark
