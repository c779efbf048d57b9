#include "serve/store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "attnmark/base/error.h"
#include "base/files.h"

namespace attnmark {
namespace {

// What a file refused for holding no class is told, by the reading commands
// and by load_class alike.
constexpr const char* no_class = "holds no class yet; start attnmark serve with a rubric, --seed and --roster first";

// An SQLite failure (`code`, SQLite's `why`) in attnmark's words, for every
// statement alike: a lock another program holds, and a file that is not a
// database (or is damaged), each say so. `first_touch`: the first read of the
// file, where any failure but a lock means it is no database attnmark can read.
[[noreturn]] void throw_failure(int code, const std::string& path, const std::string& why, bool first_touch = false) {
  if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
    throw Error(path, 0, 0, "is locked by another program (is another attnmark serve using it?); stop it first");
  if (first_touch || code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
    throw Error(path, 0, 0, fmt::format("is not an attnmark database, or is damaged ({})", why));
  throw Error(path, 0, 0, why);
}

// One prepared statement, finalised when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& path, const char* sql) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail();
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& text) {
    if (sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT) != SQLITE_OK) fail();
    return *this;
  }
  Statement& bind(int i, std::int64_t x) {
    if (sqlite3_bind_int64(stmt_, i, x) != SQLITE_OK) fail();
    return *this;
  }
  Statement& bind(int i, double x) {
    if (sqlite3_bind_double(stmt_, i, x) != SQLITE_OK) fail();
    return *this;
  }
  // Steps once: true when a row is ready, false when done.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail();
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::string text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }
  double real(int column) const { return sqlite3_column_double(stmt_, column); }

 private:
  [[noreturn]] void fail() const;
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
};

void Statement::fail() const { throw_failure(sqlite3_errcode(db_), path_, sqlite3_errmsg(db_)); }

// Runs SQL without results; throws Error with the file's name on failure.
void exec(sqlite3* db, const std::string& path, const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw_failure(sqlite3_errcode(db), path, why);
  }
}

// The names of the file's own tables (SQLite's internal sqlite_* left out).
std::vector<std::string> table_names(sqlite3* db, const std::string& path) {
  Statement s(db, path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  std::vector<std::string> out;
  while (s.step())
    if (const std::string name = s.text(0); !name.starts_with("sqlite_")) out.push_back(name);
  return out;
}

// The schema, one step per version: step i takes a file from version i to
// i + 1. A new version appends a step; old steps never change.
constexpr const char* migrations[] = {
    // 0 → 1: the class and its attempts.
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE attempts ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  student TEXT NOT NULL,"
    "  at TEXT NOT NULL,"
    "  answers TEXT NOT NULL,"
    "  score REAL NOT NULL,"
    "  max_score REAL NOT NULL,"
    "  feedback TEXT NOT NULL);"
    "CREATE INDEX attempts_by_student ON attempts (student, id);",
    // 1 → 2: each student's stored bytes (answers + feedback), counted against
    // their storage cap since the teacher last cleared it; `full` once an
    // attempt of theirs was kept out by it.
    "CREATE TABLE stored_bytes (student TEXT PRIMARY KEY, bytes INTEGER NOT NULL, full INTEGER NOT NULL DEFAULT 0)"
    "  WITHOUT ROWID;"
    "INSERT INTO stored_bytes (student, bytes)"
    "  SELECT student, sum(length(CAST(answers AS BLOB)) + length(CAST(feedback AS BLOB))) FROM attempts GROUP BY student;",
};
static_assert(std::size(migrations) == store_schema_version);

}  // namespace

struct Store::Pending {
  const AttemptRecord* attempt;
  const StoreCaps* caps;
  Added added;
  bool done = false;
  std::string error;
};

