#include "marking/marking.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <future>
#include <memory>
#include <mutex>
#include <ostream>
#include <thread>
#include <unordered_map>
#include <utility>

#include "readers/answer_reader.h"
#include "base/error.h"
#include "lesson/grader.h"
#include "lesson/variant.h"
#include "readers/csv.h"
#include "base/files.h"
#include "base/threads.h"
#include "writers/report_html.h"

namespace attnmark {
namespace fs = std::filesystem;
namespace {


std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_sheet(const std::string& path) {
  return lower(fs::path(path).extension().string()) == ".csv";
}

// Every input file: the files themselves, and every regular file under a
// folder, in sorted order.
std::vector<std::string> input_files(const std::vector<std::string>& inputs, std::ostream& err) {
  std::vector<std::string> out;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
      out.push_back(input);
      continue;
    }
    std::vector<std::string> files;
    for (auto it = fs::recursive_directory_iterator(input, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec)) files.push_back(it->path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) err << fmt::format("attnmark: {}: folder has no files\n", input);
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

Submission unreadable(const std::string& source, const std::string& reason) {
  Submission s;
  s.source = source;
  s.unreadable = reason;
  return s;
}

Submission read_answer_path(const std::string& path, const ReadLimits& limits) {
  try {
    return read_answer_file(read_file(path, limits.max_file_bytes), path, limits);
  } catch (const Error& e) {
    return unreadable(path, e.message());
  }
}

// Where a submission is in the inputs.
struct Place {
  std::size_t file = 0;  // index of the input file
  std::size_t row = 0;   // a sheet's row (0-based, of its rows that are not blank)
  int line = 0;          // that row's line; 0 for an answer file
};

// Everything read before anything is judged: the answer files in full, the
// sheets checked (a row is read again when it is judged), and every
// submission's place in input order, with the student's last submission
// when it is a later one (the last counts).
struct Inputs {
  static constexpr std::size_t counts = static_cast<std::size_t>(-1);

  std::vector<std::string> files;
  std::vector<std::optional<Submission>> parsed;  // answer files, and sheets that cannot be used
  std::vector<std::string> sheet_texts;
  std::vector<std::unique_ptr<SheetReader>> sheets;
  std::vector<Place> submissions;        // in input order
  std::vector<std::size_t> superseding;  // per submission: its student's last one, or `counts`

  // Submission i, read (a sheet row) or taken (an answer file: once only).
  Submission take(std::size_t i) {
    const Place& place = submissions[i];
    if (parsed[place.file]) return std::move(*parsed[place.file]);
    return sheets[place.file]->submission(place.row);
  }
  // Where submission i came from: "answers/s01.yaml", "class.csv:12".
  std::string source(std::size_t i) const {
    const Place& place = submissions[i];
    return place.line ? files[place.file] + ":" + std::to_string(place.line) : files[place.file];
  }
};

// Reads and checks every input. Unreadable files and sheets become one
// unreadable submission each.
Inputs read_inputs(std::vector<std::string> files, unsigned jobs, std::ostream& err) {
  // A MOOC's sheet of 100,000 learners is some 20 MB; 256 MiB leaves room.
  ReadLimits limits;
  limits.max_sheet_bytes = std::size_t{256} << 20;
  limits.max_sheet_rows = 1'000'000;
  limits.max_sheet_cells = 50'000'000;
  Inputs in;
  in.files = std::move(files);
  const std::size_t n = in.files.size();
  in.parsed.resize(n);
  in.sheet_texts.resize(n);
  in.sheets.resize(n);
  // Answer files in full, on every core; sheets row by row for their student column.
  parallel_for(n, jobs, [&](std::size_t i) {
    if (!is_sheet(in.files[i])) in.parsed[i] = read_answer_path(in.files[i], limits);
  });
  std::unordered_map<std::string, std::size_t> latest;  // student → their latest submission so far
  auto add = [&](const Place& place, const std::string& student) {
    const std::size_t k = in.submissions.size();
    in.submissions.push_back(place);
    in.superseding.push_back(Inputs::counts);
    if (student.empty()) return;
    auto [it, fresh] = latest.try_emplace(student, k);
    if (!fresh) in.superseding[std::exchange(it->second, k)] = k;
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (in.parsed[i]) {
      const Submission& s = *in.parsed[i];
      add(Place{i, 0, 0}, s.unreadable.empty() ? s.student : std::string());
      continue;
    }
    std::vector<std::pair<int, std::string>> rows;  // line and student of each row, once the sheet is good
    try {
      in.sheet_texts[i] = read_file(in.files[i], limits.max_sheet_bytes);
      in.sheets[i] = std::make_unique<SheetReader>(
          in.sheet_texts[i], in.files[i], limits,
          [&](int line, const std::string& student) { rows.emplace_back(line, student); });
      for (const std::string& column : in.sheets[i]->unknown_columns())
        err << fmt::format("attnmark: {}: column '{}' is not a cell of any question; it was not marked\n",
                           in.files[i], column);
    } catch (const Error& e) {
      in.parsed[i] = unreadable(in.files[i], e.file().empty() ? e.message() : e.what());
      in.sheets[i].reset();
      std::string().swap(in.sheet_texts[i]);
      add(Place{i, 0, 0}, std::string());
      continue;
    }
    for (std::size_t row = 0; row < rows.size(); ++row) add(Place{i, row, rows[row].first}, rows[row].second);
  }
  // Each superseded submission points at the next of its student's; make it the last.
  for (std::size_t k = in.superseding.size(); k-- > 0;)
    if (const std::size_t next = in.superseding[k]; next != Inputs::counts && in.superseding[next] != Inputs::counts)
      in.superseding[k] = in.superseding[next];
  return in;
}

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
      ++statuses_[row.status];
    }
    summary_.append(std::move(*chunk.summary));
    chunk.summary.reset();
  }

  std::map<std::string, int> finish() {
    // The two summaries at once, with more than one job (each reads the summary only).
    auto markdown = std::async(settings_.jobs > 1 ? std::launch::async : std::launch::deferred,
                               [&] { write_file((root_ / "summary.md").string(), summary_markdown(rubric_, summary_)); });
    write_file((root_ / "summary.html").string(), summary_html(rubric_, summary_, settings_.style));
    markdown.get();
    if (jsonl_) jsonl_->commit();
    if (feedback_) feedback_->commit();
    // The gradebook last: its presence means the run finished.
    gradebook_->commit();
    return statuses_;
  }

 private:
  const Rubric& rubric_;
  const MarkSettings& settings_;
  fs::path root_;
  ClassSummary summary_;
  FileStems stems_;
  std::optional<NewFile> gradebook_, jsonl_;  // (optional: made once the checks above pass)
  std::optional<NewFolder> feedback_;         // feedback files, made when the first is written
  std::map<std::string, int> statuses_;
};

}  // namespace

