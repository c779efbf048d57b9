#include "serve/live_view.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>

#include "attnmark/lesson/diagnosis.h"
#include "serve/http.h"
#include "serve/pages.h"
#include "writers/report_words.h"

namespace attnmark {
namespace {

// The code every radar lists first: the lesson's common mistake.
constexpr std::string_view common_mistake = "hard-attention";

std::optional<double> number_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::string words_of(const std::string& code) {
  const std::string_view w = explain(code);
  return w.empty() ? code : std::string(w);
}

std::string score_of(std::optional<double> score, std::optional<double> max_score) {
  if (!score || !max_score) return "–";
  return score_text(*score) + " / " + score_text(*max_score);
}

void add_once(std::vector<std::string>& codes, const std::string& code) {
  if (std::find(codes.begin(), codes.end(), code) == codes.end()) codes.push_back(code);
}

// The facts of `a`, from the cache when one is given.
std::shared_ptr<const AttemptFacts> facts_of(const AttemptRecord& a, LiveCache* cache) {
  if (cache) return cache->facts(a);
  return std::make_shared<const AttemptFacts>(attempt_facts(a));
}

// The position of `code` in the lesson's catalogue (unknown codes after it).
std::size_t catalogue_rank(const std::string& code) {
  const std::vector<Mistake>& all = mistakes();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].code == code) return i;
  return all.size();
}

}  // namespace

AttemptFacts attempt_facts(const AttemptRecord& attempt) {
  AttemptFacts f;
  const nlohmann::json j = nlohmann::json::parse(attempt.feedback, nullptr, false);
  if (!j.is_object()) return f;
  f.score = number_of(j, "score");
  f.max_score = number_of(j, "max_score");
  const auto qs = j.find("questions");
  if (qs == j.end() || !qs->is_array()) return f;
  for (const nlohmann::json& q : *qs) {
    if (!q.is_object()) continue;
    QuestionFacts qf;
    if (const auto id = q.find("id"); id != q.end() && id->is_string()) qf.id = id->get<std::string>();
    qf.score = number_of(q, "score");
    qf.max_score = number_of(q, "max_score");
    if (const auto parts = q.find("parts"); parts != q.end() && parts->is_object())
      for (const auto& item : parts->items()) {
        const nlohmann::json& part = item.value();
        if (!part.is_object()) continue;
        const auto d = part.find("diagnoses");
        if (d == part.end() || !d->is_array()) continue;
        for (const nlohmann::json& code : *d)
          if (code.is_string()) add_once(qf.mistakes, code.get<std::string>());
      }
    f.questions.push_back(std::move(qf));
  }
  return f;
}

std::shared_ptr<const AttemptFacts> LiveCache::facts(const AttemptRecord& attempt) {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = facts_.find(attempt.id); it != facts_.end()) return it->second;
  }
  // Read outside the lock: two threads may both read a new attempt, to the same facts.
  auto made = std::make_shared<const AttemptFacts>(attempt_facts(attempt));
  std::lock_guard lock(mutex_);
  return facts_.emplace(attempt.id, std::move(made)).first->second;
}

std::size_t LiveCache::size() {
  std::lock_guard lock(mutex_);
  return facts_.size();
}

LiveView live_view(const Classroom& room, const std::vector<AttemptRecord>& attempts, ScoreRule rule, bool paused,
                   LiveCache* cache) {
  LiveView v;
  v.counts_best = rule == ScoreRule::best;
  v.paused = paused;
  for (const QuestionSpec& q : room.rubric().questions) v.questions.push_back(q.id);
  struct Seen {
    std::size_t attempts = 0;
    const AttemptRecord* counted = nullptr;
    const AttemptRecord* latest = nullptr;
  };
  std::map<std::string, Seen> seen;
  for (const AttemptRecord& a : attempts) {
    if (!room.find(a.student)) continue;
    Seen& s = seen[a.student];
    ++s.attempts;
    if (!s.counted || counts_over(a, *s.counted, rule)) s.counted = &a;
    s.latest = &a;
  }
  for (const RosterEntry& e : room.roster()) {
    LiveRow row{e.student, e.name, encode_query_value(e.student), 0, "–", {}, "", {}};
    if (const auto it = seen.find(e.student); it != seen.end()) {
      const Seen& s = it->second;
      row.attempts = s.attempts;
      row.score = score_text(s.counted->score) + " / " + score_text(s.counted->max_score);
      const std::shared_ptr<const AttemptFacts> counted = facts_of(*s.counted, cache);
      for (const QuestionFacts& q : counted->questions) row.marks.push_back({q.id, score_of(q.score, q.max_score)});
      row.last_check = s.latest->at;
      std::vector<std::string> codes;
      // Held here: without a cache the facts live only as long as this pointer.
      const std::shared_ptr<const AttemptFacts> latest = facts_of(*s.latest, cache);
      for (const QuestionFacts& q : latest->questions)
        for (const std::string& c : q.mistakes) add_once(codes, c);
      for (const std::string& c : codes) row.mistakes.push_back({c, words_of(c)});
    }
    v.rows.push_back(std::move(row));
  }
  return v;
}

