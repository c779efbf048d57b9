// make_class: writes a synthetic class for the benchmarks, reproducibly.
//
//   make_class roster N OUT.csv                            a roster: student st000000 … and a name
//   make_class RUBRIC SEED N sheet OUT.csv [--keys K.jsonl]
//   make_class RUBRIC SEED N files OUT_DIR [--keys K.jsonl] [--templates DIR]
//
// `sheet` writes one CSV sheet, a row per student, as an online form exports
// it (timestamp, student, a quoted "Last, First" name, then a column per
// cell); `files` writes one YAML answer file per student.
//
// Each student's answers come from attnmark's own key for their variant:
// with --keys, the lines of `attnmark key RUBRIC --seed SEED --roster R
// --format jsonl` (checked number for number against the library's variant,
// so a key the CLI writes wrongly stops the build); without, the library's
// make_variant. With --templates (the folder `attnmark generate RUBRIC --seed
// SEED --roster R -o DIR` writes), each answer file is the student's own
// template, DIR/<student>.answers.yaml, with its ~ replaced; without, the
// same shape is written here.
//
// The mix (one PCG32 draw per student, so it is the same on every machine):
//   40%  right, rounded as asked (every 5th of them writes weights as a
//        percentage, "66.5%"; another 5th a decimal comma, "0,665")
//    5%  right but one decimal too few (imprecise)
//   10%  right, unrounded (12 decimals)
//   10%  hard attention (weight 1 on the top score)   7%  scores ÷ their total (no exp)
//    7%  K·Qᵀ (transposed scores)                    9%  a slip in one score, then the right method
//    6%  blank                                        6%  right but one unreadable cell ("6.6.5")
// and 2% (after the first ten) resubmit under an earlier student's id, so
// the earlier submission is a duplicate.
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "attnmark/base/error.h"
#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/pcg32.h"
#include "attnmark/lesson/variant.h"
#include "readers/rubric_loader.h"

using namespace attnmark;
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::runtime_error(message); }

std::string student_id(int i) { return fmt::format("st{:06}", i); }

// One question's reference answers, from the library's variant or a key line.
struct Reference {
  std::string id;
  bool one_token = false;
  std::vector<std::string> tokens;
  std::vector<Part> ask;
  std::vector<int> decimals;  // per ask
  Matrix values;              // what the output mixes (given, or asked with projections)
  std::map<Part, Matrix> numbers;  // every numeric part's reference; a row per query row
  std::vector<std::size_t> top;

  bool operator==(const Reference&) const = default;
};

Reference reference_of(const QuestionVariant& q) {
  Reference r;
  r.id = q.spec->id;
  r.one_token = q.spec->task == Task::one_token;
  r.tokens = q.tokens;
  r.values = q.values;
  for (Part p : q.spec->ask) {
    r.ask.push_back(p);
    r.decimals.push_back(q.spec->decimals(p));
    switch (p) {
      case Part::query:
      case Part::queries: r.numbers[p] = q.queries; break;
      case Part::keys: r.numbers[p] = q.keys; break;
      case Part::values: r.numbers[p] = q.values; break;
      case Part::scores: r.numbers[p] = q.scores; break;
      case Part::weights: r.numbers[p] = q.weights; break;
      case Part::output: r.numbers[p] = q.output; break;
      case Part::most_attended: break;
    }
  }
  // Mistakes need every step, asked or not.
  r.numbers[Part::scores] = q.scores;
  r.numbers[Part::weights] = q.weights;
  r.numbers[Part::output] = q.output;
  r.top = q.most_attended;
  return r;
}

std::vector<Reference> references_of(const Variant& v) {
  std::vector<Reference> out;
  for (const QuestionVariant& q : v.questions) out.push_back(reference_of(q));
  return out;
}

Part part_named(const std::string& name) {
  for (Part p : {Part::query, Part::queries, Part::keys, Part::values, Part::scores, Part::weights, Part::output,
                 Part::most_attended})
    if (name == part_name(p)) return p;
  fail("key names an unknown part '" + name + "'");
}

// A JSON vector or matrix as a Matrix (a vector is one row); null is masked.
Matrix matrix_of(const nlohmann::json& j) {
  auto number = [](const nlohmann::json& x) { return x.is_null() ? masked_score : x.get<double>(); };
  Matrix m;
  if (!j.is_array()) fail("key: expected an array of numbers");
  if (!j.empty() && j[0].is_array()) {
    for (const auto& row : j) {
      m.emplace_back();
      for (const auto& x : row) m.back().push_back(number(x));
    }
  } else {
    m.emplace_back();
    for (const auto& x : j) m.back().push_back(number(x));
  }
  return m;
}

