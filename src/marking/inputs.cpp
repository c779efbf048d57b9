#include "marking/inputs.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <unordered_map>
#include <utility>

#include "base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "base/threads.h"

namespace attnmark {
namespace fs = std::filesystem;
namespace {

bool is_sheet(const std::string& path) {
  return lower(fs::path(path).extension().string()) == ".csv";
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

}  // namespace

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


}  // namespace attnmark
