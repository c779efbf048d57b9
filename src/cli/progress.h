// cli/progress.h: the progress line of long work on a terminal.
//
//   Progress p("marking", total, std::cerr, stderr_is_terminal(), now_seconds);
//   for (...) p.done(++n);      // redrawn at most 10 times a second, from 1 s on
//   p.finish();                 // the line cleared; p.took() == "3.2 s"
//
// Nothing is drawn when `terminal` is false (a pipe, a file, a CI log), nor
// for work done within its first second. The line is rewritten in place
// with "\r": "attnmark: marking 1,234 / 3,000 [########............] 41%, 6 s left".
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace attnmark {

// Whether standard error is a terminal that shows a rewritten line.
bool stderr_is_terminal();

// Seconds on a steady clock (any origin).
double steady_seconds();

class Progress {
 public:
  // REQUIRES: `clock` returns seconds that never go back.
  Progress(std::string what, std::size_t total, std::ostream& out, bool terminal,
           std::function<double()> clock = steady_seconds);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  // `count` of the total are done (count ≤ total).
  void done(std::size_t count);
  // Clears the line when one was drawn. Called by the destructor too.
  void finish();
  // The seconds since the start, for the final line: "0.4 s", "26 s", "6 min 5 s".
  std::string took() const;
  // The seconds since the start.
  double elapsed() const;

 private:
  std::string what_;
  std::size_t total_;
  std::ostream& out_;
  bool terminal_;
  std::function<double()> clock_;
  double start_;
  double drawn_at_ = -1;  // when the line was last drawn; < 0: never
  std::size_t width_ = 0;  // characters of the line drawn, to clear it
};

// "0.4 s", "26 s", "6 min 5 s": a duration of `seconds` for people.
std::string duration_text(double seconds);

}  // namespace attnmark
