// serve/limits.h: how many failed sign-ins attnmark serve allows, per student
// id and per address, in a window of time.
//
//   SignInLimits limits(10, 50, 15 * 60);
//   SignIn s = limits.sign_in("s001", "10.0.0.7", now, [&] { return codes_match(code, typed); });
//   if (!s.ok) answer(s.status, s.message);   // 401 or 429
//
// Thread-safe: each table is behind a lock.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace attnmark {

// Failures counted per key in a window that starts at the key's first
// failure and lasts `window_seconds`.
class FailureLimiter {
 public:
  FailureLimiter(int limit, int window_seconds) : limit_(limit), window_(window_seconds) {}
  // Whether `key` has `limit` failures in its window at `now`.
  bool blocked(const std::string& key, std::int64_t now);
  // Counts a failure of `key` at `now`. Past 100,000 keys the expired ones
  // are forgotten first, so junk ids cannot grow the table forever.
  void fail(const std::string& key, std::int64_t now);

 private:
  int limit_, window_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::pair<std::int64_t, int>> counts_;  // key → (window start, failures)
};

// What a sign-in comes to.
struct SignIn {
  bool ok = false;
  int status = 0;       // when refused: 401 (a wrong id or code) or 429 (too many failures)
  std::string message;  // when refused: "wrong student id or access code", "too many failed sign-ins; ..."
};

class SignInLimits {
 public:
  SignInLimits(int failures_per_id, int failures_per_address, int window_seconds)
      : per_id_(failures_per_id, window_seconds), per_address_(failures_per_address, window_seconds) {}

  // A sign-in of `student` from `address` at `now`; `right` says whether the
  // code was the student's, and is asked only when the id is not held. An id
  // past its failures is refused even with its right code: that is what
  // stops guessing one student's code. An address past its failures is
  // refused only wrong codes: behind a school's NAT or a proxy a whole class
  // is one address, and others' typos must not keep a student out. Failures
  // are counted against the id and the address alike, the address held or not.
  SignIn sign_in(const std::string& student, const std::string& address, std::int64_t now,
                 const std::function<bool()>& right);

 private:
  FailureLimiter per_id_, per_address_;
};

}  // namespace attnmark