Store::Store(const std::string& path, StoreUse use, int busy_ms) : path_(path) {
  const bool serving = use == StoreUse::serve;
  std::error_code ec;
  if (!serving && !std::filesystem::exists(path, ec))
    throw Error(path, 0, 0, "does not exist; attnmark serve creates it at its first start");
  // Created by us, 0600, before SQLite opens it: SQLite would make it 0644
  // (less the umask), and gives its -wal and -shm the database's own mode.
  if (serving) create_private_file(path);
  // Read-write even to read: the last connection to close a WAL file is the
  // one that folds its -wal back in and removes it and the -shm, which a
  // read-only one leaves behind. Reading never writes: no statement below
  // writes unless `serving`.
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | (serving ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw Error(path, 0, 0, fmt::format("cannot be opened as a database ({})", why));
  }
  try {
    sqlite3_busy_timeout(db_, busy_ms);
    sqlite3_extended_result_codes(db_, 0);
    // What the file is, read before anything is written to it. Reading the
    // schema version is the first touch of the file: a file that is not a
    // database fails here.
    const int version = schema_version();
    const std::vector<std::string> tables = table_names(db_, path_);
    const bool has_meta = std::find(tables.begin(), tables.end(), "meta") != tables.end();
    // An attnmark file is empty (new) at version 0, and has its meta table from version 1 on.
    if ((version == 0 && !tables.empty()) || (version > 0 && !has_meta))
      throw Error(path, 0, 0, "is an SQLite database of another program (it has no attnmark class); choose a new file for --db");
    if (version > store_schema_version)
      throw Error(path, 0, 0,
                  fmt::format("was written by a newer attnmark (schema version {}; this one reads up to {}); "
                              "use that attnmark, or start a new database",
                              version, store_schema_version));
    if (!serving) {
      if (version == 0) throw Error(path, 0, 0, no_class);
      // Migrating is writing: the next start of attnmark serve does it.
      if (version < store_schema_version)
        throw Error(path, 0, 0,
                    fmt::format("was written by an older attnmark (schema version {}); start attnmark serve --db on it "
                                "once to bring it up to date",
                                version));
    } else {
      exec(db_, path_, "PRAGMA journal_mode=WAL");
      exec(db_, path_, "PRAGMA synchronous=FULL");
      exec(db_, path_, "PRAGMA foreign_keys=ON");
      if (version < store_schema_version) {
        exec(db_, path_, "BEGIN IMMEDIATE");
        try {
          // Read again inside the write lock: another program may have migrated it meanwhile.
          for (int v = schema_version(); v < store_schema_version; ++v) {
            exec(db_, path_, migrations[v]);
            exec(db_, path_, fmt::format("PRAGMA user_version={}", v + 1).c_str());
          }
          exec(db_, path_, "COMMIT");
        } catch (...) {
          sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
          throw;
        }
      }
    }
    // A file made before attnmark kept it private (or copied in): made
    // private now that it is known to be attnmark's, with the -wal and -shm
    // SQLite has just given its mode (a new -wal is empty, a -shm only an
    // index), and the teacher told.
    if (serving) {
      std::optional<unsigned> was = make_owner_only(path);
      for (const std::string& beside : {path + "-wal", path + "-shm"})
        if (const std::optional<unsigned> mode = make_owner_only(beside); mode && !was) was = mode;
      if (was)
        notes_.push_back(fmt::format("{}: was readable by other users of this machine (mode {:04o}); it is now 0600, "
                                     "with its -wal and -shm (yours only): it holds the class's secret, seed and every "
                                     "attempt",
                                     path, *was));
    }
    // A quick check of the pages finds a damaged file at start, not mid-class.
    Statement check(db_, path_, "PRAGMA quick_check");
    if (check.step() && check.text(0) != "ok")
      throw Error(path, 0, 0, fmt::format("is damaged ({}); restore it from a backup", check.text(0)));
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

Store::~Store() {
  sqlite3_close(db_);
  if (serve_lock_ >= 0) close(serve_lock_);
}

void Store::claim_for_serving() {
  const std::string lock_path = path_ + ".serve-lock";
  const int fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) throw Error(lock_path, 0, 0, "cannot be created, to claim the database for this server");
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    close(fd);
    throw Error(path_, 0, 0, "is in use by another attnmark serve; stop it first");
  }
  serve_lock_ = fd;
}

