#include "marking/inputs.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <unordered_set>
#include <utility>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "base/threads.h"
#include "readers/notebook_reader.h"

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
  if (auto written = written_ids.find(i); written != written_ids.end()) {
    s.student = students[i];
    s.notes.insert(s.notes.begin(), fmt::format("the file says student {}; marked as the roster's {} (--near-ids match)",
                                                quoted_printable(written->second), quoted_printable(students[i])));
  }
}

std::string Inputs::superseded_reason(std::size_t i) const {
  const std::size_t counted = superseding[i];
  if (counted == counts) return std::string();
  if (auto flag = flags.find(i); flag != flags.end())
    return fmt::format("not counted: {}; {}'s submission {} counts", flag->second, students[i], source(counted));
  return "superseded by the later submission " + source(counted);
}

Inputs read_inputs(InputList list, unsigned jobs, const ColumnChoice& sheet_columns,
                   const std::function<std::string(const std::string&)>& counts_as) {
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
  auto add = [&](const Place& place, std::string student) {
    if (counts_as && !student.empty())
      if (std::string as = counts_as(student); as != student) {
        in.written_ids.emplace(in.submissions.size(), std::move(student));
        student = std::move(as);
      }
    in.submissions.push_back(place);
    in.students.push_back(std::move(student));
    file_of.push_back(place.file);
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
          [&](int line, const std::string& student) { rows.emplace_back(line, student); }, jobs);
      if (const std::vector<std::string>& unknown = in.sheets[i]->unknown_columns(); !unknown.empty()) {
        // One line however many: a header of junk must not make reports of junk.
        constexpr std::size_t shown_columns = 10;
        std::string names;
        for (std::size_t c = 0; c < std::min(unknown.size(), shown_columns); ++c)
          names += (c ? ", '" : "'") + unknown[c] + "'";
        if (unknown.size() > shown_columns) names += fmt::format(" and {} more", unknown.size() - shown_columns);
        in.notices.push_back({unknown.size() == 1
                                  ? fmt::format("{}: column {} is not a cell of any question; it was not marked",
                                                in.shown[i], names)
                                  : fmt::format("{}: {} columns are not cells of any question; they were not marked: {}",
                                                in.shown[i], unknown.size(), names),
                              false});
      }
    } catch (const ColumnError&) {
      throw;  // the teacher's to fix with --id-column: no reports from a guess
    } catch (const Error& e) {
      in.parsed[i] = unreadable(in.shown[i], error_text(e, in.shown[i]));
      in.sheets[i].reset();
      std::string().swap(in.sheet_texts[i]);
      add(Place{i, 0, 0}, std::string());
      continue;
    }
    for (std::size_t row = 0; row < rows.size(); ++row) add(Place{i, row, rows[row].first}, std::move(rows[row].second));
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
    bool agrees = names_student(stem, in.students[k]);
    for (const fs::path& folder : place.parent_path()) agrees = agrees || names_student(folder.string(), in.students[k]);
    if (agrees) continue;
    if (place.has_parent_path()) {
      in.flags[k] = fmt::format("the file says student {} but sits in '{}/'", quoted_printable(in.students[k]),
                                shown_path(place.parent_path().string()));
    } else if (auto other = by_student.find(stem); other != by_student.end() && stem != in.students[k]) {
      in.flags[k] = fmt::format("the file says student {} but is named {}", quoted_printable(in.students[k]),
                                quoted_printable(place.filename().string()));
    }
  }
  for (const auto& [student, ends] : by_student) {
    if (ends.first == ends.second) continue;  // one submission: it counts
    std::size_t counted = ends.second;
    for (std::size_t k = ends.first; k != none; k = next[k])
      if (!in.flags.count(k)) counted = k;  // the last that agrees, if any
    for (std::size_t k = ends.first; k != none; k = next[k])
      if (k != counted) in.superseding[k] = counted;
  }
  for (const auto& [k, flag] : in.flags)
    in.notices.push_back({fmt::format("{}: {}; check who handed it in", in.source(k), flag), true});
  std::sort(in.notices.begin() + static_cast<std::ptrdiff_t>(in.notices.size() - in.flags.size()), in.notices.end(),
            [](const InputNotice& a, const InputNotice& b) { return a.text < b.text; });
  return in;
}

}  // namespace attnmark
