#include "marking/class_roster.h"

#include <algorithm>
#include <utility>

#include "base/text.h"
#include "readers/columns.h"

namespace attnmark {

std::string near_id_key(std::string_view id) {
  std::string key, digits;  // digits: the run of digits being read
  auto end_run = [&] {
    const std::size_t first = digits.find_first_not_of('0');
    // "002" is "2"; "000" is "0": a number, not nothing.
    if (!digits.empty()) key += first == std::string::npos ? "0" : digits.substr(first);
    digits.clear();
  };
  for (char c : id) {
    if (c >= '0' && c <= '9') {
      digits += c;
      continue;
    }
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c < 'a' || c > 'z') continue;  // spaces and punctuation say nothing (a run of digits goes on)
    end_run();
    key += c;
  }
  end_run();
  return key;
}

ClassRoster::ClassRoster(std::vector<RosterEntry> students) : students_(std::move(students)) {
  for (std::size_t i = 0; i < students_.size(); ++i) {
    index_.emplace(students_[i].student, i);
    auto [it, fresh] = near_.emplace(near_id_key(students_[i].student), i);
    if (!fresh) it->second = npos;  // two roster ids look alike: neither is a guess
  }
  for (std::size_t i = 0; i < students_.size(); ++i) {
    std::vector<std::string> values = {identity_key(students_[i].student)};
    for (const auto& [title, value] : students_[i].fields)
      if (!value.empty() && is_identity_title(title))
        values.push_back(identity_key(value));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (std::string& value : values) {
      auto [it, fresh] = identity_.emplace(std::move(value), i);
      if (!fresh) it->second = npos;  // two students share it: it names neither
    }
  }
}

std::string identity_key(std::string_view value) {
  const std::string_view trimmed = trim(value);
  return trimmed.find('@') == std::string_view::npos ? std::string(trimmed) : lower(trimmed);
}

std::size_t ClassRoster::identify(std::string_view value) const {
  const std::string key = identity_key(value);
  if (key.empty()) return npos;
  if (const std::size_t at = find(std::string(trim(value))); at != npos) return at;
  const auto it = identity_.find(key);
  return it == identity_.end() ? npos : it->second;
}

bool ClassRoster::ambiguous(std::string_view value) const {
  const std::string_view trimmed = trim(value);
  if (trimmed.empty() || find(std::string(trimmed)) != npos) return false;
  const auto it = identity_.find(lower(trimmed));
  return it != identity_.end() && it->second == npos;
}

std::size_t ClassRoster::find(const std::string& id) const {
  const auto it = index_.find(id);
  return it == index_.end() ? npos : it->second;
}

std::string ClassRoster::near(const std::string& id) const {
  const std::string key = near_id_key(id);
  if (key.empty()) return std::string();
  const auto it = near_.find(key);
  return it == near_.end() || it->second == npos ? std::string() : students_[it->second].student;
}

}  // namespace attnmark
