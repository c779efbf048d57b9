// attnmark serve, access-codes, and mark --db: a class served from one
// SQLite file.
#include <csignal>
#include <charconv>
#include <fmt/format.h>
#include <ostream>
#include <pthread.h>

#include "base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "base/threads.h"
#include "cli/commands.h"
#include "readers/roster.h"
#include "readers/rubric_loader.h"
#include "serve/classroom.h"
#include "serve/codes.h"
#include "serve/server.h"
#include "serve/store.h"
#include "writers/csv_writer.h"
#include "writers/theme.h"

namespace attnmark {
namespace {

// A whole number from `low` to `high`, strictly (no sign, no spaces).
std::int64_t parse_whole(const std::string& option, const std::string& text, std::int64_t low, std::int64_t high) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || text[0] < '0' || text[0] > '9' || ec != std::errc() || stop != end || value < low || value > high)
    throw Error(fmt::format("{}: expected a whole number from {} to {}; got {}", option, low, high, quoted_printable(text)));
  return value;
}

// The class of --db: stored at its first start from RUBRIC, --seed and
// --roster; at later starts these may be left out, and when given must be
// what is stored (a class's variants and codes never change under it).
ClassRecord class_of(const Options& options, Store& store) {
  const std::string db = options.db;
  if (store.has_class()) {
    ClassRecord stored = store.load_class();
    if (!options.rubrics.empty() && read_file(options.rubrics[0], 1 << 20) != stored.rubric_text)
      throw Error(options.rubrics[0], 0, 0,
                  fmt::format("is not the rubric {} was started with ({}); a class's rubric cannot change: "
                              "leave RUBRIC out, or give another --db",
                              db, quoted_printable(stored.rubric_file)));
    if (options.seed && parse_seed(*options.seed) != stored.seed)
      throw Error(fmt::format("--seed: {} was started with seed {}; leave --seed out, or give another --db", db,
                              stored.seed));
    if (!options.roster.empty() && read_file(options.roster, max_roster_bytes) != stored.roster_text)
      throw Error(options.roster, 0, 0,
                  fmt::format("is not the roster {} was started with; leave --roster out, or give another --db", db));
    return stored;
  }
  if (options.rubrics.empty()) throw Error(fmt::format("{}: holds no class yet; give RUBRIC, --seed and --roster", db));
  if (options.roster.empty()) throw Error("--roster: a new class needs its roster (CSV): the students who may sign in");
  ClassRecord r;
  r.rubric_file = options.rubrics[0];
  r.rubric_text = read_file(r.rubric_file, 1 << 20);
  const Rubric rubric = load_rubric(r.rubric_text, r.rubric_file);
  if (options.seed) r.seed = parse_seed(*options.seed);
  else if (rubric.seed) r.seed = *rubric.seed;
  else throw Error("--seed: the rubric gives no seed:, so give one (it makes every student's variant)");
  r.roster_file = options.roster;
  r.roster_text = read_file(r.roster_file, max_roster_bytes);
  read_roster(r.roster_text, r.roster_file, {options.id_column, options.name_column});
  if (!options.id_column.empty() || !options.name_column.empty())
    throw Error("--id-column, --name-column: serve reads a roster whose columns are found by name; "
                "rename its headers (student, name)");
  r.secret = random_hex(32);
  store.set_class(r);
  return r;
}

}  // namespace