// One line of `key --format jsonl`: the student and their references.
std::pair<std::string, std::vector<Reference>> references_of(const nlohmann::json& key) {
  std::vector<Reference> out;
  for (const auto& q : key.at("questions")) {
    Reference r;
    r.id = q.at("id").get<std::string>();
    r.one_token = q.at("task") == "one-token";
    r.tokens = q.at("tokens").get<std::vector<std::string>>();
    const auto& answers = q.at("answers");
    for (const auto& a : q.at("ask")) {
      const Part p = part_named(a.at("part").get<std::string>());
      r.ask.push_back(p);
      r.decimals.push_back(a.at("decimals").get<int>());
      if (p != Part::most_attended) r.numbers[p] = matrix_of(answers.at(part_name(p)));
    }
    r.values = matrix_of(answers.contains("values") ? answers.at("values") : q.at("inputs").at("values"));
    // The key only holds what is asked; the rest of the steps are worked out
    // the library's way (attention.h), and compared below like the rest.
    for (Part p : {Part::scores, Part::weights, Part::output})
      if (!r.numbers.count(p)) {
        if (p == Part::scores) fail(fmt::format("key {}: scores are not asked; use make_class without --keys", r.id));
        r.numbers[p] = p == Part::weights ? softmax_rows(r.numbers[Part::scores])
                                          : mix_values(r.numbers[Part::weights], r.values);
      }
    r.top = most_attended(r.numbers[Part::weights]);
    out.push_back(std::move(r));
  }
  return {key.at("student").get<std::string>(), std::move(out)};
}

// The numbers one student writes for one question, by the kind of student.
struct Work {
  std::map<Part, Matrix> numbers;
  std::vector<std::size_t> top;
};

Work work_for(const Reference& q, std::uint32_t kind) {
  Work w{q.numbers, q.top};
  Matrix& scores = w.numbers[Part::scores];
  Matrix& weights = w.numbers[Part::weights];
  const Matrix& truth = q.numbers.at(Part::scores);
  switch (kind) {
    case 1: {  // hard attention
      for (std::size_t r = 0; r < weights.size(); ++r)
        for (std::size_t j = 0; j < weights[r].size(); ++j) weights[r][j] = j == q.top[r] ? 1 : 0;
      break;
    }
    case 2: {  // scores divided by their total
      for (std::size_t r = 0; r < scores.size(); ++r) {
        double t = 0;
        for (double s : scores[r]) t += s == masked_score ? 0 : s;
        if (t == 0) return w;
        for (std::size_t j = 0; j < scores[r].size(); ++j)
          weights[r][j] = scores[r][j] == masked_score ? 0 : scores[r][j] / t;
      }
      break;
    }
    case 3: {  // K·Qᵀ
      for (std::size_t i = 0; i < scores.size(); ++i)
        for (std::size_t j = 0; j < scores.size() && scores.size() == scores[i].size(); ++j) scores[i][j] = truth[j][i];
      weights = softmax_rows(scores);
      break;
    }
    case 4: {  // a slip in one score, then the right method
      scores[0][0] += 1;
      weights = softmax_rows(scores);
      break;
    }
    default: return w;  // right
  }
  w.numbers[Part::output] = mix_values(weights, q.values);
  w.top = most_attended(weights);
  return w;
}

// How one student writes their numbers.
struct Style {
  std::uint32_t kind = 0;
  bool blank = false, unreadable = false, unrounded = false, coarse = false;
  bool percent = false, comma = false;  // weights as "66.5%"; a decimal comma everywhere
};

std::string cell_text(double x, int decimals, Part p, const Style& style) {
  if (x == masked_score) return "masked";
  if (style.unrounded) return format_fixed(x, 12);
  const int d = style.coarse && decimals > 0 ? decimals - 1 : decimals;
  std::string text = style.percent && p == Part::weights && d >= 2 ? format_fixed(x * 100, d - 2) + "%" : format_fixed(x, d);
  if (style.comma)
    for (char& c : text)
      if (c == '.') c = ',';
  return text;
}

