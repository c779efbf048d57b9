// attnmark validate RUBRIC... [--self-test [--seeds N]]: checks exercise definitions,
// and with --self-test that they mark fairly.
#include "cli/validate.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <ostream>

#include "attnmark/base/error.h"
#include "cli/options.h"
#include "attnmark/lesson/self_test.h"
#include "attnmark/lesson/variant.h"
#include "readers/rubric_loader.h"

namespace attnmark {

namespace {

// Prints what the self-test found; returns whether the rubric marks fairly.
bool report_self_test(const std::string& path, const SelfTest& t, std::uint64_t seed, std::ostream& out) {
  constexpr std::size_t listed = 5;  // problems listed per part; the rest counted
  out << fmt::format("{}: self-test on {} students' variants (seed {})\n", path, t.variants, seed);
  std::size_t problems = 0;
  for (const SelfTestPart& p : t.parts) {
    std::string codes;
    for (const auto& [code, counts] : p.named)
      codes += fmt::format("{}{} {}/{}", codes.empty() ? "" : ", ", code, counts.second, counts.first);
    out << fmt::format("  {} {}: {}\n", p.question, part_label(p.part),
                       codes.empty() ? "no mistake the grader knows gives other numbers here"
                                     : "named exactly (of times made): " + codes);
    for (const auto& [pair, n] : p.alike)
      out << fmt::format("    {} and {} give the same numbers on {} variant{}: no marker can tell them apart there "
                         "(a constraint can keep them apart)\n",
                         pair.first, pair.second, n, n == 1 ? "" : "s");
    for (std::size_t i = 0; i < p.wrongly_named.size() && i < listed; ++i)
      out << "    unfair: " << p.wrongly_named[i] << "\n";
    if (p.wrongly_named.size() > listed) out << fmt::format("    ... and {} more\n", p.wrongly_named.size() - listed);
    problems += p.wrongly_named.size();
  }
  if (t.unfair_spellings.empty()) {
    out << fmt::format("  right answers in {} spellings: full marks on every variant\n", t.spellings);
  } else {
    out << fmt::format("  right answers that lost marks ({}):\n", t.unfair_spellings.size());
    for (std::size_t i = 0; i < t.unfair_spellings.size() && i < listed; ++i)
      out << "    unfair: " << t.unfair_spellings[i] << "\n";
    if (t.unfair_spellings.size() > listed) out << fmt::format("    ... and {} more\n", t.unfair_spellings.size() - listed);
    problems += t.unfair_spellings.size();
  }
  if (t.unfair_rules.empty()) {
    out << fmt::format("  follow-through and most attended, {} cases: honest slips carry in full, equal scores carry "
                       "nothing, the most attended token in quotes or with its weight gets full marks\n",
                       t.rule_cases);
  } else {
    out << fmt::format("  rules broken ({} of {} cases):\n", t.unfair_rules.size(), t.rule_cases);
    for (std::size_t i = 0; i < t.unfair_rules.size() && i < listed; ++i) out << "    unfair: " << t.unfair_rules[i] << "\n";
    if (t.unfair_rules.size() > listed) out << fmt::format("    ... and {} more\n", t.unfair_rules.size() - listed);
    problems += t.unfair_rules.size();
  }
  out << (problems == 0 ? fmt::format("{}: fair: every mistake is named exactly and right answers get full marks\n", path)
                        : fmt::format("{}: {} case{} would be marked unfairly\n", path, problems, problems == 1 ? "" : "s"));
  return problems == 0;
}

}  // namespace

void declare_validate(CLI::App& sub, ValidateOptions& options) {
  sub.add_option("RUBRIC", options.rubrics, "Rubric files (YAML)")->required()->type_name("FILE");
  sub.add_flag("--self-test", options.self_test,
               "Also mark every mistake the grader knows, and right answers in every spelling, on many variants");
  sub.add_option("--seeds", options.seeds, "With --self-test: how many students' variants (default 40)")
      ->type_name(number_type_name);
}

int run_validate(const ValidateOptions& options, std::ostream& out, std::ostream& err) {
  if (options.rubrics.empty()) throw Error("validate: expected one or more rubric files");
  if (options.seeds && !options.self_test) throw Error("validate: --seeds goes with --self-test");
  const int variants = options.seeds ? static_cast<int>(parse_unsigned(*options.seeds, 1, 1000, "--seeds")) : 40;
  int status = 0;
  for (const std::string& path : options.rubrics) {
    try {
      const Rubric rubric = load_rubric_argument(path, "validate");
      // Draw a few variants so impossible constraints show now, not in class.
      const std::uint64_t seed = rubric.seed.value_or(0);
      for (int i = 0; i < 20; ++i) make_variant(rubric, seed, fmt::format("validate-{}", i));
      out << fmt::format("{}: ok ({} question{})\n", path, rubric.questions.size(),
                         rubric.questions.size() == 1 ? "" : "s");
      if (options.self_test && !report_self_test(path, self_test(rubric, seed, variants), seed, out)) status = std::max(status, 1);
    } catch (const Error& e) {
      err << "attnmark: " << e.report() << "\n";
      status = 2;
    }
  }
  return status;
}

}  // namespace attnmark
