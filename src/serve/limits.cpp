#include "serve/limits.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <fmt/format.h>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "serve/codes.h"

namespace attnmark {

std::string byte_size_text(std::int64_t bytes) {
  if (bytes < kibibyte) return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
  const char* unit = "KiB";
  std::int64_t size = kibibyte;
  if (bytes >= gibibyte) unit = "GiB", size = gibibyte;
  else if (bytes >= mebibyte) unit = "MiB", size = mebibyte;
  if (bytes % size == 0) return fmt::format("{} {}", bytes / size, unit);
  return fmt::format("{:.1f} {}", static_cast<double>(bytes) / static_cast<double>(size), unit);
}

std::string limits_rules_text(const ClassLimits& limits) {
  return fmt::format("at most {} check{} a minute per student; up to {} of attempts stored per student and {} in "
                     "all (later checks are answered, not stored)",
                     limits.checks_per_minute, limits.checks_per_minute == 1 ? "" : "s",
                     byte_size_text(limits.storage_per_student), byte_size_text(limits.database_max));
}

std::string not_kept_notice(Kept kept, const ClassLimits& limits) {
  return kept == Kept::student_full
             ? fmt::format("Checked, not kept: your stored attempts have reached {}, this class's limit per student; "
                           "your teacher can let you store more.",
                           byte_size_text(limits.storage_per_student))
             : fmt::format("Checked, not kept: the class's database has reached its limit of {}; your teacher has been "
                           "told.",
                           byte_size_text(limits.database_max));
}

std::string not_kept_header(Kept kept, const ClassLimits& limits) {
  return kept == Kept::student_full
             ? fmt::format("no (your stored attempts have reached the class's limit of {})",
                           byte_size_text(limits.storage_per_student))
             : "no (the class's database is full)";
}

std::string database_full_note(const ClassLimits& limits) {
  return fmt::format("the database has reached its limit of {} (--db-max): checks are answered but no longer kept; "
                     "start again with a larger --db-max to keep them",
                     byte_size_text(limits.database_max));
}

// ---- Checks per student per minute ----

namespace {
constexpr std::int64_t minute_ms = 60 * 1000;

// Whole seconds, rounded up, and at least 1: a Retry-After of 0 would invite a retry that is refused again.
std::int64_t seconds_up(std::int64_t ms) { return std::max<std::int64_t>(1, (ms + 999) / 1000); }

std::string seconds_text(std::int64_t s) { return fmt::format("{} second{}", s, s == 1 ? "" : "s"); }
}  // namespace

CheckTurn CheckRate::take(const std::string& student, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  std::deque<std::int64_t>& times = times_[student];
  while (!times.empty() && now_ms - times.front() >= minute_ms) times.pop_front();
  if (static_cast<int>(times.size()) < per_minute_) {
    times.push_back(now_ms);
    return {};
  }
  // Free again when the oldest check of the last minute is a minute old.
  const std::int64_t wait = seconds_up(times.front() + minute_ms - now_ms);
  return {false, wait,
          fmt::format("you have checked {} times in the last minute (this class allows {} a minute); try again in {}",
                      times.size(), per_minute_, seconds_text(wait))};
}

std::vector<std::pair<std::string, std::int64_t>> CheckRate::limited(std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (auto& [student, times] : times_) {
    while (!times.empty() && now_ms - times.front() >= minute_ms) times.pop_front();
    if (static_cast<int>(times.size()) >= per_minute_) out.emplace_back(student, seconds_up(times.front() + minute_ms - now_ms));
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool CheckRate::clear(const std::string& student) {
  std::lock_guard lock(mutex_);
  const auto it = times_.find(student);
  const bool any = it != times_.end() && !it->second.empty();
  if (it != times_.end()) times_.erase(it);
  return any;
}

// ---- Failed sign-ins ----

std::string counted_address(const std::string& address) {
  in6_addr v6{};
  if (address.find(':') == std::string::npos || inet_pton(AF_INET6, address.c_str(), &v6) != 1) return address;
  if (IN6_IS_ADDR_V4MAPPED(&v6)) {
    char text[INET_ADDRSTRLEN];
    return inet_ntop(AF_INET, &v6.s6_addr[12], text, sizeof text) ? text : address;
  }
  std::fill(std::begin(v6.s6_addr) + 8, std::end(v6.s6_addr), 0);
  char text[INET6_ADDRSTRLEN];
  return inet_ntop(AF_INET6, &v6, text, sizeof text) ? std::string(text) + "/64" : address;
}

int SignInLimits::Table::count(const std::string& key, std::int64_t now) const {
  const auto it = by_key.find(key);
  return it == by_key.end() || now - it->second.since >= window_ms ? 0 : it->second.count;
}

int SignInLimits::Table::fail(const std::string& key, std::int64_t now, int free) {
  if (by_key.size() >= most_keys) {
    std::erase_if(by_key, [&](const auto& e) { return now - e.second.since >= window_ms; });
    // Still full: those within their free allowance slow no one; they go.
    if (by_key.size() >= most_keys) std::erase_if(by_key, [&](const auto& e) { return e.second.count <= free; });
  }
  Failures& f = by_key[key];
  if (f.count == 0 || now - f.since >= window_ms) f = {now, 0};
  return ++f.count;
}

namespace {
// The held answer of a wrong code `over` failures past its allowance (0: not past it).
std::int64_t failure_delay(int over) {
  if (over <= 0) return 0;
  return over >= 6 ? SignInLimits::most_delay_ms
                   : std::min(SignInLimits::most_delay_ms, SignInLimits::first_delay_ms << (over - 1));
}
}  // namespace

SignIn SignInLimits::sign_in(const std::string& student, const std::string& address, std::string_view known,
                             std::int64_t now_ms, const std::function<bool()>& right) {
  // Counted by at most 200 bytes of the id: a 60 KB id costs the tables no more than a short one.
  const std::string id = student.substr(0, 200);
  const std::string from = counted_address(address);
  const std::string pair = from + '\n' + id;
  const bool known_browser = !known.empty() && same_secret(known, known_browser_cookie(id));
  std::int64_t wait = 0;  // for this address's turn
  {
    std::lock_guard lock(mutex_);
    if (!known_browser && addresses_.count(from, now_ms) >= queue_after) {
      std::int64_t& next = next_turn_[from];
      const std::int64_t turn = std::max(next, now_ms);
      if (turn - now_ms > longest_wait_ms) {
        const std::int64_t after = seconds_up(turn - now_ms - longest_wait_ms);
        return {false, 429,
                fmt::format("too many failed sign-ins from your network; try again in {}", seconds_text(after)), 0,
                after};
      }
      next = turn + turn_ms;
      wait = turn - now_ms;
    }
  }
  if (right()) return {true, 0, "", wait, 0};
  std::lock_guard lock(mutex_);
  const int over = std::max({pairs_.fail(pair, now_ms, free_per_pair) - free_per_pair,
                             ids_.fail(id, now_ms, free_per_id) - free_per_id,
                             addresses_.fail(from, now_ms, free_per_address) - free_per_address});
  if (next_turn_.size() > most_keys)
    std::erase_if(next_turn_, [&](const auto& e) { return e.second <= now_ms; });
  return {false, 401, "wrong student id or access code", std::max(wait, failure_delay(over)), 0};
}

std::string SignInLimits::random_key() { return random_hex(32); }

std::string SignInLimits::known_browser_cookie(std::string_view student) const {
  return labelled_hmac_hex(secret_, "attnmark known browser", student);
}

std::vector<Slowed> SignInLimits::slowed(std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto left = [&](const Failures& f) { return seconds_up(f.since + window_ms - now_ms); };
  std::vector<Slowed> addresses, ids;
  for (const auto& [key, f] : addresses_.by_key)
    if (now_ms - f.since < window_ms && f.count > free_per_address)
      addresses.push_back({"address", key, f.count, f.count >= queue_after, left(f)});
  std::unordered_map<std::string_view, bool> slowed_by_pair;  // ids with a pair past its allowance
  for (const auto& [pair, f] : pairs_.by_key)
    if (now_ms - f.since < window_ms && f.count > free_per_pair)
      slowed_by_pair[std::string_view(pair).substr(pair.find('\n') + 1)] = true;
  for (const auto& [key, f] : ids_.by_key)
    if (now_ms - f.since < window_ms && (f.count > free_per_id || slowed_by_pair.contains(key)))
      ids.push_back({"id", key, f.count, false, left(f)});
  const auto by_key = [](const Slowed& a, const Slowed& b) { return a.key < b.key; };
  std::sort(addresses.begin(), addresses.end(), by_key);
  std::sort(ids.begin(), ids.end(), by_key);
  addresses.insert(addresses.end(), ids.begin(), ids.end());
  return addresses;
}

bool SignInLimits::clear(std::string_view kind, std::string_view key) {
  std::lock_guard lock(mutex_);
  const std::string k(key);
  const bool address = kind == "address";
  bool any = (address ? addresses_ : ids_).by_key.erase(k) > 0;
  if (address) next_turn_.erase(k);
  any |= std::erase_if(pairs_.by_key, [&](const auto& e) {
           const std::size_t cut = e.first.find('\n');
           return address ? e.first.compare(0, cut, k) == 0 : e.first.compare(cut + 1, std::string::npos, k) == 0;
         }) > 0;
  return any;
}

// ---- What the teacher clears ----

std::string clear_limit(std::string_view kind, std::string_view key, CheckRate& checks, SignInLimits& sign_ins,
                        Store& store, const ClassLimits& limits) {
  const std::string who = printable(key, 200);
  const std::string none = "nothing to clear for " + who;
  if (kind == "checks") return checks.clear(std::string(key)) ? who + " may check again at once" : none;
  if (kind == "storage")
    return store.clear_stored_bytes(std::string(key))
               ? fmt::format("{} may store another {}", who, byte_size_text(limits.storage_per_student))
               : none;
  if (kind == "address")
    return sign_ins.clear(kind, key) ? "sign-ins from " + who + " are no longer slowed" : none;
  if (kind == "id") return sign_ins.clear(kind, key) ? "sign-ins as " + who + " are no longer slowed" : none;
  throw Error(fmt::format("kind: expected checks, storage, address or id; got {}", quoted_printable(kind)));
}

}  // namespace attnmark
