// serve/store.h: a served class on disk: one SQLite file holding the class
// (its secret, rubric, seed and roster, stored at first start) and every
// attempt a student checked.
//
//   Store store("class.sqlite");                    // opens or creates; migrates the schema
//   if (!store.has_class()) store.set_class(record); // first start
//   std::int64_t id = store.add_attempt(attempt);   // committed (to disk) when it returns
//   Store in("class.sqlite", StoreUse::read);       // access-codes: never creates or writes the file
//
// The file is in WAL mode with synchronous=FULL: an attempt add_attempt has
// returned survives kill -9 and a power cut. Attempts that arrive together
// from many threads share one commit (group commit), so a class checking at
// once costs one disk flush per batch, not per attempt.
//
// A Store is thread-safe: one connection, used behind a mutex.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace attnmark {

// The schema version this attnmark writes; older files are migrated on open,
// newer ones refused.
inline constexpr int store_schema_version = 2;

// What a Store is opened for.
enum class StoreUse {
  // attnmark serve: the file is created when missing, migrated to
  // store_schema_version and put in WAL mode, then written.
  serve,
  // access-codes, mark --db, generate --db: the file is read, never created,
  // migrated or written (so one of an older schema is refused until attnmark
  // serve has migrated it).
  read,
};

// What a class is, stored at first start and read at every later one.
struct ClassRecord {
  std::string secret;       // 64 hex digits; the access codes are HMACs of it
  std::string rubric_text;  // the rubric file's bytes
  std::string rubric_file;  // its name, for messages and the rubric's default name
  std::uint64_t seed = 0;
  std::string roster_text;  // the roster's bytes (CSV)
  std::string roster_file;
};

// One checked attempt.
struct AttemptRecord {
  std::int64_t id = 0;      // 1, 2, ... in the order stored
  std::string student;
  std::string at;           // UTC, "2026-12-01T08:00:00Z"
  std::string answers;      // the answers as sent (JSON text)
  double score = 0, max_score = 0;
  std::string feedback;     // exactly the feedback JSON the student was answered with
};

// The caps an attempt is stored under (serve/limits.h's ClassLimits), each
// checked in the same transaction as its insert, so checks at once cannot
// pass one together.
struct StoreCaps {
  std::optional<std::int64_t> attempts;           // attempts stored per student
  std::optional<std::int64_t> bytes_per_student;  // answers + feedback bytes counted per student
  std::optional<std::int64_t> database_bytes;     // the database's size (database_bytes())
};

// Whether an attempt was stored, or which cap kept it out.
enum class Kept {
  stored,
  attempts_used,   // the student has caps.attempts stored
  student_full,    // with it, the student's counted bytes would pass caps.bytes_per_student
  database_full,   // with it, the database would pass caps.database_bytes
};

struct Added {
  std::int64_t id = 0;  // its id when stored, else 0
  Kept kept = Kept::stored;
};

// A student who met their storage cap, for the teacher's page.
struct StorageUse {
  std::string student;
  std::int64_t bytes = 0;  // counted since the teacher last cleared them
};

class Store {
 public:
  // Opens `path`. Before anything is written, throws Error naming the file
  // when it is not a database ("is not an attnmark database, or is damaged
  // (file is not a database)"), is the SQLite database of another program
  // (tables but no attnmark schema: "is an SQLite database of another
  // program ..."), is locked by another program for more than `busy_ms`
  // ("is locked by another program ..."), or was written by a newer attnmark
  // (its schema version is above store_schema_version).
  // With StoreUse::read, a missing file is an error too ("does not exist;
  // attnmark serve creates it at its first start"), and so is an empty one
  // ("holds no class yet; ...", as load_class says of a file whose class was
  // never stored).
  explicit Store(const std::string& path, StoreUse use = StoreUse::serve, int busy_ms = 2000);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Whether the class was stored (by an earlier start).
  bool has_class();
  ClassRecord load_class();
  // REQUIRES: !has_class().
  void set_class(const ClassRecord& record);

  // The SHA-256 (hex) of the teacher's token; empty when none was set.
  std::string teacher_token_hash();
  void set_teacher_token_hash(const std::string& hash);

  // Stores the attempt and returns its id once it is committed to disk. With
  // `limit`, an attempt of a student who has `limit` stored already is not
  // stored, and 0 is returned: counted in the same transaction as the insert,
  // so two checks at once cannot both be the last one allowed.
  std::int64_t add_attempt(const AttemptRecord& attempt, std::optional<std::int64_t> limit = std::nullopt);
  // Stores the attempt unless one of `caps` keeps it out, and says which.
  // An attempt counts answers.size() + feedback.size() bytes against its
  // student (kept per student, added in the same transaction as the insert).
  Added add_attempt(const AttemptRecord& attempt, const StoreCaps& caps);
  // The bytes counted against `student`'s storage cap.
  std::int64_t counted_bytes_of(const std::string& student);
  // The students whose attempt was kept out by their storage cap since they
  // were last cleared, sorted by id.
  std::vector<StorageUse> students_at_storage_cap();
  // Counts `student`'s storage from 0 again (their attempts stay): they may
  // store another full allowance. False when nothing was counted.
  bool clear_stored_bytes(const std::string& student);
  // The database's size in bytes: its pages as SQLite counts them (the file,
  // once the write-ahead log is folded into it).
  std::int64_t database_bytes();
  // A student's attempts, oldest first.
  std::vector<AttemptRecord> attempts_of(const std::string& student);
  // Every attempt, oldest first.
  std::vector<AttemptRecord> all_attempts();
  std::int64_t attempt_count();
  std::int64_t attempt_count_of(const std::string& student);
  // The answers (AttemptRecord::answers) of the student's last attempt; nullopt with none.
  std::optional<std::string> last_answers_of(const std::string& student);

  // The schema version of the open file (store_schema_version once open).
  int schema_version();

  // What opening the file for serving did that the teacher is to be told
  // (an attnmark serve start prints each on standard error): "class.sqlite:
  // was readable by other users of this machine (mode 0644); it is now 0600,
  // with its -wal and -shm (yours only): it holds the class's secret, seed
  // and every attempt". The
  // file, its -wal and -shm are created 0600 (SQLite gives the -wal and -shm
  // the database's mode).
  const std::vector<std::string>& opening_notes() const { return notes_; }

  // Claims the file for one attnmark serve: a lock (flock) on PATH.serve-lock,
  // held until the Store goes (or the process dies, kill -9 included). Throws
  // Error ("is in use by another attnmark serve; stop it first") when another
  // process holds it. Reading commands (access-codes, mark --db) do not claim.
  void claim_for_serving();

 private:
  struct Pending;
  void write_batch(std::vector<Pending*>& batch);
  std::string meta(const std::string& key);
  void set_meta(const std::string& key, const std::string& value);

  std::string path_;
  std::vector<std::string> notes_;
  sqlite3* db_ = nullptr;
  int serve_lock_ = -1;  // the descriptor of PATH.serve-lock, once claimed
  std::mutex db_mutex_;  // the connection: one statement at a time
  std::mutex queue_mutex_;
  std::condition_variable committed_;
  std::vector<Pending*> queue_;
  bool committing_ = false;
};

}  // namespace attnmark
