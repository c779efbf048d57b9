// serve/limits.h: what one student, or one address, may cost a served class:
// checks per student per minute, stored bytes per student and in all (the
// store counts them: serve/store.h's StoreCaps), and how failed sign-ins slow
// the one guessing, never the student with their right code.
//
//   CheckRate rate(30);
//   if (CheckTurn t = rate.take("s001", now_ms); !t.ok) answer(429, t.message, t.retry_after_seconds);
//
//   SignInLimits sign_ins(class_secret);
//   SignIn s = sign_ins.sign_in("s001", address, known_cookie, now_ms, [&] { return codes_match(code, typed); });
//   // hold the answer s.delay_ms, then: s.ok, or s.status (401, 429) and s.message
//
// Times are milliseconds of one steady clock (any epoch), so a clock set
// back cannot unblock anyone early or hold them for hours. Thread-safe: each
// table is behind a lock. Every table is bounded: junk ids and addresses
// cannot grow it without end.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "serve/store.h"

namespace attnmark {

inline constexpr std::int64_t kibibyte = 1024, mebibyte = 1024 * kibibyte, gibibyte = 1024 * mebibyte;

// The caps of a start (attnmark serve's options; docs/serve.md).
struct ClassLimits {
  int checks_per_minute = 30;                       // --checks-per-minute: per student, in any 60 s
  std::int64_t storage_per_student = 2 * mebibyte;  // --storage-per-student: answers + feedback bytes kept
  std::int64_t database_max = gibibyte;             // --db-max: the database file's bytes
};

// Bytes as the rules line and the teacher's page write them: whole KiB, MiB
// or GiB when exact ("2 MiB", "1 GiB", "512 KiB"), else one decimal in the
// largest unit it reaches ("1.5 MiB", "12.3 KiB"), and "N bytes" below 1 KiB.
std::string byte_size_text(std::int64_t bytes);

// The caps as the class's rules line says them:
//   "at most 30 checks a minute per student; up to 2 MiB of attempts stored
//    per student and 1 GiB in all (later checks are answered, not stored)"
std::string limits_rules_text(const ClassLimits& limits);

// What a student is told of a check marked but not kept (Kept, serve/store.h):
//   the page's notice: "Checked, not kept: your stored attempts have reached
//     2 MiB, this class's limit per student; your teacher can let you store more."
//     "Checked, not kept: the class's database has reached its limit of 1 GiB;
//     your teacher has been told."
//   the API's X-Attnmark-Stored header: "no (your stored attempts have reached
//     the class's limit of 2 MiB)", "no (the class's database is full)".
// REQUIRES: kept is student_full or database_full.
std::string not_kept_notice(Kept kept, const ClassLimits& limits);
std::string not_kept_header(Kept kept, const ClassLimits& limits);
// What the teacher is told on standard error, once a start, when the
// database first keeps a check out: "the database has reached its limit of
// 1 GiB (--db-max): checks are answered but no longer kept; start again with
// a larger --db-max to keep them".
std::string database_full_note(const ClassLimits& limits);

// ---- Checks per student per minute ----

// Whether a student may check now.
struct CheckTurn {
  bool ok = true;
  std::int64_t retry_after_seconds = 0;  // when refused: the Retry-After header (1 or more)
  std::string message;                   // when refused: the student's sentence (429)
};

// At most `per_minute` checks of one student in any 60 seconds (a sliding
// window: the checks of the last 60 s are kept, one time each).
class CheckRate {
 public:
  explicit CheckRate(int per_minute) : per_minute_(per_minute) {}
  // A check of `student` at `now_ms`: counted and allowed, or refused (and not
  // counted) with when to try again: "you have checked 30 times in the last
  // minute (this class allows 30 a minute); try again in 12 seconds".
  // REQUIRES: `student` is on the roster (signed in): the table holds one
  // entry per student.
  CheckTurn take(const std::string& student, std::int64_t now_ms);
  // The students who would be refused at `now_ms`, sorted, with the seconds until each may check again.
  std::vector<std::pair<std::string, std::int64_t>> limited(std::int64_t now_ms);
  // Forgets `student`'s checks: they may check again at once. False when none were counted.
  bool clear(const std::string& student);
  int per_minute() const { return per_minute_; }