RadarQuery radar_query_of(const Classroom& room, const std::multimap<std::string, std::string>& params,
                          std::int64_t now) {
  RadarQuery q;
  auto value = [&](const char* key) {
    const auto it = params.find(key);
    return it == params.end() ? std::string() : it->second;
  };
  const std::string window = value("window");
  if (window == "10" || window == "30" || window == "60") {
    q.window = window;
    q.since = utc_date_time(now - 60 * std::stoll(window));
  } else if (const std::string since = value("since");
             since.size() == 20 && since[4] == '-' && since[10] == 'T' && since[19] == 'Z' &&
             std::all_of(since.begin(), since.end(), [](char c) { return (c >= '0' && c <= '9') || c == '-' || c == ':' || c == 'T' || c == 'Z'; })) {
    q.window = "since";
    q.since = since;
  }
  const std::string question = value("question");
  if (question == "each") q.question = question;
  for (const QuestionSpec& s : room.rubric().questions)
    if (s.id == question) q.question = question;
  q.names = value("names") == "1";
  q.paused = value("pause") == "1";
  return q;
}

RadarPage radar_page(const Classroom& room, const std::vector<AttemptRecord>& attempts, const RadarQuery& query,
                     const HtmlStyle& style, LiveCache* cache) {
  RadarPage p;
  p.title = display_title(room.rubric());
  p.style = style;
  p.paused = query.paused;
  p.names = query.names;
  p.since = query.since;
  p.window = query.window;
  p.question = query.question;
  for (const QuestionSpec& q : room.rubric().questions) p.questions.push_back(q.id);

  // Each student's attempts in the window, and the latest of them.
  std::map<std::string, std::vector<std::shared_ptr<const AttemptFacts>>> in_window;
  for (const AttemptRecord& a : attempts) {
    // UTC texts of one format order as their times do.
    if (!room.find(a.student) || (!query.since.empty() && a.at < query.since)) continue;
    in_window[a.student].push_back(facts_of(a, cache));
  }
  p.students = in_window.size();

  // The key of a row: (question or "", code).
  const bool by_question = !query.question.empty();
  struct Count {
    std::set<std::string> made;
    std::vector<std::string> still;  // roster order
  };
  std::map<std::pair<std::string, std::string>, Count> counts;
  auto codes_of = [&](const AttemptFacts& f) {
    std::set<std::pair<std::string, std::string>> keys;
    for (const QuestionFacts& q : f.questions) {
      if (query.question != "" && query.question != "each" && q.id != query.question) continue;
      for (const std::string& c : q.mistakes) keys.insert({by_question ? q.id : "", c});
    }
    return keys;
  };
  for (const RosterEntry& e : room.roster()) {
    const auto it = in_window.find(e.student);
    if (it == in_window.end()) continue;
    for (const auto& f : it->second)
      for (const auto& key : codes_of(*f)) counts[key].made.insert(e.student);
    for (const auto& key : codes_of(*it->second.back())) counts[key].still.push_back(e.student);
  }
  for (const auto& [key, c] : counts)
    p.rows.push_back({key.second, words_of(key.second), key.first, c.made.size(), c.still.size(), c.still});

  std::map<std::string, std::size_t> question_rank;
  for (std::size_t i = 0; i < p.questions.size(); ++i) question_rank[p.questions[i]] = i;
  std::stable_sort(p.rows.begin(), p.rows.end(), [&](const RadarRow& a, const RadarRow& b) {
    if (a.question != b.question) return question_rank[a.question] < question_rank[b.question];
    const bool a_common = a.code == common_mistake, b_common = b.code == common_mistake;
    if (a_common != b_common) return a_common;
    if (a.made != b.made) return a.made > b.made;
    return catalogue_rank(a.code) < catalogue_rank(b.code);
  });
  return p;
}

}  // namespace attnmark
