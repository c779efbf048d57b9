#include "cli/options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <system_error>
#include <thread>

#include "attnmark/base/error.h"
#include "base/crypto.h"
#include "base/files.h"
#include "base/text.h"
#include "readers/rubric_loader.h"
#include "readers/yaml_tree.h"
#include "serve/limits.h"

namespace attnmark {

std::uint64_t parse_unsigned(std::string_view text, std::uint64_t min, std::uint64_t max, std::string_view description) {
  // from_chars reads an unsigned number as digits only: no sign, no spaces,
  // no base prefix; an empty text or one past 2^64 − 1 is an error too.
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || stop != end || value < min || value > max)
    throw Error(fmt::format("{}: expected a whole number from {} to {}; got {}", description, min, max,
                            quoted_printable(text)));
  return value;
}

std::uint64_t parse_size(std::string_view text, std::uint64_t min, std::uint64_t max, std::string_view description) {
  const auto fail = [&]() -> std::uint64_t {
    throw Error(fmt::format("{}: expected a size like 2MiB, 512KiB or 1GiB from {} to {}; got {}", description,
                            byte_size_text(static_cast<std::int64_t>(min)), byte_size_text(static_cast<std::int64_t>(max)),
                            quoted_printable(text)));
  };
  std::uint64_t unit = 1;
  std::string_view digits = text;
  for (const auto& [suffix, bytes] : {std::pair{"KiB", kibibyte}, {"MiB", mebibyte}, {"GiB", gibibyte}})
    if (text.ends_with(suffix)) {
      unit = static_cast<std::uint64_t>(bytes);
      digits = text.substr(0, text.size() - 3);
    }
  std::uint64_t value = 0;
  const char* end = digits.data() + digits.size();
  const auto [stop, ec] = std::from_chars(digits.data(), end, value);
  if (ec != std::errc() || stop != end || value > max / unit || value * unit < min || value * unit > max) fail();
  return value * unit;
}

std::uint64_t parse_seed(const std::string& text) {
  return parse_unsigned(text, 0, std::numeric_limits<std::uint64_t>::max(), "--seed");
}

std::uint64_t fresh_seed() {
  std::uint64_t seed = 0;
  for (const char c : random_bytes(8)) seed = (seed << 8) | static_cast<unsigned char>(c);
  return 1 + (seed >> 1) % ((std::uint64_t{1} << 63) - 1);
}

unsigned parse_jobs(const std::optional<std::string>& text) {
  if (!text) return std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(parse_unsigned(*text, 1, 256, "--jobs"));
}

std::int64_t parse_date(const std::string& option, const std::string& text) {
  const auto fail = [&]() -> std::int64_t {
    throw Error(fmt::format("{}: expected a date like 2026-12-24 or 2026-12-24T17:00Z (UTC); got {}", option,
                            quoted_printable(text)));
  };
  std::tm tm{};
  int fields[6] = {0, 0, 0, 0, 0, 0};
  // YYYY-MM-DD, then optionally THH:MM, :SS and Z.
  const char* p = text.data();
  const char* end = text.data() + text.size();
  const char separators[] = {'-', '-', 'T', ':', ':'};
  for (int i = 0; i < 6; ++i) {
    if (i > 0) {
      if (p == end) {
        if (i == 3 || i == 5) break;
        fail();
      }
      if (*p != separators[i - 1] && !(i == 3 && *p == ' ')) {
        if (i == 5 && *p == 'Z') break;
        if (i == 3) break;
        fail();
      }
      ++p;
    }
    const char* start = p;
    const auto [stop, ec] = std::from_chars(p, end, fields[i]);
    if (ec != std::errc() || stop - start != (i == 0 ? 4 : 2)) fail();
    p = stop;
  }
  if (p != end && !(p + 1 == end && *p == 'Z')) fail();
  if (fields[1] < 1 || fields[1] > 12 || fields[2] < 1 || fields[2] > 31 || fields[3] > 23 || fields[4] > 59 ||
      fields[5] > 59)
    fail();
  tm.tm_year = fields[0] - 1900;
  tm.tm_mon = fields[1] - 1;
  tm.tm_mday = fields[2];
  tm.tm_hour = fields[3];
  tm.tm_min = fields[4];
  tm.tm_sec = fields[5];
  const std::time_t t = timegm(&tm);
  if (tm.tm_mday != fields[2]) fail();  // 2026-02-30 rolled over into March
  return static_cast<std::int64_t>(t);
}