int Store::schema_version() {
  std::lock_guard lock(db_mutex_);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, "PRAGMA user_version", -1, &stmt, nullptr) != SQLITE_OK)
    throw_failure(sqlite3_errcode(db_), path_, sqlite3_errmsg(db_), true);
  const int rc = sqlite3_step(stmt);
  const int version = rc == SQLITE_ROW ? sqlite3_column_int(stmt, 0) : -1;
  const int code = sqlite3_errcode(db_);
  const std::string why = sqlite3_errmsg(db_);
  sqlite3_finalize(stmt);
  if (version < 0) throw_failure(code, path_, why, true);
  return version;
}

std::string Store::meta(const std::string& key) {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "SELECT value FROM meta WHERE key = ?");
  s.bind(1, key);
  return s.step() ? s.text(0) : std::string();
}

void Store::set_meta(const std::string& key, const std::string& value) {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  s.bind(1, key).bind(2, value).step();
}

bool Store::has_class() { return !meta("secret").empty(); }

ClassRecord Store::load_class() {
  ClassRecord r;
  r.secret = meta("secret");
  r.rubric_text = meta("rubric");
  r.rubric_file = meta("rubric_file");
  const std::string seed = meta("seed");
  r.seed = seed.empty() ? 0 : std::stoull(seed);
  r.roster_text = meta("roster");
  r.roster_file = meta("roster_file");
  if (r.secret.empty()) throw Error(path_, 0, 0, no_class);
  return r;
}

