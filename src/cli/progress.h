// cli/progress.h: the progress line of long work on a terminal.
//
//   Progress p("marking", total, err, is_terminal(err));
//   for (...) p.done(++n);      // redrawn at most 10 times a second, from 1 s on; any thread
//   p.finish();                 // the line cleared; p.took() == "3.2 s"
//
// Nothing is drawn when `terminal` is false (a pipe, a file, a CI log), nor
// for work done within its first second. The line is rewritten in place
// with "\r": "attnmark: marking 1,234 / 3,000 [########............] 41%, 6 s left".
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>

namespace attnmark {

// Whether `out` is standard error or output, on a terminal that shows a
// rewritten line (a string stream, a file or a pipe is not).
bool is_terminal(const std::ostream& out);

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

  // `count` of the total are done (count ≤ total). Safe from several threads.
  void done(std::size_t count);
  // One more is done. Safe from several threads.
  void step();
  // The total, when it is known only once the work has begun (mark's, after
  // its inputs are read). Safe from several threads.
  void set_total(std::size_t total);
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
  std::size_t count_ = 0;  // for step()
  std::size_t shown_ = 0;  // the largest count reported
  double first_at_ = -1;   // when the first count was reported; < 0: not yet
  std::size_t first_count_ = 0;
  std::mutex mutex_;       // done() and step() from the workers of parallel_for
};

// "0.4 s", "26 s", "6 min 5 s": a duration of `seconds` for people.
std::string duration_text(double seconds);

}  // namespace attnmark