 private:
  int per_minute_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<std::int64_t>> times_;  // the last minute's checks, oldest first
};

// ---- Failed sign-ins ----

// What a sign-in comes to.
struct SignIn {
  bool ok = false;
  int status = 0;                        // when refused: 401 (a wrong id or code) or 429 (not checked: wait)
  std::string message;                   // when refused: the sentence for the student
  std::int64_t delay_ms = 0;             // hold the answer (right or wrong) this long before sending it
  std::int64_t retry_after_seconds = 0;  // with 429: the Retry-After header
};

// One slowed address or id, for the teacher's page.
struct Slowed {
  std::string kind;  // "address" or "id": what clear() takes
  std::string key;   // the address (an IPv6 one as its /64) or the student id
  int failures = 0;  // in the window
  bool queued = false;                // an address whose sign-ins wait their turn
  std::int64_t seconds_left = 0;      // until the window ends and it is free again
};

// The rule (docs/serve.md, "Sign-in"), with failures counted over 15 minutes
// from a key's first failure:
//  - A right code signs in, whatever others have failed on that id.
//  - A wrong code's answer is held: after the first 5 failures of an
//    (address, id), 10 of an id or 20 of an address, by 250 ms, doubling
//    with each failure past the allowance, to at most 4 s.
//  - From 100 failures of an address on, the address is queued: its
//    sign-ins are answered one a second, in turn (each waits for the
//    address's next free second); one that would wait over 10 s is 429 at
//    once with Retry-After, its code not checked. A browser that has signed
//    in as that student before (it holds known_browser_cookie(student)) is
//    never queued.
// An IPv6 address is counted by its /64: one machine has a whole /64.
class SignInLimits {
 public:
  static constexpr std::int64_t window_ms = 15 * 60 * 1000;
  static constexpr int free_per_pair = 5, free_per_id = 10, free_per_address = 20;
  static constexpr int queue_after = 100;  // failures of an address
  static constexpr std::int64_t first_delay_ms = 250, most_delay_ms = 4000;
  static constexpr std::int64_t turn_ms = 1000, longest_wait_ms = 10000;
  // Past this many keys in a table, the expired go, then those still within
  // their free allowance.
  static constexpr std::size_t most_keys = 100000;

  // `class_secret` keys the known-browser cookies, so they stay valid across starts.
  explicit SignInLimits(std::string class_secret) : secret_(std::move(class_secret)) {}

  // A sign-in of `student` from `address` at `now_ms`. `known` is the value
  // of the browser's attnmark_known cookie ("" when none; the API has none).
  // `right` says whether the code is the student's; it is asked unless the
  // answer is 429. Messages: "wrong student id or access code"; "too many
  // failed sign-ins from your network; try again in 12 seconds".
  SignIn sign_in(const std::string& student, const std::string& address, std::string_view known, std::int64_t now_ms,
                 const std::function<bool()>& right);

  // The attnmark_known cookie's value for a browser that signed in as
  // `student` (64 hex digits); set it at every sign-in, for a year.
  std::string known_browser_cookie(std::string_view student) const;

  // Addresses and ids past their free allowance at `now_ms`: addresses
  // first, then ids, each sorted by key.
  std::vector<Slowed> slowed(std::int64_t now_ms);
  // Forgets the failures of an address (kind "address") or an id ("id"),
  // with those of each (address, id) pair it is in. False when there were none.
  bool clear(std::string_view kind, std::string_view key);

 private:
  struct Failures {
    std::int64_t since = 0;  // the window's start
    int count = 0;
  };
  struct Table {
    std::unordered_map<std::string, Failures> by_key;
    int count(const std::string& key, std::int64_t now) const;  // failures in the window at `now`
    int fail(const std::string& key, std::int64_t now, int free);  // one more; returns the count
  };

  static std::string random_key();

  std::string secret_;
  std::mutex mutex_;
  Table pairs_, ids_, addresses_;
  std::unordered_map<std::string, std::int64_t> next_turn_;  // a queued address's next free turn
};

// The address as sign-ins count it: an IPv6 address's /64 ("2001:db8:1:2::/64"),
// any other as given.
std::string counted_address(const std::string& address);

// ---- What the teacher clears ----

// The teacher page's /teacher/clear: `kind` is "checks" (a student's
// checks of the last minute), "storage" (the bytes counted against a
// student's storage: they may store another full allowance; their attempts
// stay), "address" or "id" (failed sign-ins). Returns the sentence the
// teacher is shown: "s001 may check again at once", "s001 may store another
// 2 MiB", "sign-ins from 10.0.0.7 are no longer slowed", "sign-ins as s001 are
// no longer slowed", or, for nothing to clear, "nothing to clear for s001".
// Throws Error for a kind there is not ("kind: expected checks, storage,
// address or id; got 'x'").
std::string clear_limit(std::string_view kind, std::string_view key, CheckRate& checks, SignInLimits& sign_ins,
                        Store& store, const ClassLimits& limits);

}  // namespace attnmark
