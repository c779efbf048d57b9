// attnmark serve, access-codes, and mark --db: a class served from one
// SQLite file.
#include "cli/serve.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <ifaddrs.h>
#include <netdb.h>
#include <pthread.h>
#include <unistd.h>

#include "attnmark/base/error.h"
#include "base/crypto.h"
#include "base/files.h"
#include "base/text.h"
#include "base/threads.h"
#include "readers/roster.h"
#include "readers/rubric_loader.h"
#include "serve/classroom.h"
#include "serve/codes.h"
#include "serve/pages.h"
#include "serve/server.h"
#include "serve/store.h"
#include "serve/tls.h"
#include "writers/csv_writer.h"

namespace attnmark {
namespace {

// The class of --db: stored at its first start from RUBRIC, --seed and
// --roster; at later starts these may be left out, and when given must be
// what is stored (a class's variants and codes never change under it).
ClassRecord class_of(const ServeOptions& options, Store& store, std::ostream& err) {
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
  // The seed makes every student's variant: with the public rubric, whoever
  // knows it prints every key. So a new class draws 63 random bits, not the
  // rubric's own seed: (which anyone with the rubric reads).
  if (options.seed) {
    r.seed = parse_seed(*options.seed);
  } else {
    r.seed = fresh_seed();
  }
  r.roster_file = options.roster;
  r.roster_text = read_file(r.roster_file, max_roster_bytes);
  std::vector<std::string> notes;
  read_roster(r.roster_text, r.roster_file, {}, &notes);
  for (const std::string& note : notes) err << "attnmark serve: " << note << "\n";
  if (rubric.seed && r.seed == *rubric.seed)
    err << fmt::format("attnmark serve: warning: --seed {} is the rubric's own seed:, which anyone with {} reads; with "
                       "it every student's key follows from the rubric. Leave --seed out for a random one (a new --db)\n",
                       r.seed, printable(r.rubric_file, 500));
  r.secret = random_hex(32);
  store.set_class(r);
  return r;
}

// The names a self-signed certificate is for: the --host (unless it is a
// wildcard), this machine's name, every address of its interfaces, and the
// loopback ones, so a browser that opens any of them sees the names match.
std::vector<std::string> own_names(const std::string& host) {
  std::vector<std::string> names;
  const auto add = [&](const std::string& n) {
    if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  if (reach_of(host) != Reach::every_address) add(host);
  char name[256] = "";
  if (gethostname(name, sizeof name - 1) == 0) add(name);
  add("localhost");
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (ifaddrs* a = list; a; a = a->ifa_next) {
      if (!a->ifa_addr || (a->ifa_addr->sa_family != AF_INET && a->ifa_addr->sa_family != AF_INET6)) continue;
      char text[NI_MAXHOST] = "";
      const socklen_t size = a->ifa_addr->sa_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
      if (getnameinfo(a->ifa_addr, size, text, sizeof text, nullptr, 0, NI_NUMERICHOST) == 0 &&
          std::string_view(text).find('%') == std::string_view::npos)
        add(text);
    }
    freeifaddrs(list);
  }
  add("127.0.0.1");
  add("::1");
  return names;
}

// Warns when other users of the machine may list or enter the folder
// holding `db`: the database itself is 0600, but what the teacher puts
// beside it (a backup, an export of codes) is as open as the folder lets it be.
void warn_of_open_folder(const std::string& db, std::ostream& err) {
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::absolute(std::filesystem::path(db), ec).parent_path();
  if (ec) return;
  if (const std::optional<unsigned> mode = open_to_others(folder.string()))
    err << fmt::format("attnmark serve: warning: other users of this machine can open the folder of {}, {} (mode "
                       "{:04o}); the database is kept 0600, but a backup or a list of codes put there is theirs to "
                       "read as the folder allows: chmod 700 that folder to keep it to yourself\n",
                       printable(db, 500), quoted_printable(folder.string()), *mode);
}

}  // namespace

ClassLimits class_limits(const ServeOptions& options) {
  ClassLimits limits;
  if (options.checks_per_minute)
    limits.checks_per_minute = static_cast<int>(parse_unsigned(*options.checks_per_minute, 1, 100000, "--checks-per-minute"));
  if (options.storage_per_student)
    limits.storage_per_student = static_cast<std::int64_t>(
        parse_size(*options.storage_per_student, 64 * kibibyte, gibibyte, "--storage-per-student"));
  if (options.db_max)
    limits.database_max = static_cast<std::int64_t>(parse_size(*options.db_max, mebibyte, 1024 * gibibyte, "--db-max"));
  return limits;
}

void declare_serve(CLI::App& sub, ServeOptions& options) {
  sub.add_option("RUBRIC", options.rubrics, "Rubric file (YAML); stored at the first start")
      ->type_name("FILE")
      ->expected(0, 1);
  add_seed_option(sub, options.seed, "Seed (first start); default: a random one, never the rubric's public seed:");
  add_roster_option(sub, options.roster, "Class roster (CSV): who may sign in (first start)");
  sub.add_option("--db", options.db, "The class's SQLite file (created at the first start)")
      ->default_str("class.sqlite")
      ->type_name("FILE");
  sub.add_option("--host", options.host, "Address to listen on (default 127.0.0.1: this machine only)")
      ->type_name("ADDRESS");
  sub.add_option("--port", options.port, "Port (default 8080; 0: any free port)")->type_name(number_type_name);
  sub.add_option("--attempts", options.attempts, "Attempts kept per student (default: no limit)")->type_name(number_type_name);
  sub.add_option("--close", options.close, "After this (UTC), checks are shown but not kept")->type_name("DATE");
  sub.add_option("--reveal-after", options.reveal_after,
                 "With the rubric's reveal_answers: true, show answers only after this (UTC)")
      ->type_name("DATE");
  add_score_option(sub, options.score, "The gradebook's attempt of each student: best or last");
  sub.add_option("--checks-per-minute", options.checks_per_minute,
                 "Checks allowed per student in any minute (default 30); more are refused for a while")
      ->type_name(number_type_name);
  sub.add_option("--storage-per-student", options.storage_per_student,
                 "Attempts' bytes kept per student (default 2MiB); later checks are answered, not kept")
      ->type_name("SIZE");
  sub.add_option("--db-max", options.db_max,
                 "The database's largest size (default 1GiB); past it checks are answered, not kept")
      ->type_name("SIZE");
  add_page_options(sub, options.page);
  sub.add_option("--tls-cert", options.tls_cert, "HTTPS: the server's certificate chain (PEM), with --tls-key")
      ->type_name("FILE");
  sub.add_option("--tls-key", options.tls_key, "HTTPS: the certificate's private key (PEM)")->type_name("FILE");
  sub.add_flag("--tls-self-signed", options.tls_self_signed,
               "HTTPS with a certificate made for this machine (kept beside --db as DB.tls.crt and DB.tls.key); "
               "the start prints its fingerprint");
}

int run_serve(const ServeOptions& given, std::ostream& out, std::ostream& err) {
  ServeOptions options = given;
  if (options.db.empty()) options.db = "class.sqlite";  // --db's default, and --db '' too
  ServeSettings settings;
  settings.host = options.host.empty() ? "127.0.0.1" : options.host;
  settings.port = options.port ? static_cast<int>(parse_unsigned(*options.port, 0, 65535, "--port")) : 8080;
  if (options.attempts)
    settings.attempts = static_cast<std::int64_t>(parse_unsigned(*options.attempts, 1, 1000000, "--attempts"));
  if (!options.close.empty()) settings.close_at = parse_date("--close", options.close);
  if (!options.reveal_after.empty()) settings.reveal_after = parse_date("--reveal-after", options.reveal_after);
  settings.score = parse_score_rule(options.score);
  settings.style = options.page.style();
  settings.limits = class_limits(options);

  if (options.tls_self_signed && (!options.tls_cert.empty() || !options.tls_key.empty()))
    throw Error("--tls-self-signed: give it, or --tls-cert and --tls-key, not both");
  if (options.tls_cert.empty() != options.tls_key.empty())
    throw Error(options.tls_cert.empty() ? "--tls-key: give --tls-cert too (the certificate of this key)"
                                         : "--tls-cert: give --tls-key too (the certificate's private key)");
  std::string tls_line;
  if (!options.tls_cert.empty()) {
    settings.tls = std::make_shared<TlsContext>(options.tls_cert, options.tls_key);
    tls_line = fmt::format("  HTTPS: certificate {} (SHA-256 fingerprint {})\n", printable(options.tls_cert, 500),
                           settings.tls->fingerprint());
  }

  Store store(options.db);
  store.claim_for_serving();
  if (options.tls_self_signed) {
    const SelfSigned made = make_self_signed(options.db + ".tls", own_names(settings.host));
    settings.tls = std::make_shared<TlsContext>(made.certificate_file, made.key_file);
    tls_line = fmt::format(
        "  HTTPS: self-signed certificate {} ({}), SHA-256 fingerprint\n"
        "    {}\n"
        "  (browsers warn once about a certificate they do not know: check that the fingerprint they show is this one)\n",
        printable(made.certificate_file, 500), made.made ? "made now" : "made at an earlier start", made.fingerprint);
  }
  for (const std::string& note : store.opening_notes()) err << "attnmark serve: " << printable(note, 1000) << "\n";
  warn_of_open_folder(options.db, err);
  const Classroom room = Classroom::from_record(class_of(options, store, err));
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
  const std::string scheme = settings.tls ? "https" : "http";
  // Plain HTTP is kept for a teacher's laptop in a classroom, but the
  // network can read it: the teacher is told so, and how to change it.
  const std::string clear_text_line =
      settings.tls || reach == Reach::this_machine ? ""
                                                    : std::string("  warning: ") + clear_text_warning + "\n";
  out << fmt::format(
      "attnmark serve: {} for {} student{} from {} (rubric {}, seed {})\n"
      "  students: {}://{}:{}/\n"
      "  teacher:  {}://{}:{}/teacher?token={}\n"
      "{}{}{}"
      "  rules: {}\n"
      "Press Ctrl-C to stop.\n",
      printable(display_title(room.rubric()), 200), room.roster().size(), room.roster().size() == 1 ? "" : "s",
      printable(options.db, 500), printable(room.rubric().name, 200), room.seed(), scheme, students_host, port, scheme,
      teacher_host, port, token, reach_line, tls_line, clear_text_line,
      class_rules(settings, room.rubric().reveal_in_feedback));
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

void declare_access_codes(CLI::App& sub, AccessCodesOptions& options) {
  sub.add_option("--db", options.db, "The class's SQLite file")->required()->type_name("FILE");
  sub.add_option("-o,--output", options.output, "Write the codes to FILE, readable by you only (default: standard output)")
      ->type_name("FILE");
}

int run_access_codes(const AccessCodesOptions& options, std::ostream& out, std::ostream&) {
  Store store(options.db, StoreUse::read);
  const Classroom room = Classroom::from_record(store.load_class());
  std::string csv = "student,code\r\n";
  for (const RosterEntry& e : room.roster()) csv += csv_text_field(e.student) + "," + room.code_of(e.student) + "\r\n";
  if (options.output.empty()) out << csv;
  else write_file(options.output, csv, Access::owner_only);
  return 0;
}

int run_mark_db(const MarkOptions& options, std::ostream&, std::ostream& err) {
  if (options.out_dir.empty()) throw Error("mark: --out DIR is required");
  if (!options.rubric.empty() || !options.inputs.empty())
    throw Error("mark --db: the class's rubric and attempts are in the database; give no RUBRIC or INPUT");
  Store store(options.db, StoreUse::read);
  const Classroom room = Classroom::from_record(store.load_class());
  const std::vector<AttemptRecord> attempts = store.all_attempts();
  const std::size_t counted = write_class_reports(room, attempts, parse_score_rule(options.score), options.out_dir,
                                                  options.force, options.page.style());
  err << fmt::format("attnmark: {} attempts of {} students; {} with an attempt ({} of each); reports in {}: "
                     "gradebook.csv, summary.md, summary.html, feedback/\n",
                     attempts.size(), room.roster().size(), counted, options.score, printable(options.out_dir, 500));
  return counted == room.roster().size() ? 0 : 1;
}

}  // namespace attnmark
