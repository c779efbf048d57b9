// attnmark generate | key | template RUBRIC: a student's worksheet, answer key or
// blank answer file, or one per student of a roster.
#include "cli/generate.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <optional>

#include "attnmark/base/error.h"
#include "base/file_names.h"
#include "base/files.h"
#include "base/text.h"
#include "base/threads.h"
#include "cli/progress.h"
#include "attnmark/lesson/variant.h"
#include "readers/roster.h"
#include "readers/rubric_loader.h"
#include "serve/classroom.h"
#include "serve/store.h"
#include "writers/answer_template.h"
#include "writers/form_template.h"
#include "writers/html_writer.h"
#include "writers/key_json.h"
#include "writers/latex_writer.h"
#include "writers/markdown_writer.h"
#include "writers/notebook_writer.h"
#include "writers/sheet_document.h"
#include "writers/theme.h"

namespace attnmark {
namespace {

// The seed from --seed, else the rubric's, else a fresh one the user is told.
std::uint64_t choose_seed(const GenerateOptions& options, const Rubric& rubric, std::ostream& err) {
  if (options.seed) return parse_seed(*options.seed);
  if (rubric.seed) return *rubric.seed;
  // Only this path is not reproducible by itself, so the seed is printed.
  const std::uint64_t seed = fresh_seed();
  err << fmt::format("attnmark: {} has no seed: and no --seed was given; using --seed {}\n", rubric.file, seed);
  return seed;
}

// Writes to -o PATH, or to standard output.
// A key, or a served class's sheet (it prints the student's access code),
// is written for its owner only (`access`).
void emit(const GenerateOptions& options, const std::string& text, const char* what, std::ostream& out,
          std::ostream& err, Access access) {
  if (options.output.empty()) {
    out << text;
    return;
  }
  write_file(options.output, text, access);
  err << fmt::format("attnmark: wrote {} to {}\n", what, options.output);
}

// What one run writes, fixed by the command and --format.
struct Job {
  bool key = false;       // key, not worksheet
  bool answers = false;   // template: only the blank answer file
  std::string format;     // md, json, jsonl, html, tex, ipynb; template's yaml or form
};

// The format an output file's name asks for: ".html" is html. Empty for a
// name without an extension; "?" for one that names no format attnmark writes.
std::string format_of_name(const std::string& path, bool key) {
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext.empty()) return "";
  if (ext == ".md" || ext == ".markdown") return "md";
  if (ext == ".json") return "json";
  if (ext == ".jsonl" && key) return "jsonl";
  if (ext == ".html" || ext == ".htm") return "html";
  if (ext == ".tex") return "tex";
  if (ext == ".ipynb") return "ipynb";
  return "?";
}

// The format is --format, else the one -o's name asks for, else md. With
// --roster, -o is a folder and its name says nothing, except a key's
// "-o keys.jsonl" (one key per line, to that file).
Job job_of(const GenerateOptions& options) {
  Job job;
  job.key = options.command == "key";
  job.answers = options.command == "template";
  if (job.answers) {
    job.format = options.format.empty() ? "yaml" : options.format;
    if (job.format != "yaml" && job.format != "form")
      throw Error(fmt::format("--format: expected yaml or form; got {}", quoted_printable(job.format)));
    return job;
  }
  const std::string known_names =
      job.key ? ".md, .json, .jsonl, .html, .tex or .ipynb" : ".md, .json, .html, .tex or .ipynb";
  std::string named;
  if (!options.output.empty()) {
    named = format_of_name(options.output, job.key);
    if (!options.roster.empty() && named != "jsonl") named.clear();
  }
  job.format = options.format;
  if (job.format.empty()) {
    if (named == "?")
      throw Error(fmt::format("-o: cannot tell the format from the name {}; name the file {}, or give --format",
                              quoted_printable(options.output), known_names));
    job.format = named.empty() ? "md" : named;
  }
  const bool known = job.format == "md" || job.format == "json" || job.format == "html" || job.format == "tex" ||
                     job.format == "ipynb" || (job.key && job.format == "jsonl");
  if (!known)
    throw Error(fmt::format("--format: expected md, json, {}html, tex or ipynb; got '{}'", job.key ? "jsonl, " : "",
                            job.format));
  if (!named.empty() && named != "?" && named != job.format)
    throw Error(fmt::format("--format {} does not match -o {}, a name for {}; leave out --format or rename the file",
                            job.format, quoted_printable(options.output), named));
  return job;
}

// generate --db --url: the served class whose page and access codes the
// worksheets print.
struct ClassPage {
  std::string url;
  std::optional<Classroom> room;
};

// Refuses, before anything is written, students the served class's roster
// does not hold: their worksheets' access codes could never sign in. The
// first few are named.
void require_class_students(const ClassPage& page, const std::string& db, const std::vector<std::string>& students) {
  if (!page.room) return;
  std::vector<std::string> strangers;
  for (const std::string& s : students)
    if (!page.room->find(s)) strangers.push_back(s);
  if (strangers.empty()) return;
  constexpr std::size_t named = 5;
  std::string names;
  for (std::size_t i = 0; i < std::min(named, strangers.size()); ++i) {
    if (i > 0) names += i + 1 == strangers.size() ? " and " : ", ";
    names += quoted_printable(strangers[i]);
  }
  if (strangers.size() > named) names += fmt::format(" and {} more", strangers.size() - named);
  const bool one = strangers.size() == 1;
  throw Error(fmt::format("--db: {} {} not on the class roster in {}: {} access code{} could never sign in", names,
                          one ? "is" : "are", db, one ? "its" : "their", one ? "" : "s"));
}

// The sheet's document, with the roster's name for the student (or none),
// and the class page's address and the student's code on a worksheet of a
// served class.
SheetDocument document(const Rubric& rubric, const Variant& variant, Sheet sheet, const std::string& name,
                       const ClassPage& page) {
  SheetDocument doc = sheet_document(rubric, variant, sheet, name);
  if (page.room && sheet == Sheet::worksheet) {
    doc.check_url = page.url;
    doc.access_code = page.room->code_of(variant.student);
    doc.seed.reset();
  }
  return doc;
}

// One student's sheet in the chosen format.
std::string render(const Job& job, const Rubric& rubric, const Variant& variant, const std::string& name,
                   const HtmlStyle& style, const ClassPage& page) {
  const Sheet sheet = job.key ? Sheet::key : Sheet::worksheet;
  if (job.answers) return render_answer_template(rubric, variant, !page.room);
  if (job.format == "json") return render_json(variant, sheet);
  if (job.format == "jsonl") return render_json_line(variant, Sheet::key);
  const SheetDocument doc = document(rubric, variant, sheet, name, page);
  if (job.format == "md") return render_markdown(doc);
  if (job.format == "ipynb") return render_notebook(variant, sheet, doc);
  if (job.format == "html") return sheet_html(doc, doc.name, style);
  return sheet_latex({doc}, style.text_size);
}

// What a roster run made for one student.
struct StudentOutput {
  ClassPageSheet worksheet, key;          // for the class pack and class key
  SheetDocument worksheet_tex, key_tex;   // the same for their LaTeX (--format tex)
  std::string line;                       // jsonl
};

// The teacher's folder of a roster run to students' folder `folder` (-o,
// without a trailing slash): --teacher-out, else FOLDER-teacher beside it.
// Refuses one inside the other, since a folder handed out would carry the keys.
std::string teacher_folder_of(const GenerateOptions& options, const std::string& folder) {
  std::string teacher = options.teacher_out;
  while (teacher.size() > 1 && teacher.back() == '/') teacher.pop_back();
  std::error_code ec;
  if (teacher.empty()) {
    const std::filesystem::path students = std::filesystem::path(folder).lexically_normal();
    // "." or "..": named by its full path, so the teacher's folder is beside it.
    const std::string base = students.filename().empty() || students.filename() == "." || students.filename() == ".."
                                 ? std::filesystem::weakly_canonical(students, ec).string()
                                 : folder;
    teacher = base + "-teacher";
  }
  const std::filesystem::path a = std::filesystem::weakly_canonical(std::filesystem::absolute(folder, ec), ec);
  const std::filesystem::path b = std::filesystem::weakly_canonical(std::filesystem::absolute(teacher, ec), ec);
  auto inside = [](const std::filesystem::path& in, const std::filesystem::path& of) {
    const std::filesystem::path rel = in.lexically_relative(of);
    return !rel.empty() && *rel.begin() != "..";
  };
  if (inside(b, a) || inside(a, b))
    throw Error(fmt::format("--teacher-out: {} and -o {} must be apart, neither inside the other: the students' "
                            "folder is handed out, the teacher's holds the keys",
                            quoted_printable(teacher), quoted_printable(options.output)));
  return teacher;
}

int run_roster(const GenerateOptions& options, const Job& job, const Rubric& rubric, std::uint64_t seed,
               const ClassPage& page, const HtmlStyle& style, std::ostream& out, std::ostream& err) {
  std::vector<std::string> notes;
  const std::vector<RosterEntry> students = read_roster(read_file(options.roster, max_roster_bytes), options.roster,
                                                        options.columns, &notes);
  for (const std::string& note : notes) err << "attnmark: " << note << "\n";
  {
    std::vector<std::string> ids;
    for (const RosterEntry& s : students) ids.push_back(s.student);
    require_class_students(page, options.db, ids);
  }
  const unsigned jobs = parse_jobs(options.jobs);
  std::vector<StudentOutput> outputs(students.size());

  if (job.format == "jsonl") {
    parallel_for(students.size(), jobs, [&](std::size_t i) {
      outputs[i].line = render_json_line(make_variant(rubric, seed, students[i].student), Sheet::key);
    });
    std::size_t size = 0;
    for (const StudentOutput& o : outputs) size += o.line.size();
    std::string text;
    text.reserve(size);
    for (StudentOutput& o : outputs) {
      text += o.line;
      std::string().swap(o.line);  // (100,000 keys are some 90 MB)
    }
    emit(options, text, "every student's key (JSON lines)", out, err, Access::owner_only);
    return 0;
  }

  if (options.output.empty())
    throw Error("--roster: give -o DIR, the folder for one file per student (or, for key, --format jsonl)");
  // "class/" is the folder "class": a trailing slash names no file inside it.
  std::string folder = options.output;
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  const std::filesystem::path dir(folder);
  std::error_code ec;
  const bool exists = std::filesystem::exists(std::filesystem::symlink_status(dir, ec));
  if (exists && !std::filesystem::is_directory(dir, ec))
    throw Error(fmt::format("-o: with --roster, {} must be a folder", quoted_printable(options.output)));

  // What is handed to students goes to -o; what only the teacher may see
  // (each key, the class key, and the class pack, which holds every student's
  // sheet and, for a served class, every access code) goes to the teacher's
  // folder outside it. key writes nothing else, so its folder is all keys.
  const bool packs = !job.answers;
  const bool teacher_apart = !job.key && !job.answers;
  const std::string teacher_folder = teacher_apart ? teacher_folder_of(options, folder) : std::string();
  const std::filesystem::path teacher_dir(teacher_folder);
  const bool teacher_exists =
      teacher_apart && std::filesystem::exists(std::filesystem::symlink_status(teacher_dir, ec));
  if (teacher_exists && !std::filesystem::is_directory(teacher_dir, ec))
    throw Error(fmt::format("--teacher-out: {} must be a folder", quoted_printable(teacher_folder)));
  const std::string ext = job.format == "md"      ? ".md"
                          : job.format == "json"  ? ".json"
                          : job.format == "tex"   ? ".tex"
                          : job.format == "ipynb" ? ".ipynb"
                                                  : ".html";
  // A notebook is itself what the student fills in and hands in: no answer
  // file beside it.
  const bool answer_files = !job.key && job.format != "ipynb";
  // The class files' names are kept from students, so no id can replace them.
  std::vector<std::string> stems;
  FileStems names({"class-pack", "class-key"});
  for (const RosterEntry& s : students) stems.push_back(names.take(s.student));
  auto sheet_name = [&](std::size_t i) { return stems[i] + (job.key ? ".key" : "") + ext; };
  auto answers_name = [&](std::size_t i) { return stems[i] + ".answers.yaml"; };
  auto key_name = [&](std::size_t i) { return stems[i] + ".key" + ext; };
  // The files of the class, each in the folder it goes to: the key's folder
  // is -o for key, the teacher's for generate.
  std::vector<std::string> class_files;
  if (packs && !job.key) class_files.push_back("class-pack.html");
  if (packs && !job.key && job.format == "tex") class_files.push_back("class-pack.tex");
  if (packs) class_files.push_back("class-key.html");
  if (packs && job.format == "tex") class_files.push_back("class-key.tex");

  // The students' folder of an earlier attnmark kept the teacher's files
  // inside it; they would be handed out with it.
  if (teacher_apart && exists)
    for (const char* old : {"keys", "class-pack.html", "class-pack.tex"})
      if (std::filesystem::exists(std::filesystem::symlink_status(dir / old, ec)))
        throw Error(options.output, 0, 0,
                    fmt::format("holds {}, which is for the teacher only and would be handed out with the "
                                "worksheets; move it to {} (or remove it), then run again",
                                quoted_printable(old), quoted_printable(teacher_folder)));

  // In a folder that exists, nothing is replaced without --force; checked
  // before anything is written, so a refused run leaves both folders as they were.
  auto refuse_in = [&](const std::filesystem::path& in, const std::string& named, const char* option,
                       const std::string& name) {
    if (std::filesystem::exists(std::filesystem::symlink_status(in / name, ec)))
      throw Error(named, 0, 0,
                  fmt::format("already holds {}; pass --force to replace it, or choose another {}",
                              quoted_printable(name), option));
  };
  if (exists && !options.force)
    for (std::size_t i = 0; i < students.size(); ++i) {
      if (!job.answers) refuse_in(dir, options.output, "-o", sheet_name(i));
      if (answer_files) refuse_in(dir, options.output, "-o", answers_name(i));
    }
  if (!options.force && (teacher_apart ? teacher_exists : exists)) {
    const std::filesystem::path& in = teacher_apart ? teacher_dir : dir;
    const std::string& named = teacher_apart ? teacher_folder : options.output;
    const char* option = teacher_apart ? "--teacher-out" : "-o";
    if (teacher_apart)
      for (std::size_t i = 0; i < students.size(); ++i) refuse_in(in, named, option, key_name(i));
    for (const std::string& name : class_files) refuse_in(in, named, option, name);
  }

  // A new folder is filled under a temporary name and appears whole at the
  // end (and each file costs one directory operation, not two); files in a
  // folder that exists already replace their old versions one by one.
  // Keys and access codes are for the teacher only: a folder holding them is
  // its owner's alone (0700, its files 0600).
  const Access access = job.key || page.room ? Access::owner_only : Access::everyone;
  std::optional<NewFolder> fresh, fresh_teacher;
  if (!exists) {
    if (dir.has_parent_path()) std::filesystem::create_directories(dir.parent_path(), ec);
    fresh.emplace(folder, access);
  }
  if (teacher_apart && !teacher_exists) {
    if (teacher_dir.has_parent_path()) std::filesystem::create_directories(teacher_dir.parent_path(), ec);
    fresh_teacher.emplace(teacher_folder, Access::owner_only);
  }
  auto put = [&](const std::string& name, const std::string& bytes) {
    if (fresh) fresh->write(name, bytes);
    else write_file((dir / name).string(), bytes, access);
  };
  // A file for the teacher: in the teacher's folder, or for key in -o.
  auto put_teacher = [&](const std::string& name, const std::string& bytes) {
    if (!teacher_apart) return put(name, bytes);
    if (fresh_teacher) fresh_teacher->write(name, bytes);
    else write_file((teacher_dir / name).string(), bytes, Access::owner_only);
  };

  const Job key_job{true, false, job.format};
  Progress progress("writing the sheets of", students.size(), err, is_terminal(err));
  parallel_for(students.size(), jobs, [&](std::size_t i) {
    progress.step();
    const RosterEntry& s = students[i];
    const Variant variant = make_variant(rubric, seed, s.student);
    if (!job.answers) put(sheet_name(i), render(job, rubric, variant, s.name, style, page));
    // A served class's answer file carries no seed, as its worksheet does not.
    if (answer_files) put(answers_name(i), render_answer_template(rubric, variant, !page.room));
    if (teacher_apart) put_teacher(key_name(i), render(key_job, rubric, variant, s.name, style, page));
    if (packs) {
      StudentOutput& o = outputs[i];
      for (const Sheet sheet : {Sheet::worksheet, Sheet::key}) {
        if (sheet == Sheet::worksheet && job.key) continue;
        SheetDocument doc = document(rubric, variant, sheet, s.name, page);
        (sheet == Sheet::key ? o.key : o.worksheet) = class_page_sheet(doc, doc.name, i + 1, style);
        if (job.format == "tex") (sheet == Sheet::key ? o.key_tex : o.worksheet_tex) = std::move(doc);
      }
    }
  });

  const std::string title = display_title(rubric);
  if (packs) {
    std::vector<ClassPageSheet> worksheets, keys;
    std::vector<SheetDocument> worksheets_tex, keys_tex;
    for (StudentOutput& o : outputs) {
      if (!job.key) worksheets.push_back(std::move(o.worksheet));
      keys.push_back(std::move(o.key));
      if (job.format == "tex") {
        if (!job.key) worksheets_tex.push_back(std::move(o.worksheet_tex));
        keys_tex.push_back(std::move(o.key_tex));
      }
    }
    std::vector<StudentOutput>().swap(outputs);
    // The class key and the class pack at once (with more than one job).
    run_both(
        [&] {
          put_teacher("class-key.html", class_html(std::move(keys), title + ": class answer key", style));
          if (job.format == "tex") put_teacher("class-key.tex", sheet_latex(keys_tex, style.text_size));
        },
        [&] {
          if (job.key) return;
          put_teacher("class-pack.html", class_html(std::move(worksheets), title + ": class pack", style));
          if (job.format == "tex") put_teacher("class-pack.tex", sheet_latex(worksheets_tex, style.text_size));
        },
        jobs);
  }
  if (fresh_teacher) fresh_teacher->commit();
  if (fresh) fresh->commit();
  progress.finish();
  // Long work on a terminal says how long it took; quick work, as most is,
  // does not, and neither does a log (its bytes stay the same run to run).
  const std::string took = is_terminal(err) && progress.elapsed() >= 1 ? " in " + progress.took() : "";

  // Says what went where: "wrote 2 worksheets and answer files to class (hand
  // these out); 2 keys, class-key.html, class-pack.html to class-teacher (for
  // you only)".
  const std::size_t n = students.size();
  const std::string keys_text = fmt::format("{} key{}", grouped(n), n == 1 ? "" : "s");
  const std::string what = job.answers ? fmt::format("{} answer file{}", grouped(n), n == 1 ? "" : "s")
                           : job.key   ? keys_text
                           : answer_files ? fmt::format("{} worksheet{} and answer files", grouped(n), n == 1 ? "" : "s")
                                          : fmt::format("{} notebook{}", grouped(n), n == 1 ? "" : "s");
  std::string teacher_what = teacher_apart ? keys_text : what;
  for (const std::string& name : class_files) teacher_what += ", " + name;
  if (teacher_apart)
    err << fmt::format("attnmark: wrote {} to {} (hand these out); {} to {} (for the teacher only{}){}\n", what,
                       options.output, teacher_what, teacher_folder,
                       page.room ? ": keys and every student's access code" : ": keys and every student's sheet", took);
  else
    err << fmt::format("attnmark: wrote {} to {}{}\n", packs ? teacher_what : what, options.output, took);
  return 0;
}

// The options of generate, key and template, in the order --help lists
// them; `command` says which (template writes no HTML: no --format, no page
// options).
void declare_sheet_options(CLI::App& sub, GenerateOptions& options, const char* command) {
  const std::string name = command;
  options.command = name;
  sub.add_option("RUBRIC", options.rubrics, "Rubric file (YAML)")->required()->type_name("FILE");
  add_seed_option(sub, options.seed, "Seed (a whole number); default: the rubric's seed:");
  sub.add_option("--student", options.student, "Student id; each id gets its own variant")->type_name("ID");
  if (name == "template")
    sub.add_option("--format", options.format,
                   "yaml (the blank answer file) or form (an online form's question titles and the sheet column "
                   "each is, CSV, e.g. template rubric.yaml --format form -o form.csv); default: yaml")
        ->type_name("FORMAT");
  else
    sub.add_option("--format", options.format,
                   std::string(name == "key" ? "md, json, jsonl, html, tex or ipynb" : "md, json, html, tex or ipynb") +
                       "; default: from -o's extension, else md")
        ->type_name("FORMAT");
  add_output_option(sub, options.output, "Write to this file (or folder, with --roster) instead of standard output");
  sub.add_flag("--force", options.force, "Replace files that exist already");
  add_roster_option(sub, options.roster, "Class roster (CSV with a student id column): one output per student");
  if (name == "generate")
    sub.add_option("--teacher-out", options.teacher_out,
                   "With --roster: the teacher's folder for the keys and the class pack (default: the -o folder's "
                   "name with -teacher)")
        ->type_name("DIR");
  add_jobs_option(sub, options.jobs, "Threads for a roster (default: all cores)");
  add_column_options(sub, options.columns, "the roster");
  if (name != "template") add_page_options(sub, options.page);
}

}  // namespace

