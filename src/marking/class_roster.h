// marking/class_roster.h: the class list `mark --roster` marks against: who
// is on it, and which roster id a near-miss (`S002`, `s2`, `s002.`) meant.
//
//   ClassRoster roster(read_roster(text, "class.csv"));
//   roster.find("s002") == 1;  roster.near("S002") == "s002";  roster.near("s9") == ""
//   roster.identify("Ada@Example.org") == 1   // the email in s002's row
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "readers/roster.h"

namespace attnmark {

// An id as near-misses of it are compared: small letters and digits only,
// each run of digits without its leading zeros. near_id_key("S-002.") == "s2".
std::string near_id_key(std::string_view id);

// A value as identify compares it: trimmed, and an email (it holds '@') in
// small letters, since mail systems ignore the case of an address while an
// id's case is part of it ("S002" is not the roster's "s002"; --near-ids
// matches that). identity_key(" Ada@Example.ORG ") == "ada@example.org".
std::string identity_key(std::string_view value);

class ClassRoster {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  explicit ClassRoster(std::vector<RosterEntry> students);

  const std::vector<RosterEntry>& students() const { return students_; }
  // The index of the student with exactly this id, or npos.
  std::size_t find(const std::string& id) const;
  // The index of the student `value` names: the roster id itself, else the
  // one student whose identity columns (is_identity_title: email, login,
  // SIS ids, ID number, username; not an LMS's own ID) hold it, compared as identity_key
  // makes them (trimmed; emails in any case); npos when none does or several do.
  // A form that asks for an email, or Gradescope's metadata, is matched to
  // the id the student's worksheet was made from.
  std::size_t identify(std::string_view value) const;
  // Whether identify(value) is npos because several students hold the value
  // (not because none does).
  bool ambiguous(std::string_view value) const;
  // The roster id that `id` (not on the roster) most likely meant: the one
  // whose near_id_key is the same, when exactly one roster id has it; else "".
  std::string near(const std::string& id) const;

 private:
  std::vector<RosterEntry> students_;
  std::unordered_map<std::string, std::size_t> index_;  // id → its index
  std::unordered_map<std::string, std::size_t> identity_;  // identity_key of the id and identity fields → index, or npos when shared
  std::unordered_map<std::string, std::size_t> near_;   // near_id_key → index, or npos when two ids share it
};

}  // namespace attnmark