void Store::set_class(const ClassRecord& r) {
  {
    std::lock_guard lock(db_mutex_);
    exec(db_, path_, "BEGIN IMMEDIATE");
  }
  try {
    set_meta("rubric", r.rubric_text);
    set_meta("rubric_file", r.rubric_file);
    set_meta("seed", std::to_string(r.seed));
    set_meta("roster", r.roster_text);
    set_meta("roster_file", r.roster_file);
    set_meta("secret", r.secret);  // last: a class with a secret is complete
    std::lock_guard lock(db_mutex_);
    exec(db_, path_, "COMMIT");
  } catch (...) {
    std::lock_guard lock(db_mutex_);
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::string Store::teacher_token_hash() { return meta("teacher_token_sha256"); }
void Store::set_teacher_token_hash(const std::string& hash) { set_meta("teacher_token_sha256", hash); }

std::int64_t Store::add_attempt(const AttemptRecord& attempt, std::optional<std::int64_t> limit) {
  return add_attempt(attempt, StoreCaps{limit, std::nullopt, std::nullopt}).id;
}

// Group commit: the first thread to find no commit under way writes every
// attempt queued so far in one transaction; the others wait for it.
Added Store::add_attempt(const AttemptRecord& attempt, const StoreCaps& caps) {
  Pending mine{&attempt, &caps, {}, false, {}};
  std::unique_lock lock(queue_mutex_);
  queue_.push_back(&mine);
  while (!mine.done) {
    if (committing_) {
      committed_.wait(lock);
      continue;
    }
    committing_ = true;
    std::vector<Pending*> batch;
    batch.swap(queue_);
    lock.unlock();
    write_batch(batch);
    lock.lock();
    committing_ = false;
    committed_.notify_all();
  }
  if (!mine.error.empty()) throw Error(path_, 0, 0, mine.error);
  return mine.added;
}

void Store::write_batch(std::vector<Pending*>& batch) {
  std::lock_guard lock(db_mutex_);
  std::string error;
  try {
    exec(db_, path_, "BEGIN IMMEDIATE");
    try {
      Statement s(db_, path_,
                  "INSERT INTO attempts (student, at, answers, score, max_score, feedback) VALUES (?, ?, ?, ?, ?, ?)");
      Statement count(db_, path_, "SELECT count(*) FROM attempts WHERE student = ?");
      Statement counted(db_, path_, "SELECT bytes FROM stored_bytes WHERE student = ?");
      Statement add_bytes(db_, path_,
                          "INSERT INTO stored_bytes (student, bytes) VALUES (?, ?) "
                          "ON CONFLICT(student) DO UPDATE SET bytes = bytes + excluded.bytes");
      Statement mark_full(db_, path_,
                          "INSERT INTO stored_bytes (student, bytes, full) VALUES (?, 0, 1) "
                          "ON CONFLICT(student) DO UPDATE SET full = 1");
      Statement pages(db_, path_, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
      for (Pending* p : batch) {
        const AttemptRecord& a = *p->attempt;
        const StoreCaps& caps = *p->caps;
        const auto size = static_cast<std::int64_t>(a.answers.size() + a.feedback.size());
        p->added = {};
        if (caps.attempts) {
          count.bind(1, a.student);
          const std::int64_t stored = count.step() ? count.integer(0) : 0;
          count.reset();
          if (stored >= *caps.attempts) {
            p->added.kept = Kept::attempts_used;
            continue;
          }
        }
        if (caps.bytes_per_student) {
          counted.bind(1, a.student);
          const std::int64_t bytes = counted.step() ? counted.integer(0) : 0;
          counted.reset();
          if (bytes + size > *caps.bytes_per_student) {
            mark_full.bind(1, a.student).step();
            mark_full.reset();
            p->added.kept = Kept::student_full;
            continue;
          }
        }
        if (caps.database_bytes) {
          const std::int64_t now = pages.step() ? pages.integer(0) : 0;
          pages.reset();
          if (now + size > *caps.database_bytes) {
            p->added.kept = Kept::database_full;
            continue;
          }
        }
        s.bind(1, a.student).bind(2, a.at).bind(3, a.answers).bind(4, a.score).bind(5, a.max_score).bind(6, a.feedback);
        s.step();
        p->added.id = sqlite3_last_insert_rowid(db_);
        s.reset();
        add_bytes.bind(1, a.student).bind(2, size).step();
        add_bytes.reset();
      }
      exec(db_, path_, "COMMIT");
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  } catch (const Error& e) {
    error = e.message().empty() ? "cannot store the attempt" : e.message();
  }
  std::lock_guard done(queue_mutex_);
  for (Pending* p : batch) {
    p->error = error;
    p->done = true;
  }
}

std::int64_t Store::counted_bytes_of(const std::string& student) {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "SELECT bytes FROM stored_bytes WHERE student = ?");
  s.bind(1, student);
  return s.step() ? s.integer(0) : 0;
}

std::vector<StorageUse> Store::students_at_storage_cap() {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "SELECT student, bytes FROM stored_bytes WHERE full = 1 ORDER BY student");
  std::vector<StorageUse> out;
  while (s.step()) out.push_back({s.text(0), s.integer(1)});
  return out;
}

bool Store::clear_stored_bytes(const std::string& student) {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "UPDATE stored_bytes SET bytes = 0, full = 0 WHERE student = ? AND (bytes > 0 OR full = 1)");
  s.bind(1, student).step();
  return sqlite3_changes(db_) > 0;
}

std::int64_t Store::database_bytes() {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
  return s.step() ? s.integer(0) : 0;
}

namespace {
AttemptRecord attempt_row(const Statement& s) {
  return {s.integer(0), s.text(1), s.text(2), s.text(3), s.real(4), s.real(5), s.text(6)};
}
}  // namespace

std::vector<AttemptRecord> Store::attempts_of(const std::string& student) {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_,
              "SELECT id, student, at, answers, score, max_score, feedback FROM attempts WHERE student = ? ORDER BY id");
  s.bind(1, student);
  std::vector<AttemptRecord> out;
  while (s.step()) out.push_back(attempt_row(s));
  return out;
}

std::vector<AttemptRecord> Store::all_attempts() {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "SELECT id, student, at, answers, score, max_score, feedback FROM attempts ORDER BY id");
  std::vector<AttemptRecord> out;
  while (s.step()) out.push_back(attempt_row(s));
  return out;
}

std::int64_t Store::attempt_count() {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "SELECT count(*) FROM attempts");
  return s.step() ? s.integer(0) : 0;
}

std::int64_t Store::attempt_count_of(const std::string& student) {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "SELECT count(*) FROM attempts WHERE student = ?");
  s.bind(1, student);
  return s.step() ? s.integer(0) : 0;
}

std::optional<std::string> Store::last_answers_of(const std::string& student) {
  std::lock_guard lock(db_mutex_);
  Statement s(db_, path_, "SELECT answers FROM attempts WHERE student = ? ORDER BY id DESC LIMIT 1");
  s.bind(1, student);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

}  // namespace attnmark
