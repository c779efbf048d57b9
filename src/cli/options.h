// cli/options.h: what several commands share: the options they all declare
// alike (one helper each) and the strict parsers of option values.
//
//   add_seed_option(sub, o.seed, "Seed; default: the rubric's seed:");
//   ...parsed, then in the command:
//   const std::uint64_t seed = parse_seed(*o.seed);        // "-1" is refused, not 2^64 − 1
//   const unsigned jobs = parse_jobs(o.jobs);               // absent: every core
//   parse_unsigned("65536", 0, 65535, "--port");            // throws Error
//
// Numbers are taken from the command line as text and parsed here, after
// CLI11 is done: CLI11 2.1 reads "--seed -1" into an unsigned as 2^64 − 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "attnmark/lesson/rubric.h"
#include "readers/columns.h"
#include "writers/theme.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace attnmark {

// `text` as a whole number from `min` to `max`: decimal digits only, so
// "-1", "+1", " 1", "1 ", "0x10", "1e3" and "" are refused, never read as
// something else. Throws Error ("--jobs: expected a whole number from 1 to
// 256; got '0'"); `description` names the option.
std::uint64_t parse_unsigned(std::string_view text, std::uint64_t min, std::uint64_t max, std::string_view description);

// `text` as a size in bytes from `min` to `max`: a whole number (as
// parse_unsigned reads one), then KiB, MiB or GiB, or nothing for bytes
// ("2MiB", "512KiB", "1GiB", "4096"). Throws Error ("--db-max: expected a
// size like 2MiB, 512KiB or 1GiB from 1 MiB to 1024 GiB; got '-1'").
std::uint64_t parse_size(std::string_view text, std::uint64_t min, std::uint64_t max, std::string_view description);

// --seed: 0 to 2^64 − 1. Throws Error ("--seed: ...").
std::uint64_t parse_seed(const std::string& text);

// A new seed when none is given: 63 bits from the system's random bytes
// (1 to 2^63 − 1), so that no student can try every seed against the
// numbers on their own worksheet.
std::uint64_t fresh_seed();

// --jobs: 1 to 256; absent means every core. Throws Error ("--jobs: ...").
unsigned parse_jobs(const std::optional<std::string>& text);

// The seconds since 1970 of a date given as YYYY-MM-DD (midnight UTC) or
// YYYY-MM-DDTHH:MM[:SS][Z] (UTC). Throws Error ("--close: expected a date
// like 2026-12-24 or 2026-12-24T17:00Z (UTC); got 'x'"); `option` names it.
std::int64_t parse_date(const std::string& option, const std::string& text);

// Without `force`, the file `output` (-o) names is never replaced (checked
// before any work, so a refused run costs nothing); a folder is never a
// file's name. Throws Error ("ws.html: already exists; pass --force to
// replace it").
void refuse_to_replace(const std::string& output, bool force);

// The rubric a command's argument names, for `command` (mark, generate,
// key, template, autograde). A class's input in its place (a folder, a CSV
// sheet, a notebook, an answer file) is the slip of leaving the rubric out,
// so it is said as that, with an example, rather than as the rubric reader's
// complaint about the input's keys; any other problem is the rubric reader's
// own Error.
//   load_rubric_argument("answers/", "mark");
//   // throws "answers/: is not a rubric (the first argument is the rubric,
//   //         e.g. attnmark mark rubrics/lesson.yaml answers/)"
Rubric load_rubric_argument(const std::string& path, std::string_view command);

// Throws load_rubric_argument's "is not a rubric" Error when `path` is
// plainly a class's input; returns otherwise (a file that cannot be read,
// or a rubric with mistakes, is left to the rubric reader).
void refuse_input_as_rubric(const std::string& path, std::string_view command);

// What --help shows for an option that takes a whole number (--seed NUMBER):
// such options are declared on text (see above), which CLI11 would show as TEXT.
inline constexpr const char* number_type_name = "NUMBER";

// --theme and --text-size of a command that writes HTML.
struct PageOptions {
  std::string theme = "default";   // default, cream, tint, high-contrast
  std::string text_size = "normal";  // normal, large, x-large
  HtmlStyle style() const { return html_style(theme, text_size); }  // throws Error on a bad value
};

// The shared options. Each declares one option (or a pair) on `sub`, bound
// to the caller's field; `help` is the line --help shows, which says what
// the option means to that command. Those returning CLI::Option* let the
// caller refine it.
CLI::Option* add_seed_option(CLI::App& sub, std::optional<std::string>& seed, const std::string& help);  // --seed NUMBER
void add_jobs_option(CLI::App& sub, std::optional<std::string>& jobs, const std::string& help);         // --jobs NUMBER
void add_output_option(CLI::App& sub, std::string& output, const std::string& help);  // -o,--output,--out PATH
void add_roster_option(CLI::App& sub, std::string& roster, const std::string& help);  // --roster CSV
void add_score_option(CLI::App& sub, std::string& score, const std::string& help);    // --score best|last
void add_page_options(CLI::App& sub, PageOptions& page);                              // --theme, --text-size
// --id-column and --name-column; `where` says what they are the columns of ("the roster").
void add_column_options(CLI::App& sub, ColumnChoice& columns, const std::string& where);

}  // namespace attnmark
