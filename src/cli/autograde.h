// cli/autograde.h: autograde PLATFORM RUBRIC: one submission marked as the
// autograder of Gradescope or PrairieLearn, or gradescope-pack's zip.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace attnmark {

struct AutogradeOptions {
  std::string platform;              // gradescope, prairielearn or gradescope-pack
  std::vector<std::string> rubrics;  // RUBRIC: one file
  std::optional<std::string> seed;   // --seed (parse_seed)
  std::string root;                  // --root (default /autograder, or /grade)
  std::string student;               // --student, when the submission does not say
  std::string roster;                // --roster: the class roster the platform's ids are looked up in
  std::string binary;                // --binary: the static attnmark gradescope-pack ships
  std::string output;                // -o: gradescope-pack's zip
  bool force = false;                // --force: replace the zip
};

void declare_autograde(CLI::App& sub, AutogradeOptions& options);
int run_autograde(const AutogradeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace attnmark
