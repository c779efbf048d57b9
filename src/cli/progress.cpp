#include "cli/progress.h"

#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <iostream>
#include <unistd.h>

#include "base/text.h"

namespace attnmark {

bool is_terminal(const std::ostream& out) {
  if (&out == &std::cerr || &out == &std::clog) return ::isatty(STDERR_FILENO) == 1;
  if (&out == &std::cout) return ::isatty(STDOUT_FILENO) == 1;
  return false;
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string duration_text(double seconds) {
  if (seconds < 10) return fmt::format("{:.1f} s", std::max(0.0, seconds));
  const long whole = std::lround(seconds);
  if (whole < 60) return fmt::format("{} s", whole);
  if (whole < 3600) return fmt::format("{} min {} s", whole / 60, whole % 60);
  return fmt::format("{} h {} min", whole / 3600, whole % 3600 / 60);
}

Progress::Progress(std::string what, std::size_t total, std::ostream& out, bool terminal, std::function<double()> clock)
    : what_(std::move(what)), total_(total), out_(out), terminal_(terminal), clock_(std::move(clock)), start_(clock_()) {}

Progress::~Progress() { finish(); }

double Progress::elapsed() const { return clock_() - start_; }

std::string Progress::took() const { return duration_text(elapsed()); }

void Progress::set_total(std::size_t total) {
  const std::lock_guard<std::mutex> lock(mutex_);
  total_ = total;
}

void Progress::step() {
  if (!terminal_) return;
  std::size_t count = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    count = ++count_;
  }
  done(count);
}

void Progress::done(std::size_t count) {
  if (!terminal_ || total_ == 0) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  // Workers report out of order: the line never goes back.
  if (count < shown_) return;
  shown_ = count;
  const double now = clock_();
  // Time left is from the pace since the first report, not since the start:
  // work that reads its inputs first (mark) reports nothing meanwhile.
  if (first_at_ < 0) {
    first_at_ = now;
    first_count_ = count;
  }
  // Quick work shows nothing; a drawn line is redrawn at most 10 times a second, and at the end.
  if (now - start_ < 1.0 || (drawn_at_ >= 0 && now - drawn_at_ < 0.1 && count < total_)) return;
  drawn_at_ = now;
  constexpr std::size_t bar = 20;
  const double share = static_cast<double>(std::min(count, total_)) / static_cast<double>(total_);
  const std::size_t filled = static_cast<std::size_t>(share * bar);
  std::string line = fmt::format("attnmark: {} {} / {} [{}{}] {}%", what_, grouped(count), grouped(total_),
                                 std::string(filled, '#'), std::string(bar - filled, '.'), static_cast<int>(share * 100));
  if (count > first_count_ && count < total_ && now > first_at_)
    line += ", " + duration_text((now - first_at_) / static_cast<double>(count - first_count_) *
                                 static_cast<double>(total_ - count)) + " left";
  const std::size_t width = line.size();
  if (width < width_) line += std::string(width_ - width, ' ');  // over the longer line before
  width_ = width;
  out_ << '\r' << line << std::flush;
}

void Progress::finish() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (width_ == 0) return;
  out_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
  width_ = 0;
}

}  // namespace attnmark