void refuse_to_replace(const std::string& output, bool force) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::symlink_status(output, ec);
  if (ec || !std::filesystem::exists(status)) return;
  if (std::filesystem::is_directory(status)) throw Error(output, 0, 0, "is a folder; -o takes a file name here");
  if (!force) throw Error(output, 0, 0, "already exists; pass --force to replace it");
}

namespace {

// The Error for a class's input given where the rubric goes, with an example
// of `command`'s arguments in their order.
Error not_a_rubric(const std::string& path, std::string_view command) {
  const std::string shown = printable(path, 200);
  const std::string usage =
      command == "mark"        ? fmt::format("the first argument is the rubric, e.g. attnmark mark rubrics/lesson.yaml {}", shown)
      : command == "autograde" ? std::string("the rubric comes after the platform, e.g. attnmark autograde gradescope "
                                             "rubrics/lesson.yaml")
      : command == "validate"  ? std::string("validate checks rubrics, e.g. attnmark validate rubrics/lesson.yaml; "
                                             "attnmark check RUBRIC FILE checks answers")
      : command == "check"     ? fmt::format("the first argument is the rubric, e.g. attnmark check rubrics/lesson.yaml {}", shown)
                               : fmt::format("the first argument is the rubric, e.g. attnmark {} rubrics/lesson.yaml "
                                             "--student s001",
                                             command);
  return Error(shown, 0, 0, fmt::format("is not a rubric ({})", usage));
}

// At most what the rubric reader reads of a rubric (1 MiB); an answer file is far smaller.
constexpr std::size_t max_rubric_argument_bytes = std::size_t(1) << 20;

}  // namespace

void refuse_input_as_rubric(const std::string& path, std::string_view command) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw not_a_rubric(path, command);
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".csv" || ext == ".tsv" || ext == ".ipynb") throw not_a_rubric(path, command);
  // An answer file (YAML or JSON) names its student and holds answers; a
  // rubric holds questions. Anything unreadable here is the reader's to say.
  bool answer_file = false;
  try {
    const YamlNode doc = parse_yaml(read_file(path, max_rubric_argument_bytes), path);
    answer_file = doc.is_map() && !doc.find("questions") && (doc.find("answers") || doc.find("student"));
  } catch (const Error&) {
    return;
  }
  if (answer_file) throw not_a_rubric(path, command);
}

Rubric load_rubric_argument(const std::string& path, std::string_view command) {
  try {
    return load_rubric_file(path);
  } catch (const Error&) {
    refuse_input_as_rubric(path, command);
    throw;
  }
}

CLI::Option* add_seed_option(CLI::App& sub, std::optional<std::string>& seed, const std::string& help) {
  return sub.add_option("--seed", seed, help)->type_name(number_type_name);
}

void add_jobs_option(CLI::App& sub, std::optional<std::string>& jobs, const std::string& help) {
  sub.add_option("--jobs", jobs, help)->type_name(number_type_name);
}

void add_output_option(CLI::App& sub, std::string& output, const std::string& help) {
  sub.add_option("-o,--output,--out", output, help)->type_name("PATH");
}

void add_roster_option(CLI::App& sub, std::string& roster, const std::string& help) {
  sub.add_option("--roster", roster, help)->type_name("CSV");
}

void add_score_option(CLI::App& sub, std::string& score, const std::string& help) {
  sub.add_option("--score", score, help)->default_str("best")->type_name("best|last");
}

void add_page_options(CLI::App& sub, PageOptions& page) {
  sub.add_option("--theme", page.theme, "HTML colours: default, cream, tint or high-contrast")
      ->default_str("default")
      ->type_name("THEME");
  sub.add_option("--text-size", page.text_size, "HTML text: normal, large or x-large")
      ->default_str("normal")
      ->type_name("SIZE");
}

void add_column_options(CLI::App& sub, ColumnChoice& columns, const std::string& where) {
  sub.add_option("--id-column", columns.id, "Header of the student id column in " + where)->type_name("HEADER");
  sub.add_option("--name-column", columns.name, "Header of the students' name column in " + where)
      ->type_name("HEADER");
}

}  // namespace attnmark
