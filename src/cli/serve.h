// cli/serve.h: serve and access-codes, a class served from one SQLite file;
// and mark --db, its reports.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/mark.h"
#include "cli/options.h"
#include "serve/limits.h"

namespace attnmark {

struct ServeOptions {
  std::vector<std::string> rubrics;     // RUBRIC: at most one, stored at the first start
  std::optional<std::string> seed;      // --seed (parse_seed), stored at the first start
  std::string roster;                   // --roster CSV, stored at the first start
  std::string db;                       // --db; empty: class.sqlite
  std::string host;                     // --host; empty: 127.0.0.1
  std::optional<std::string> port;      // --port: 0 to 65535 (default 8080; 0: any free port)
  std::optional<std::string> attempts;  // --attempts: 1 to 1000000 kept per student (default: no limit)
  std::string close;                    // --close DATE (parse_date)
  std::string reveal_after;             // --reveal-after DATE (parse_date)
  std::string score = "best";           // --score: best or last attempt
  std::optional<std::string> checks_per_minute;    // --checks-per-minute: 1 to 100000 per student (default 30)
  std::optional<std::string> storage_per_student;  // --storage-per-student SIZE (parse_size; default 2MiB)
  std::optional<std::string> db_max;               // --db-max SIZE (parse_size; default 1GiB)
  PageOptions page;                     // --theme, --text-size
  std::string tls_cert, tls_key;        // --tls-cert, --tls-key: PEM files (HTTPS)
  bool tls_self_signed = false;         // --tls-self-signed: HTTPS with a certificate made beside --db
};

struct AccessCodesOptions {
  std::string db;      // --db: the served class's SQLite file
  std::string output;  // -o: the CSV to write (0600), or "": standard output
};

// The caps of --checks-per-minute, --storage-per-student and --db-max (the
// defaults of ClassLimits when absent). Throws Error naming the option.
ClassLimits class_limits(const ServeOptions& options);

void declare_serve(CLI::App& sub, ServeOptions& options);
int run_serve(const ServeOptions& options, std::ostream& out, std::ostream& err);
void declare_access_codes(CLI::App& sub, AccessCodesOptions& options);
int run_access_codes(const AccessCodesOptions& options, std::ostream& out, std::ostream& err);
// mark --db: REQUIRES: !options.db.empty().
int run_mark_db(const MarkOptions& options, std::ostream& out, std::ostream& err);

}  // namespace attnmark
