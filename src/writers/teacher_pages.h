// writers/teacher_pages.h: the teacher's live pages laid out: the live table
// of the class (a section of GET /teacher), the misconception radar for the
// projector (GET /teacher/radar) and its CSV (GET /teacher/radar.csv). The
// server fills in the structs (serve/live_view.h); every text it gives is
// escaped here. No script: the pages reload themselves with a meta refresh
// every live_refresh_seconds unless paused.
//
//   std::string html = with_auto_refresh(teacher_page_html(page), paused);
//   std::string section = live_table_html(view);
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "writers/theme.h"

namespace attnmark {

// How often a live page reloads itself, in seconds.
inline constexpr int live_refresh_seconds = 5;

// A named mistake: its code (lesson/diagnosis.h) and the lesson's words for it.
struct LiveMistake {
  std::string code;   // "hard-attention"
  std::string words;  // explain(code), or the code when it has none
};

// One question's marks in the attempt that counts.
struct LiveMark {
  std::string question;  // "q1"
  std::string score;     // "2.5 / 4" (score_text), or "–" when not marked
};

// One roster student in the live table.
struct LiveRow {
  std::string student, name;
  std::string query_id;  // `student` as a URL's query value (percent-encoded)
  std::size_t attempts = 0;
  std::string score;                 // "9.5 / 16" of the attempt that counts; "–" without one
  std::vector<LiveMark> marks;       // per question, the lesson's order; empty without an attempt
  std::string last_check;            // the latest attempt's time (UTC text), "" without one
  std::vector<LiveMistake> mistakes; // named in the latest attempt, first named first
};

// The live table of the class.
struct LiveView {
  bool counts_best = true;             // the attempt that counts is the best, else the last
  bool paused = false;                 // ?pause=1: the page does not reload itself
  std::vector<std::string> questions;  // the lesson's question ids, the table's mark columns
  std::vector<LiveRow> rows;           // roster order
};

// The live table as a <section> (HTML): a line saying it updates every 5 s
// (or that it is paused) with a link to pause or resume (/teacher?pause=1,
// /teacher), then a row per student. Reload itself is with_auto_refresh's.
std::string live_table_html(const LiveView& view);

// `page` (a whole HTML document of html_page) with
// <meta http-equiv="refresh" content="5"> after its charset, unless `paused`.
std::string with_auto_refresh(std::string page, bool paused);

// One mistake on the radar.
struct RadarRow {
  std::string code, words;
  std::string question;  // "q2", or "" for the whole lesson (any question)
  std::size_t made = 0;  // students with an attempt in the window naming it
  std::size_t still = 0; // students whose latest attempt in the window still names it
  std::vector<std::string> still_students;  // their ids, roster order (shown only with names)
};

// GET /teacher/radar.
struct RadarPage {
  std::string title;  // the class's (display_title)
  HtmlStyle style;
  bool paused = false;
  bool names = false;            // ?names=1: who still makes each mistake is shown
  std::string since;             // the window's start (UTC text), "" for every attempt
  std::string window;            // the form's choice: "", "10", "30", "60" (minutes), or "since"
  std::string question;          // "" (whole lesson), "each" (grouped by question) or a question id
  std::vector<std::string> questions;  // the lesson's question ids, for the form
  std::size_t students = 0;      // roster students with an attempt in the window
  std::vector<RadarRow> rows;    // in the order shown (serve/live_view.h's radar_rows)
};
// The radar page, reloading itself (with_auto_refresh) unless page.paused.
std::string radar_page_html(const RadarPage& page);

// The radar as CSV (writers/csv_writer.h, CRLF lines), a header then a row
// per mistake: mistake,words,question,made_it,still_make_it,students.
// question is "all" for the whole lesson; students holds the ids of those
// who still make it, separated by spaces, only when page.names (else empty).
std::string radar_csv(const RadarPage& page);

}  // namespace attnmark