// What the student writes for every part of one question: a rectangle of
// texts ("" for blank) in the answer file's shape.
std::vector<std::pair<Part, std::vector<std::vector<std::string>>>> cells_for(const Reference& q, const Style& style) {
  const Work w = work_for(q, style.kind);
  std::vector<std::pair<Part, std::vector<std::vector<std::string>>>> out;
  bool first = true;
  for (std::size_t a = 0; a < q.ask.size(); ++a) {
    const Part p = q.ask[a];
    std::vector<std::vector<std::string>> rows;
    if (p == Part::most_attended) {
      rows.emplace_back();
      for (std::size_t t : w.top) rows.back().push_back(style.blank ? "" : q.tokens[t]);
    } else {
      for (const Vector& row : w.numbers.at(p)) {
        rows.emplace_back();
        for (double x : row) {
          std::string text = style.blank ? "" : cell_text(x, q.decimals[a], p, style);
          if (style.unreadable && first) text = "6.6.5";
          first = false;
          rows.back().push_back(std::move(text));
        }
      }
    }
    out.emplace_back(p, std::move(rows));
  }
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string yaml_cell(const std::string& s) { return s.empty() ? "~" : "\"" + s + "\""; }

// The sheet's header: a column per cell, named as docs/marking.md says.
std::string sheet_header(const std::vector<Reference>& refs) {
  std::string out = "timestamp,student,name";
  for (const Reference& q : refs)
    for (const auto& [p, rows] : cells_for(q, Style{}))
      for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < rows[r].size(); ++c) {
          if (rows.size() > 1) out += fmt::format(",{}.{}.{}.{}", q.id, part_name(p), r + 1, c + 1);
          else if (rows[r].size() > 1) out += fmt::format(",{}.{}.{}", q.id, part_name(p), c + 1);
          else out += fmt::format(",{}.{}", q.id, part_name(p));
        }
  return out + "\r\n";
}

// An answer file in the template's shape.
std::string answer_yaml(const std::string& rubric, const std::string& student, std::uint64_t seed,
                        const Variant& v, const std::vector<Reference>& refs, const Style& style) {
  std::string yaml = fmt::format("rubric: \"{}\"\nstudent: \"{}\"\nseed: {}\nvariant: \"{}\"\ngenerator: \"{}\"\nanswers:\n",
                                 rubric, student, seed, v.id_text(), generator_version);
  for (const Reference& q : refs) {
    yaml += fmt::format("  {}:\n", q.id);
    for (const auto& [p, rows] : cells_for(q, style)) {
      auto list = [](const std::vector<std::string>& row) {
        std::string s;
        for (const std::string& t : row) s += (s.empty() ? "" : ", ") + yaml_cell(t);
        return "[" + s + "]";
      };
      if (rows.size() == 1 && rows[0].size() == 1 && p == Part::most_attended)
        yaml += fmt::format("    {}: {}\n", part_name(p), yaml_cell(rows[0][0]));
      else if (rows.size() == 1) yaml += fmt::format("    {}: {}\n", part_name(p), list(rows[0]));
      else {
        yaml += fmt::format("    {}:\n", part_name(p));
        for (const auto& row : rows) yaml += fmt::format("      - {}\n", list(row));
      }
    }
  }
  return yaml;
}

