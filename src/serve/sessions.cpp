#include "serve/sessions.h"

#include <algorithm>

#include "attnmark/base/error.h"
#include "serve/codes.h"

namespace attnmark {

namespace {

bool well_formed_id(std::string_view id) {
  return id.size() == 64 && std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

Sessions::Sessions(std::string key) : key_(key.empty() ? random_hex(32) : std::move(key)) {}

std::string Sessions::anonymous_csrf(std::string_view id) const {
  return labelled_hmac_hex(key_, "attnmark anonymous form", id);
}

Opened Sessions::open(const std::string& id, const HtmlStyle& style, std::int64_t now) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = by_id_.find(id); it != by_id_.end()) {
      if (now - it->second.used < idle_seconds) {
        it->second.used = now;
        return {id, it->second, false};
      }
      by_id_.erase(it);
    }
  }
  if (well_formed_id(id)) return {id, Session{"", anonymous_csrf(id), style, now}, false};
  std::string fresh = random_hex(32);
  Session anonymous{"", anonymous_csrf(fresh), style, now};
  return {std::move(fresh), std::move(anonymous), true};
}

void Sessions::make_room(const std::string& student, std::int64_t now) {
  const auto least_recent = [&](auto keep) {
    auto oldest = by_id_.end();
    for (auto it = by_id_.begin(); it != by_id_.end(); ++it)
      if (keep(it->second) && (oldest == by_id_.end() || it->second.used < oldest->second.used)) oldest = it;
    if (oldest != by_id_.end()) by_id_.erase(oldest);
  };
  std::size_t theirs = 0;
  for (const auto& [id, s] : by_id_) theirs += s.student == student;
  for (; theirs >= most_per_student; --theirs) least_recent([&](const Session& s) { return s.student == student; });
  if (by_id_.size() >= most) std::erase_if(by_id_, [&](const auto& e) { return now - e.second.used >= idle_seconds; });
  while (by_id_.size() >= most) least_recent([](const Session&) { return true; });
}

std::string Sessions::sign_in(const std::string& old_id, const std::string& student, const HtmlStyle& style,
                              std::int64_t now) {
  std::string fresh = random_hex(32);
  Session s{student, random_hex(32), style, now};
  std::lock_guard lock(mutex_);
  by_id_.erase(old_id);
  make_room(student, now);
  by_id_[fresh] = std::move(s);
  return fresh;
}

void Sessions::save(const std::string& id, const Session& session) {
  if (session.student.empty()) return;
  std::lock_guard lock(mutex_);
  if (!by_id_.contains(id)) make_room(session.student, session.used);
  by_id_[id] = session;
}

void Sessions::forget(const std::string& id) {
  std::lock_guard lock(mutex_);
  by_id_.erase(id);
}

std::size_t Sessions::size() {
  std::lock_guard lock(mutex_);
  return by_id_.size();
}

bool form_from_session(std::string_view sent_csrf, const Session& session) {
  return !sent_csrf.empty() && same_secret(sent_csrf, session.csrf);
}

HtmlStyle remembered_style(std::string_view cookie, const HtmlStyle& otherwise) {
  const std::size_t dot = cookie.find('.');
  if (dot == std::string_view::npos) return otherwise;
  try {
    return html_style(cookie.substr(0, dot), cookie.substr(dot + 1));
  } catch (const Error&) {
    return otherwise;
  }
}

}  // namespace attnmark