void declare_generate(CLI::App& sub, GenerateOptions& options) {
  declare_sheet_options(sub, options, "generate");
  sub.add_option("--db", options.db, "A served class (attnmark serve): print each student's access code")
      ->type_name("FILE");
  sub.add_option("--url", options.url, "With --db: the class page's address, printed beside the code")->type_name("URL");
}

void declare_key(CLI::App& sub, GenerateOptions& options) { declare_sheet_options(sub, options, "key"); }

void declare_template(CLI::App& sub, GenerateOptions& options) { declare_sheet_options(sub, options, "template"); }

int run_generate(const GenerateOptions& options, std::ostream& out, std::ostream& err) {
  if (options.rubrics.size() != 1) throw Error(options.command + ": expected one rubric file");
  const Job job = job_of(options);
  const HtmlStyle style = options.page.style();
  parse_jobs(options.jobs);  // a bad --jobs is an error even without a roster
  if (!options.teacher_out.empty() && (options.roster.empty() || job.format == "jsonl"))
    throw Error("--teacher-out: give --roster too; the teacher's folder holds the keys of a roster's students");
  if (!options.output.empty() && (options.roster.empty() || job.format == "jsonl")) refuse_to_replace(options.output, options.force);
  // Trimmed as a roster's ids and answer files' are, so the student's own
  // answer file reads back as the same id.
  const std::string student(trim(options.student));
  if (const std::string problem = student_id_problem(student); !problem.empty())
    throw Error(fmt::format("--student: {} {}", quoted_printable(options.student), problem));
  const Rubric rubric = load_rubric_argument(options.rubrics[0], options.command);
  if (job.format == "form") {
    // One form serves the whole class: it holds no student's numbers.
    if (!options.roster.empty())
      throw Error("--format form: one form serves the whole class; leave out --roster (and --student)");
    if (!student.empty()) throw Error("--format form: one form serves the whole class; leave out --student");
    emit(options, render_form_template(rubric), "form questions", out, err, Access::everyone);
    return 0;
  }
  ClassPage page;
  std::optional<Store> served;
  if (!options.db.empty()) served.emplace(options.db, StoreUse::read);
  // A served class's worksheets are of its own seed unless --seed says otherwise (then it must agree).
  const std::uint64_t seed = served && !options.seed ? served->load_class().seed : choose_seed(options, rubric, err);
  if (!options.db.empty()) {
    if (options.url.empty()) throw Error("--db: give --url too, the class page's address students open");
    // A JSON worksheet is the variant itself, seed and all (SheetDocument::seed).
    if (job.format == "json")
      throw Error("--db: a served class's worksheets are md, html, tex or ipynb; a JSON worksheet records the seed");
    page.room = Classroom::from_record(served->load_class());
    if (page.room->seed() != seed || page.room->rubric().name != rubric.name)
      throw Error(fmt::format("--db: {} serves rubric {} with seed {}; these worksheets are rubric {} with seed {}",
                              options.db, quoted_printable(page.room->rubric().name), page.room->seed(),
                              quoted_printable(rubric.name), seed));
    page.url = options.url;
  } else if (!options.url.empty()) {
    throw Error("--url: give --db too, the served class whose access codes the worksheets print");
  }
  if (!options.roster.empty()) return run_roster(options, job, rubric, seed, page, style, out, err);
  if (page.room && student.empty())
    throw Error("--db: give --student ID or --roster CSV, the students of the class whose access codes the worksheets print");
  require_class_students(page, options.db, {student});
  const Variant variant = make_variant(rubric, seed, student);
  const char* what = job.answers ? "answer template" : job.key ? "answer key" : "worksheet";
  emit(options, render(job, rubric, variant, std::string(), style, page), what, out, err,
       job.key || page.room ? Access::owner_only : Access::everyone);
  return 0;
}

}  // namespace attnmark
