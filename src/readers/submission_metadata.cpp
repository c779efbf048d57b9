#include "readers/submission_metadata.h"

#include <nlohmann/json.hpp>

#include "base/text.h"

namespace attnmark {

namespace {

// A field as an id: a string, trimmed, or a whole number (an sid some
// rosters keep as a number).
std::string id_text(const nlohmann::json& user, const char* key) {
  const auto it = user.find(key);
  if (it == user.end()) return "";
  if (it->is_string()) return std::string(trim(it->get_ref<const std::string&>()));
  if (it->is_number_integer()) return it->dump();
  return "";
}

}  // namespace

SubmitterId gradescope_submitter(std::string_view json_text) {
  SubmitterId who;
  if (const std::string why = encoding_problem(json_text); !why.empty()) {
    who.problem = "submission_metadata.json: " + why;
    return who;
  }
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded()) {
    who.problem = "submission_metadata.json: not JSON that can be read";
    return who;
  }
  const auto users = j.is_object() ? j.find("users") : j.end();
  if (!j.is_object() || users == j.end() || !users->is_array() || users->empty() || !(*users)[0].is_object()) {
    who.problem = "submission_metadata.json lists no users";
    return who;
  }
  who.submitters = static_cast<int>(users->size());
  const nlohmann::json& user = (*users)[0];
  const auto usable = [&](const char* key) {
    const std::string text = id_text(user, key);
    return student_id_problem(text).empty() && text.size() <= 200 ? text : std::string();
  };
  who.sid = usable("sid");
  who.email = usable("email");
  who.user_id = usable("id");
  who.name = usable("name");
  for (const char* key : {"sid", "email"}) {
    const std::string id = id_text(user, key);
    if (id.empty()) continue;
    if (const std::string why = student_id_problem(id); !why.empty()) {
      who.problem += std::string(who.problem.empty() ? "" : "; ") + "users[0]." + key + " " + why;
      continue;
    }
    if (id.size() > 200) {
      who.problem += std::string(who.problem.empty() ? "" : "; ") + "users[0]." + key + " is longer than 200 bytes";
      continue;
    }
    who.id = id;
    who.from = key;
    who.problem.clear();
    return who;
  }
  if (who.problem.empty()) who.problem = "submission_metadata.json gives users[0] no sid and no email";
  return who;
}

}  // namespace attnmark
