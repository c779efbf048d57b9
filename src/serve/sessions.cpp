#include "serve/sessions.h"

#include "attnmark/base/error.h"
#include "serve/codes.h"

namespace attnmark {

Opened Sessions::open(const std::string& id, const HtmlStyle& style, std::int64_t now) {
  std::lock_guard lock(mutex_);
  if (auto it = by_id_.find(id); !id.empty() && it != by_id_.end() && now - it->second.used < idle_seconds) {
    it->second.used = now;
    return {id, it->second, false};
  }
  if (by_id_.size() > most) {
    std::erase_if(by_id_, [&](const auto& e) { return now - e.second.used >= 3600; });
    if (by_id_.size() > most) std::erase_if(by_id_, [](const auto& e) { return e.second.student.empty(); });
  }
  Opened fresh{random_hex(32), Session{"", random_hex(32), style, now}, true};
  by_id_[fresh.id] = fresh.session;
  return fresh;
}

void Sessions::save(const std::string& id, const Session& session) {
  std::lock_guard lock(mutex_);
  by_id_[id] = session;
}

void Sessions::forget(const std::string& id) {
  std::lock_guard lock(mutex_);
  by_id_.erase(id);
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