int run_serve(const Options& options, std::ostream& out, std::ostream& err) {
  ServeSettings settings;
  settings.host = options.host.empty() ? "127.0.0.1" : options.host;
  settings.port = options.port ? static_cast<int>(parse_whole("--port", *options.port, 0, 65535)) : 8080;
  if (options.attempts) settings.attempts = parse_whole("--attempts", *options.attempts, 1, 1000000);
  if (!options.close.empty()) settings.close_at = parse_date("--close", options.close);
  if (!options.reveal_after.empty()) settings.reveal_after = parse_date("--reveal-after", options.reveal_after);
  settings.score = parse_score_rule(options.score);
  settings.style = html_style(options.theme, options.text_size);

  Store store(options.db);
  store.claim_for_serving();
  const Classroom room = Classroom::from_record(class_of(options, store));
  if (settings.reveal_after && !room.rubric().reveal_in_feedback)
    throw Error(fmt::format("--reveal-after: rubric {} never shows right answers (it does not say reveal_answers: true); "
                            "leave --reveal-after out",
                            quoted_printable(room.rubric().name)));
  // A new token at every start; only its hash is kept, so a copy of the
  // database does not open the teacher's page.
  const std::string token = random_hex(24);
  store.set_teacher_token_hash(sha256_hex(token));

  // SIGINT and SIGTERM are taken by one thread that stops the server: the
  // server's own threads (started below) inherit the blocked mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  Server server(store, room, settings, token, err);
  const int port = server.bind();
  // The addresses printed: the host as given, but a wildcard (0.0.0.0, ::) is
  // no address to open: students get this machine's own on the network, the
  // teacher (at this machine) its loopback one.
  const std::string bound = server.address();
  const Reach reach = reach_of(bound);
  const auto url = [](const std::string& host) { return host.find(':') != std::string::npos ? "[" + host + "]" : host; };
  const std::string students_host =
      reach == Reach::every_address ? "<this machine's address>" : url(printable(settings.host, 200));
  const std::string teacher_host = reach != Reach::every_address      ? url(printable(settings.host, 200))
                                   : bound.find(':') != std::string::npos ? "[::1]"
                                                                          : "127.0.0.1";
  const std::string reach_line =
      reach == Reach::this_machine
          ? "  (only this machine can reach it; --host 0.0.0.0 opens it to the network)\n"
      : reach == Reach::every_address
          ? "  (open to the network: students use this machine's address on the class's network, as `hostname -I` "
            "lists it; the teacher's address works on this machine)\n"
          : fmt::format("  (open to the network: students use this machine's address {})\n", printable(settings.host, 200));
  out << fmt::format(
      "attnmark serve: {} for {} student{} from {} (rubric {}, seed {})\n"
      "  students: http://{}:{}/\n"
      "  teacher:  http://{}:{}/teacher?token={}\n"
      "{}"
      "  rules: {}\n"
      "Press Ctrl-C to stop.\n",
      printable(display_title(room.rubric()), 200), room.roster().size(), room.roster().size() == 1 ? "" : "s",
      printable(options.db, 500), printable(room.rubric().name, 200), room.seed(), students_host, port, teacher_host,
      port, token, reach_line, class_rules(settings, room.rubric().reveal_in_feedback));
  out.flush();

  Background watcher([&server, stop_signals] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server.stop();
  });
  // If run() ends without a signal (it failed), a SIGTERM to the watcher
  // ends its wait, so it can be joined.
  try {
    server.run();
  } catch (...) {
    pthread_kill(watcher.native_handle(), SIGTERM);
    throw;
  }
  pthread_kill(watcher.native_handle(), SIGTERM);
  watcher.join();
  err << "attnmark serve: stopped; every attempt checked is in " << printable(options.db, 500) << "\n";
  return 0;
}

int run_access_codes(const Options& options, std::ostream& out, std::ostream&) {
  Store store(options.db, StoreUse::read);
  const Classroom room = Classroom::from_record(store.load_class());
  std::string csv = "student,code\r\n";
  for (const RosterEntry& e : room.roster()) csv += csv_text_field(e.student) + "," + room.code_of(e.student) + "\r\n";
  out << csv;
  return 0;
}

int run_mark_db(const Options& options, std::ostream&, std::ostream& err) {
  if (options.out_dir.empty()) throw Error("mark: --out DIR is required");
  if (!options.rubrics.empty() || !options.inputs.empty())
    throw Error("mark --db: the class's rubric and attempts are in the database; give no RUBRIC or INPUT");
  Store store(options.db, StoreUse::read);
  const Classroom room = Classroom::from_record(store.load_class());
  const std::vector<AttemptRecord> attempts = store.all_attempts();
  const std::size_t counted = write_class_reports(room, attempts, parse_score_rule(options.score), options.out_dir,
                                                  options.force, room.rubric().reveal_in_feedback,
                                                  html_style(options.theme, options.text_size));
  err << fmt::format("attnmark: {} attempts of {} students; {} with an attempt ({} of each); reports in {}: "
                     "gradebook.csv, summary.md, summary.html, feedback/\n",
                     attempts.size(), room.roster().size(), counted, options.score, printable(options.out_dir, 500));
  return counted == room.roster().size() ? 0 : 1;
}

}  // namespace attnmark