namespace {

// Names Windows reserves for devices, whatever follows the first '.'.
bool windows_device(std::string_view stem) {
  const std::string base = lower(std::string(stem.substr(0, stem.find('.'))));
  if (base == "con" || base == "prn" || base == "aux" || base == "nul") return true;
  return base.size() == 4 && (base.rfind("com", 0) == 0 || base.rfind("lpt", 0) == 0) && base[3] >= '1' && base[3] <= '9';
}

}  // namespace

std::string FileStems::take(const std::string& id) {
  std::string stem;
  for (unsigned char c : id) stem += std::isalnum(c) || c == '-' || c == '_' || c == '.' ? static_cast<char>(c) : '_';
  while (!stem.empty() && stem[0] == '.') stem[0] = '_';
  if (stem.size() > 60) stem.resize(60);  // room for a "-N" suffix within 64 bytes
  while (!stem.empty() && stem.back() == '.') stem.pop_back();  // Windows drops trailing dots
  if (stem.empty()) stem = "submission";
  if (windows_device(stem)) stem = "_" + stem;
  std::string name = stem;
  // Unique without regard to case, so names never collide on a case-insensitive disk.
  for (int n = 2; taken_.count(lower(name)); ++n) name = stem + "-" + std::to_string(n);
  ++taken_[lower(name)];
  return name;
}

GradedSubmission judge(const Rubric& rubric, std::optional<std::uint64_t> seed, const Submission& s,
                       const std::string& superseded_by) {
  GradedSubmission g;
  g.source = s.source;
  g.student = s.student;
  g.variant = s.variant;
  if (!s.unreadable.empty()) {
    g.status = "unreadable";
    g.reason = s.unreadable;
    return g;
  }
  if (!superseded_by.empty()) {
    g.status = "duplicate";
    g.reason = "superseded by the later submission " + superseded_by;
    return g;
  }
  if (!s.rubric.empty() && s.rubric != rubric.name) {
    g.status = "wrong-rubric";
    g.reason = fmt::format("answers are for rubric '{}', not '{}'", s.rubric, rubric.name);
    return g;
  }
  const std::optional<std::uint64_t> marking_seed = seed ? seed : s.seed;
  if (!marking_seed) {
    g.status = "wrong-variant";
    g.reason = "no seed: the file records none and none was given (--seed)";
    return g;
  }
  const std::optional<std::uint64_t> recorded = parse_variant_id(s.variant);
  std::vector<std::string> why;
  thread_local Variant variant;  // its storage is reused, submission after submission
  if (s.student.empty()) {
    g.status = "unknown-student";
    if (!recorded) {
      g.reason = "no student id and no variant in the submission";
      return g;
    }
    why.push_back("no student id; marked against the variant recorded in the file");
    make_variant_into(rubric, *marking_seed, *recorded, s.student, variant);
  } else {
    make_variant_into(rubric, *marking_seed, variant_id(*marking_seed, s.student), s.student, variant);
    g.variant = variant.id_text();
    if (recorded && *recorded != variant.id) {
      g.status = "wrong-variant";
      why.push_back(fmt::format("the file is for variant {}, but {}'s variant (seed {}) is {}; marked against {}'s own",
                                s.variant, s.student, *marking_seed, variant.id_text(), s.student));
    }
  }
  if (seed && s.seed && *s.seed != *seed)
    why.push_back(fmt::format("the file records seed {}; marked with seed {}", *s.seed, *seed));
  for (const std::string& n : s.notes) why.push_back(n);
  g.marked = grade(variant, s);
  for (const std::string& n : g.marked->notes) why.push_back(n);
  if (g.status.empty()) g.status = g.marked->answered == 0 ? "unanswered" : "graded";
  if (g.status == "unanswered") why.insert(why.begin(), "no answers given");
  g.reason = fmt::format("{}", fmt::join(why, "; "));
  return g;
}

std::map<std::string, int> mark_class(const Rubric& rubric, const MarkSettings& settings,
                                      const std::vector<std::string>& inputs, std::ostream& err) {
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
