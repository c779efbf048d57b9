#include "marking/inputs.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <unordered_set>
#include <utility>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "base/threads.h"
#include "readers/notebook_reader.h"
#include "readers/submitted_time.h"

namespace attnmark {
namespace fs = std::filesystem;
namespace {

// File names are student-made: shown escaped, on one line, never cut short.
std::string shown_path(const std::string& path) { return printable(path, 4096); }

std::string extension(const std::string& path) { return lower(fs::path(path).extension().string()); }

// True when a path below an input folder is hidden: a component starting
// with '.' (.DS_Store, .git/) or a zip's __MACOSX/ folder.
bool is_hidden(const fs::path& place) {
  for (const fs::path& part : place) {
    const std::string name = part.string();
    if ((!name.empty() && name[0] == '.' && name != "." && name != "..") || name == "__MACOSX") return true;
  }
  return false;
}

// True when `inner` is `outer` or lies inside it (both made absolute and normal).
bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin(), o = outer.begin();
  for (; o != outer.end() && !o->empty(); ++o, ++i)
    if (i == inner.end() || *i != *o) return false;
  return true;
}

fs::path absolute_normal(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  // (weakly_canonical keeps a trailing separator as an empty last part.)
  if (!p.empty() && p.filename().empty()) p = p.parent_path();
  return p;
}

bool is_alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// True when `name` holds `id` as a word of its own, without regard to case:
// "Smith John_s02_answers" names s02; "s021" does not.
bool names_student(std::string_view name, std::string_view id) {
  if (id.empty() || id.size() > name.size()) return false;
  const std::string n = lower(name), i = lower(id);
  for (std::size_t at = n.find(i); at != std::string::npos; at = n.find(i, at + 1)) {
    const bool starts = at == 0 || !is_alnum(n[at - 1]) || !is_alnum(i.front());
    const bool ends = at + i.size() == n.size() || !is_alnum(n[at + i.size()]) || !is_alnum(i.back());
    if (starts && ends) return true;
  }
  return false;
}

Submission unreadable(const std::string& source, const std::string& reason) {
  Submission s;
  s.source = source;
  s.unreadable = reason;
  return s;
}

// "path: message", or "path:line:column: message", with the path printable.
std::string error_text(const Error& e, const std::string& shown) {
  return e.file().empty() ? e.message() : shown + std::string(e.what()).substr(e.file().size());
}

Submission read_answer_path(const InputFile& input, const std::string& shown, const ReadLimits& limits) {
  if (!input.refused.empty()) return unreadable(shown, input.refused);
  try {
    // A file found in a folder is read only if it is still not a link.
    return read_submission_file(read_file(input.path, limits.max_file_bytes, input.place.empty()), input.path, input.path,
                                limits);
  } catch (const Error& e) {
    return unreadable(shown, e.message());
  }
}

// Lists the files of one input folder into `list`.
void add_folder(const std::string& folder, const std::string& out_dir, InputList& list) {
  const FolderContents contents = walk_folder(folder, {out_dir});
  std::size_t hidden = 0, before = list.files.size();
  auto add = [&](const std::vector<std::string>& paths, auto refused) {
    for (const std::string& path : paths) {
      const fs::path place = fs::path(path).lexically_relative(folder);
      if (is_hidden(place)) ++hidden;
      else list.files.push_back({path, false, place.string(), refused(path)});
    }
  };
  add(contents.files, [](const std::string& path) {
    return extension(path) == ".csv"
               ? std::string("a sheet inside a folder is not read as a class sheet; name it on the command line to mark it as one")
               : std::string();
  });
  add(contents.links, [](const std::string&) { return std::string("a symbolic link; links in a folder are not followed"); });
  add(contents.special, [](const std::string&) { return std::string("is not a regular file (a pipe, socket or device)"); });
  std::sort(list.files.begin() + static_cast<std::ptrdiff_t>(before), list.files.end(),
            [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
  for (const auto& [place, why] : contents.unreadable)
    list.notices.push_back({fmt::format("{}: {}; nothing in it was marked", shown_path(place), why), true});
  for (const std::string& path : contents.skipped)
    list.notices.push_back({fmt::format("{}: the reports' folder (--out); not marked", shown_path(path)), false});
  if (hidden)
    list.notices.push_back({fmt::format("{}: skipped {} hidden file{} (names starting with '.', and __MACOSX/)",
                                        shown_path(folder), hidden, hidden == 1 ? "" : "s"),
                            false});
  if (list.files.size() == before && contents.unreadable.empty())
    list.notices.push_back({fmt::format("{}: folder has no files", shown_path(folder)), true});
}

// When one submission was handed in, as the rule of which counts reads it.
struct HandedIn {
  std::optional<std::int64_t> seconds;  // since 1970 UTC; nullopt: not a time that can be read
  std::string what;                     // "submitted", the sheet's column ("Timestamp"), or "modified"
  std::string text;                     // as written (printable, cut; "" when blank), or the modification time in UTC
};

// Why `t`, the time of submission `source`, cannot be compared.
std::string unreadable_time(const HandedIn& t, const std::string& source) {
  if (t.what == "modified") return fmt::format("the modification time of {} cannot be read", source);
  if (t.text.empty()) return fmt::format("the {} of {} is blank", t.what, source);
  return fmt::format("the time {} records, '{}', is not one attnmark reads", source, t.text);
}

// A file's modification time to the second, or nullopt when it cannot be read.
std::optional<std::int64_t> modified_seconds(const std::string& path) {
  std::error_code ec;
  const fs::file_time_type t = fs::last_write_time(path, ec);
  if (ec) return std::nullopt;
  return std::chrono::floor<std::chrono::seconds>(std::chrono::file_clock::to_sys(t)).time_since_epoch().count();
}

// Which of one student's submissions counts, and why each other does not:
// the rule, in the words docs/marking.md gives teachers.
//
//   The latest submission counts: the one handed in last by the time it
//   records (a form's Timestamp or Completion time, `submitted:` in an
//   answer file or a notebook's metadata), else by its file's modification
//   time; times are compared to the second, and a time without a zone is
//   read as UTC. Of equal times, the later in input order counts (the order
//   the inputs were given; a folder's files by name, a sheet's rows top to
//   bottom). When a time is recorded but cannot be read, or is blank in a
//   sheet's time column, none of the student's times are compared: the
//   later in input order counts.
//
// `chain` holds the submissions that may count, in input order (at least
// one); `when` gives each one's time. Returns the one that counts, and
// fills `why` for each other.
template <typename When, typename Source>
std::size_t latest_of(const std::vector<std::size_t>& chain, const When& when, const Source& source,
                      const std::vector<Place>& places, std::unordered_map<std::size_t, std::string>& why) {
  const std::size_t last = chain.back();
  std::vector<HandedIn> times;
  times.reserve(chain.size());
  for (const std::size_t k : chain) times.push_back(when(k));
  const auto noun = [&](std::size_t k) { return places[k].line ? "row" : "file"; };
  for (std::size_t j = 0; j < chain.size(); ++j) {
    if (times[j].seconds) continue;
    for (const std::size_t k : chain)
      if (k != last)
        why[k] = fmt::format("superseded by the later submission {} in input order: {}, so times are not compared",
                             source(last), unreadable_time(times[j], source(chain[j])));
    return last;
  }
  std::size_t best = 0;
  for (std::size_t j = 1; j < chain.size(); ++j)
    if (*times[j].seconds >= *times[best].seconds) best = j;
  const HandedIn& counted = times[best];
  for (std::size_t j = 0; j < chain.size(); ++j) {
    if (j == best) continue;
    const HandedIn& t = times[j];
    const std::size_t k = chain[j];
    const std::string mine = t.what == counted.what ? t.text : t.what + " " + t.text;
    if (*t.seconds != *counted.seconds)
      why[k] = fmt::format("superseded by {} ({} {}, later than this {}'s {})", source(chain[best]), counted.what,
                           counted.text, noun(k), mine);
    else if (places[k].file == places[chain[best]].file && t.what == "modified")
      why[k] = fmt::format("superseded by the later row {} (the sheet records no time of its rows)", source(chain[best]));
    else if (t.what == counted.what && t.text == counted.text)
      why[k] = fmt::format("superseded by {} (both {} {}; of equal times, the later in input order counts)",
                           source(chain[best]), counted.what, counted.text);
    else
      why[k] = fmt::format("superseded by {} ({} {}, the same time as this {}'s {}; of equal times, the later in "
                           "input order counts)",
                           source(chain[best]), counted.what, counted.text, noun(k), mine);
  }
  return chain[best];
}

// True when some row of the sheet fills in an answer cell. Rows are read
// until one does: the first, in a sheet of answers.
bool answers_any(const SheetReader& sheet) {
  Submission s;
  for (std::size_t r = 0; r < sheet.rows(); ++r) {
    sheet.submission(r, s);
    for (const auto& [question, parts] : s.answers)
      for (const auto& [part, answer] : parts)
        for (const std::vector<std::string>& row : answer.rows)
          for (const std::string& cell : row)
            if (!cell.empty()) return true;
  }
  return false;
}

}  // namespace

Submission read_submission_file(std::string_view text, const std::string& path, const std::string& source,
                                const ReadLimits& limits) {
  return is_notebook_name(path) ? read_notebook(text, source, limits) : read_answer_file(text, source, limits);
}

InputList input_files(const std::vector<std::string>& inputs, const std::string& out_dir) {
  InputList list;
  const fs::path out = absolute_normal(out_dir);
  for (const std::string& input : inputs) {
    if (!out_dir.empty() && is_within(absolute_normal(input), out))
      throw Error(input, 0, 0,
                  fmt::format("is inside --out '{}'; reports are never marked: choose another --out", shown_path(out_dir)));
    std::error_code ec;
    // A path that is not there is a typo ("form.cvs"), not a class of one
    // unreadable file: stop before anything is written.
    if (fs::status(input, ec).type() == fs::file_type::not_found)
      throw Error(shown_path(input), 0, 0, "no such file or folder");
    if (fs::is_directory(input, ec)) {
      try {
        add_folder(input, out_dir, list);
      } catch (const Error& e) {
        list.notices.push_back({shown_path(input) + ": " + e.message() + "; nothing in it was marked", true});
      }
    }
    else list.files.push_back({input, extension(input) == ".csv", std::string(), std::string()});
  }
  return list;
}

void Inputs::take(std::size_t i, Submission& s) {
  const Place& place = submissions[i];
  if (parsed[place.file]) s = std::move(*parsed[place.file]);
  else sheets[place.file]->submission(place.row, s);
  s.source = source(i);
  if (auto flag = flags.find(i); flag != flags.end()) s.notes.insert(s.notes.begin(), flag->second);
  if (auto match = matched.find(i); match != matched.end()) {
    s.student = students[i];  // the variant follows the roster's id
    if (!match->second.note.empty()) s.notes.insert(s.notes.begin(), match->second.note);
  }
}

std::string Inputs::superseded_reason(std::size_t i) const {
  if (superseding[i] == counts) return std::string();
  const auto why = superseded_why.find(i);
  return why == superseded_why.end() ? std::string() : why->second;
}

Inputs read_inputs(InputList list, unsigned jobs, const ColumnChoice& sheet_columns,
                   const StudentMatcher& counts_as) {
  // A MOOC's sheet of 100,000 learners is some 20 MB; 256 MiB leaves room.
  ReadLimits limits;
  limits.max_sheet_bytes = std::size_t{256} << 20;
  limits.max_sheet_rows = 1'000'000;
  limits.max_sheet_cells = 50'000'000;
  limits.sheet_columns = sheet_columns;
  Inputs in;
  in.notices = std::move(list.notices);
  const std::size_t n = list.files.size();
  for (const InputFile& f : list.files) {
    in.files.push_back(f.path);
    in.shown.push_back(shown_path(f.path));
  }
  in.parsed.resize(n);
  in.sheet_texts.resize(n);
  in.sheets.resize(n);
  // Answer files in full, on every core; sheets row by row for their student column.
  parallel_for(n, jobs, [&](std::size_t i) {
    if (!list.files[i].sheet) in.parsed[i] = read_answer_path(list.files[i], in.shown[i], limits);
  });
  std::vector<std::size_t> file_of;  // per submission: its input file
  std::vector<std::string> written_time;  // per submission: the time it records, as written, or ""
  std::vector<DateOrder> date_order(n, DateOrder::month_first);  // per sheet: how its year-last dates read
  auto add = [&](const Place& place, std::string student, std::string time,
                 const std::vector<std::string>& others = {}, bool readable = true) {
    if (counts_as && readable)
      if (CountsAs as = counts_as(student, others); !as.student.empty() && as.student != student) {
        in.matched.emplace(in.submissions.size(), Inputs::Matched{student, std::move(as.note)});
        student = std::move(as.student);
      }
    in.submissions.push_back(place);
    in.students.push_back(std::move(student));
    file_of.push_back(place.file);
    written_time.push_back(std::move(time));
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (in.parsed[i]) {
      const Submission& s = *in.parsed[i];
      add(Place{i, 0, 0}, s.unreadable.empty() ? s.student : std::string(), s.submitted, {}, s.unreadable.empty());
      continue;
    }
    std::vector<RowIdentity> rows;  // who each row is from, once the sheet is good
    try {
      in.sheet_texts[i] = read_file(in.files[i], limits.max_sheet_bytes);
      in.sheets[i] = std::make_unique<SheetReader>(
          in.sheet_texts[i], in.files[i], limits,
          [&](RowIdentity&& who) { rows.push_back(std::move(who)); },
          jobs);
      if (const std::vector<std::string>& unknown = in.sheets[i]->unknown_columns(); !unknown.empty()) {
        // One line however many: a header of junk must not make reports of junk.
        constexpr std::size_t shown_columns = 10;
        std::string names;
        for (std::size_t c = 0; c < std::min(unknown.size(), shown_columns); ++c)
          names += (c ? ", '" : "'") + unknown[c] + "'";
        if (unknown.size() > shown_columns) names += fmt::format(" and {} more", unknown.size() - shown_columns);
        in.notices.push_back({unknown.size() == 1
                                  ? fmt::format("{}: column {} is not a cell of any question and was not marked; title "
                                                "it as attnmark template RUBRIC --format form lists, or map it with "
                                                "--columns MAP.csv",
                                                in.shown[i], names)
                                  : fmt::format("{}: {} columns are not cells of any question and were not marked: {}; "
                                                "title them as attnmark template RUBRIC --format form lists, or map "
                                                "them with --columns MAP.csv",
                                                in.shown[i], unknown.size(), names),
                              true});
      }
      if (in.sheets[i]->rows() > 0 && !answers_any(*in.sheets[i]))
        in.notices.push_back({fmt::format("{}: no row answers any question, so every student in it is unanswered; "
                                          "title its columns as attnmark template RUBRIC --format form lists, or map "
                                          "them with --columns MAP.csv",
                                          in.shown[i]),
                              true});
    } catch (const ColumnError&) {
      throw;  // the teacher's to fix with --id-column: no reports from a guess
    } catch (const Error& e) {
      in.parsed[i] = unreadable(in.shown[i], error_text(e, in.shown[i]));
      in.sheets[i].reset();
      std::string().swap(in.sheet_texts[i]);
      add(Place{i, 0, 0}, std::string(), std::string(), {}, false);
      continue;
    }
    if (!in.sheets[i]->submitted_column().empty()) {
      std::vector<std::string> times;
      times.reserve(rows.size());
      for (const RowIdentity& row : rows) times.push_back(row.submitted);
      date_order[i] = date_order_of(times);
    }
    for (std::size_t row = 0; row < rows.size(); ++row)
      add(Place{i, row, rows[row].line}, std::move(rows[row].student), std::move(rows[row].submitted),
          rows[row].others);
  }

  // Which submission counts for each student. A file in a folder agrees
  // with its student when its folders or its name name them; one that does
  // not (a classmate's id in s04/) never replaces one that does.
  const std::size_t count = in.submissions.size();
  in.superseding.assign(count, Inputs::counts);
  // Each student's submissions in input order, as a chain: the first and the
  // last of each (by id), and each one's next.
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::unordered_map<std::string_view, std::pair<std::size_t, std::size_t>> by_student;
  std::vector<std::size_t> next(count, none);
  by_student.reserve(count);
  for (std::size_t k = 0; k < count; ++k) {
    if (in.students[k].empty()) continue;
    const auto [it, fresh] = by_student.try_emplace(in.students[k], k, k);
    if (!fresh) {
      next[it->second.second] = k;
      it->second.second = k;
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    const InputFile& file = list.files[file_of[k]];
    if (file.place.empty() || in.students[k].empty()) continue;
    const fs::path place(file.place);
    const std::string stem = place.stem().string();
    // The id as the file gives it (an email the roster matched) names the
    // student as well as the roster id it counts as.
    const auto match = in.matched.find(k);
    const std::string& given = match == in.matched.end() ? in.students[k] : match->second.given;
    const auto names = [&](std::string_view name) {
      return names_student(name, in.students[k]) || (!given.empty() && names_student(name, given));
    };
    bool agrees = names(stem);
    for (const fs::path& folder : place.parent_path()) agrees = agrees || names(folder.string());
    if (agrees) continue;
    const std::string says = given.empty() ? in.students[k] : given;
    if (place.has_parent_path()) {
      in.flags[k] = fmt::format("the file says student {} but sits in '{}/'", quoted_printable(says),
                                shown_path(place.parent_path().string()));
    } else if (auto other = by_student.find(stem); other != by_student.end() && stem != in.students[k]) {
      in.flags[k] = fmt::format("the file says student {} but is named {}", quoted_printable(says),
                                quoted_printable(place.filename().string()));
    }
  }
  // Each time is looked up only for a student with several submissions.
  std::unordered_map<std::size_t, std::optional<std::int64_t>> modified;  // input file → its modification time
  const auto handed_in = [&](std::size_t k) {
    const std::size_t file = file_of[k];
    const std::string& written = written_time[k];
    const std::string column = in.sheets[file] ? in.sheets[file]->submitted_column() : std::string();
    if (!written.empty() || !column.empty())
      return HandedIn{parse_submitted_time(written, date_order[file]), column.empty() ? "submitted" : column,
                      printable(written, 60)};
    auto [at, fresh] = modified.try_emplace(file);
    if (fresh) at->second = modified_seconds(in.files[file]);
    return HandedIn{at->second, "modified", at->second ? utc_text(*at->second) : std::string()};
  };
  const auto source = [&](std::size_t k) { return in.source(k); };
  std::vector<std::size_t> chain, agreeing;
  for (const auto& [student, ends] : by_student) {
    if (ends.first == ends.second) continue;  // one submission: it counts
    chain.clear();
    agreeing.clear();
    for (std::size_t k = ends.first; k != none; k = next[k]) {
      chain.push_back(k);
      if (!in.flags.count(k)) agreeing.push_back(k);
    }
    // A file whose place names another student never replaces one that agrees.
    const std::size_t counted =
        latest_of(agreeing.empty() ? chain : agreeing, handed_in, source, in.submissions, in.superseded_why);
    for (const std::size_t k : chain)
      if (k != counted) {
        in.superseding[k] = counted;
        if (auto flag = in.flags.find(k); flag != in.flags.end())
          in.superseded_why[k] =
              fmt::format("not counted: {}; {}'s submission {} counts", flag->second, student, in.source(counted));
      }
  }
  for (const auto& [k, flag] : in.flags)
    in.notices.push_back({fmt::format("{}: {}; check who handed it in", in.source(k), flag), true});
  std::sort(in.notices.begin() + static_cast<std::ptrdiff_t>(in.notices.size() - in.flags.size()), in.notices.end(),
            [](const InputNotice& a, const InputNotice& b) { return a.text < b.text; });
  return in;
}

}  // namespace attnmark
