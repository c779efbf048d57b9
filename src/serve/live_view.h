// serve/live_view.h: the data of the teacher's live pages (writers/
// teacher_pages lays them out), made of the attempts one read of the store
// gave. Attempts are not judged again: each one's scores and mistake codes
// are read from its stored feedback JSON, once per attempt when a LiveCache
// is given (attempts never change, so the cache is keyed by attempt id).
//
//   LiveCache cache;                                   // held by the server
//   LiveView v = live_view(room, store.all_attempts(), ScoreRule::best, paused, &cache);
//   RadarPage r = radar_page(room, store.all_attempts(), radar_query_of(room, req.query, now_seconds()), style, &cache);
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "serve/classroom.h"
#include "serve/score_rule.h"
#include "serve/store.h"
#include "writers/teacher_pages.h"

namespace attnmark {

// What the live pages need of one attempt, read from its feedback JSON.
struct QuestionFacts {
  std::string id;                          // "q1"
  std::optional<double> score, max_score;
  std::vector<std::string> mistakes;       // every part's codes, each once, first named first
};
struct AttemptFacts {
  std::optional<double> score, max_score;  // null when it could not be marked
  std::vector<QuestionFacts> questions;    // the lesson's order
};

// The facts of `attempt`; feedback that does not read gives no scores and no mistakes.
AttemptFacts attempt_facts(const AttemptRecord& attempt);

// AttemptFacts by attempt id, filled as attempts are first seen. Thread-safe.
class LiveCache {
 public:
  std::shared_ptr<const AttemptFacts> facts(const AttemptRecord& attempt);
  std::size_t size();

 private:
  std::mutex mutex_;
  std::map<std::int64_t, std::shared_ptr<const AttemptFacts>> facts_;
};

// The live table: every roster student (roster order) with the attempt that
// counts by `rule` (counts_over), its per-question marks, their latest
// attempt's time and mistakes, and their count of attempts. `attempts` in
// stored order (oldest first); students not on the roster are left out.
LiveView live_view(const Classroom& room, const std::vector<AttemptRecord>& attempts, ScoreRule rule, bool paused,
                   LiveCache* cache = nullptr);

// What the radar is asked for.
struct RadarQuery {
  std::string since;     // attempts at or after this UTC time ("2026-12-02T10:00:00Z"), "" for all
  std::string window;    // as the form chose it: "", "10", "30", "60" or "since"
  std::string question;  // "" whole lesson, "each" grouped by question, or one question id
  bool names = false;
  bool paused = false;
};

// The query of GET /teacher/radar[.csv] from its parameters, at `now` (Unix
// seconds): window=10|30|60 sets since to that many minutes before now;
// since=UTC time (as stored: "2026-12-02T10:00:00Z") sets it as given (an
// other text is ignored); question=each|<id of the lesson>; names=1; pause=1.
// Anything else is ignored.
RadarQuery radar_query_of(const Classroom& room, const std::multimap<std::string, std::string>& params,
                          std::int64_t now);

// The radar of the roster students' attempts in the window: for each named
// mistake, how many students made it (in any attempt) and how many still make
// it (in their latest attempt in the window). Rows: hard-attention first,
// then by students who made it (most first), then in the lesson's catalogue
// order; grouped by question (the lesson's order) for "each". Mistakes no one
// made are left out.
RadarPage radar_page(const Classroom& room, const std::vector<AttemptRecord>& attempts, const RadarQuery& query,
                     const HtmlStyle& style, LiveCache* cache = nullptr);

}  // namespace attnmark