// A template with each ~ after `answers:` (outside comments) replaced, in order.
std::string filled_template(const std::string& text, const std::string& path, const std::vector<Reference>& refs,
                            const Style& style) {
  std::vector<std::string> cells;
  for (const Reference& q : refs)
    for (const auto& [p, rows] : cells_for(q, style))
      for (const auto& row : rows)
        for (const std::string& t : row) cells.push_back(yaml_cell(t));
  const std::size_t start = text.find("\nanswers:");
  if (start == std::string::npos) fail(path + ": no 'answers:' line");
  std::string out = text.substr(0, start);
  std::size_t next = 0;
  bool comment = false;
  for (std::size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') comment = false;
    if (c == '#') comment = true;
    if (c == '~' && !comment) {
      if (next == cells.size()) fail(path + ": the template has more cells than the rubric");
      out += cells[next++];
    } else {
      out += c;
    }
  }
  if (next != cells.size()) fail(fmt::format("{}: the template has {} cells; the rubric {}", path, next, cells.size()));
  return out;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int write_roster(int n, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  out << "student,name\r\n";
  for (int i = 0; i < n; ++i) out << fmt::format("{},\"Student {}, A.\"\r\n", student_id(i), i);
  out.close();
  if (!out) fail("cannot write " + path);
  return 0;
}

int run(int argc, char** argv) {
  const std::string usage =
      "usage: make_class roster N OUT.csv\n"
      "       make_class RUBRIC SEED N sheet|files OUT [--keys KEYS.jsonl] [--templates DIR]\n";
  if (argc == 4 && std::string(argv[1]) == "roster") return write_roster(std::stoi(argv[2]), argv[3]);
  if (argc < 6) {
    std::fputs(usage.c_str(), stderr);
    return 2;
  }
  std::string keys_path, templates;
  for (int a = 6; a < argc; ++a) {
    const std::string flag = argv[a];
    if (a + 1 < argc && flag == "--keys") keys_path = argv[++a];
    else if (a + 1 < argc && flag == "--templates") templates = argv[++a];
    else {
      std::fputs(usage.c_str(), stderr);
      return 2;
    }
  }
  const Rubric rubric = load_rubric_file(argv[1]);
  const std::uint64_t seed = std::stoull(argv[2]);
  const int n = std::stoi(argv[3]);
  const std::string mode = argv[4];
  const std::string out_path = argv[5];
  if (mode != "sheet" && mode != "files") {
    std::fputs(usage.c_str(), stderr);
    return 2;
  }
  const bool sheet = mode == "sheet";
  if (sheet && !templates.empty()) fail("--templates is for files, not a sheet");

  // Every student's references from the key file, checked against the library.
  std::unordered_map<std::string, std::vector<Reference>> keyed;
  if (!keys_path.empty()) {
    std::ifstream in(keys_path, std::ios::binary);
    if (!in) fail("cannot read " + keys_path);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      auto [student, refs] = references_of(nlohmann::json::parse(line));
      const Variant v = make_variant(rubric, seed, student);
      if (refs != references_of(v))
        fail(fmt::format("{}:{}: the key for {} differs from the library's variant {}", keys_path, number, student,
                         v.id_text()));
      keyed.emplace(std::move(student), std::move(refs));
    }
  }

  std::ofstream sheet_out;
  if (sheet) sheet_out.open(out_path, std::ios::binary);
  else fs::create_directories(out_path);
  Pcg32 rng(seed, 7);
  for (int i = 0; i < n; ++i) {
    const std::uint32_t roll = rng.below(100);
    // A few resubmit: the same id as an earlier student.
    const std::string student = roll < 2 && i > 10 ? student_id(i / 2) : student_id(i);
    const Variant v = make_variant(rubric, seed, student);
    std::vector<Reference> own;
    const std::vector<Reference>* refs = &own;
    if (keys_path.empty()) {
      own = references_of(v);
    } else {
      auto it = keyed.find(student);
      if (it == keyed.end()) fail(fmt::format("{} has no line for {}", keys_path, student));
      refs = &it->second;
    }
    Style style;
    style.kind = roll < 55 ? 0 : roll < 65 ? 1 : roll < 72 ? 2 : roll < 79 ? 3 : roll < 88 ? 4 : 0;
    style.blank = roll >= 88 && roll < 94;
    style.unreadable = roll >= 94;
    style.unrounded = roll >= 45 && roll < 55;
    style.coarse = roll >= 40 && roll < 45;
    style.percent = roll < 40 && i % 5 == 1;
    style.comma = roll < 40 && i % 5 == 2;
    if (sheet) {
      if (i == 0) sheet_out << sheet_header(*refs);
      std::string line = fmt::format("2026-11-30 10:{:02}:{:02},{},{}", i / 60 % 60, i % 60, student,
                                     csv_field(fmt::format("Student {}, A.", i)));
      for (const Reference& q : *refs)
        for (const auto& [p, rows] : cells_for(q, style))
          for (const auto& row : rows)
            for (const std::string& t : row) line += "," + csv_field(t);
      sheet_out << line << "\r\n";
    } else {
      const fs::path file = fs::path(out_path) / fmt::format("{}-{:06}.yaml", student, i);
      std::string yaml;
      if (templates.empty()) {
        yaml = answer_yaml(rubric.name, student, seed, v, *refs, style);
      } else {
        const fs::path t = fs::path(templates) / (student + ".answers.yaml");
        yaml = filled_template(read_text(t), t.string(), *refs, style);
      }
      std::ofstream(file, std::ios::binary) << yaml;
    }
  }
  if (sheet) {
    sheet_out.close();
    if (!sheet_out) fail("cannot write " + out_path);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const Error& e) {
    std::cerr << "make_class: " << e.report() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "make_class: " << e.what() << "\n";
  }
  return 1;
}
