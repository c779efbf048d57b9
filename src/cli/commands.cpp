#include "cli/commands.h"

#include <memory>

#include "cli/autograde.h"
#include "cli/check.h"
#include "cli/generate.h"
#include "cli/mark.h"
#include "cli/serve.h"
#include "cli/validate.h"

namespace attnmark {

namespace {

// One entry: the command's options live in an Options of its own, made
// when main() declares them and read by `run` once they are parsed.
template <typename Options>
CommandInfo command(const char* name, const char* help, const char* example, void (*declare)(CLI::App&, Options&),
                    int (*run)(const Options&, std::ostream&, std::ostream&)) {
  return {name, help, example, [declare, run](CLI::App& sub) -> Runner {
            const auto options = std::make_shared<Options>();
            declare(sub, *options);
            return [options, run](std::ostream& out, std::ostream& err) { return run(*options, out, err); };
          }};
}

}  // namespace

const std::vector<CommandInfo>& command_table() {
  static const std::vector<CommandInfo> table = {
      command("generate", "Write a student's worksheet (Markdown, HTML, LaTeX, JSON or a Jupyter notebook)",
              "attnmark generate rubrics/lesson.yaml --student s001 -o ws.html", declare_generate, run_generate),
      command("key", "Write a student's answer key with every worked step",
              "attnmark key rubrics/lesson.yaml --student s001 -o key.html", declare_key, run_generate),
      command("template",
              "Write the blank answer file (YAML) a student fills in, or an online form's questions (--format form)",
              "attnmark template rubrics/lesson.yaml --student s001 -o s001.yaml", declare_template, run_generate),
      command("validate", "Check exercise definitions (rubrics)", "attnmark validate rubrics/lesson.yaml --self-test",
              declare_validate, run_validate),
      command("mark", "Mark a class: answer files, folders or CSV sheets; writes a gradebook and reports",
              "attnmark mark rubrics/class-demo.yaml fixtures/class/answers -o out/class", declare_mark, run_mark),
      command("check", "Check your own answers before handing them in", "attnmark check s001.yaml", declare_check,
              run_check),
      command("autograde", "Mark one submission as the autograder of Gradescope or PrairieLearn",
              "attnmark autograde gradescope rubrics/lesson.yaml --seed 2026", declare_autograde, run_autograde),
      command("serve", "Serve the class's self-check page and JSON API; every attempt kept in SQLite",
              "attnmark serve rubrics/lesson.yaml --seed 2026 --roster roster.csv --db class.sqlite", declare_serve,
              run_serve),
      command("access-codes", "Print each student's access code for a served class (CSV)",
              "attnmark access-codes --db class.sqlite", declare_access_codes, run_access_codes),
  };
  return table;
}

}  // namespace attnmark
