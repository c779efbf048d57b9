#include "serve/limits.h"

namespace attnmark {

bool FailureLimiter::blocked(const std::string& key, std::int64_t now) {
  std::lock_guard lock(mutex_);
  const auto it = counts_.find(key);
  if (it == counts_.end()) return false;
  if (now - it->second.first >= window_) {
    counts_.erase(it);
    return false;
  }
  return it->second.second >= limit_;
}

void FailureLimiter::fail(const std::string& key, std::int64_t now) {
  std::lock_guard lock(mutex_);
  if (counts_.size() > 100000)
    std::erase_if(counts_, [&](const auto& e) { return now - e.second.first >= window_; });
  auto& entry = counts_[key];
  if (entry.second == 0 || now - entry.first >= window_) entry = {now, 0};
  ++entry.second;
}

SignIn SignInLimits::sign_in(const std::string& student, const std::string& address, std::int64_t now,
                             const std::function<bool()>& right) {
  const char* too_many = "too many failed sign-ins; wait a few minutes and try again";
  // Counted by at most 200 bytes of the id: a 60 KB id costs the table no more than a short one.
  const std::string id_key = "id:" + student.substr(0, 200);
  const std::string address_key = "addr:" + address;
  if (per_id_.blocked(id_key, now)) return {false, 429, too_many};
  if (right()) return {true, 0, ""};
  per_id_.fail(id_key, now);
  const bool address_held = per_address_.blocked(address_key, now);
  per_address_.fail(address_key, now);
  if (address_held) return {false, 429, too_many};
  return {false, 401, "wrong student id or access code"};
}

}  // namespace attnmark
