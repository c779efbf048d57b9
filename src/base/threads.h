// base/threads.h: the one way attnmark uses several cores. No other code in
// src/ starts a thread but serve/http_server, whose workers run the routes.
//
// Each runs work on threads it starts and joins before it returns (a
// Background at its join), and carries an exception thrown on any of them
// back to the caller: a throw on a worker, std::bad_alloc among them, is
// rethrown in the calling thread, never std::terminate. Where several calls
// may throw, the one rethrown is the first in index order, so the error is
// the same whatever the number of threads. A thread that cannot be started
// (std::system_error) stops those that were, and is the error rethrown.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace attnmark {

// Calls fn(i) for every i in [0, count) on up to `jobs` threads (the
// caller's among them), each taking the next i not yet taken, so no thread
// idles while another has a queue. fn must only write to what item i owns;
// results are then independent of the number of threads. Returns when every
// call has returned.
//
// When calls throw, the exception of the lowest i that threw is rethrown,
// once every thread has stopped; no i above one known to have thrown is
// started. Every i below it has run, as on one thread (some above it may
// have too, on other threads): the exception does not depend on `jobs`.
//
//   std::vector<std::string> pages(students.size());
//   parallel_for(pages.size(), jobs, [&](std::size_t i) { pages[i] = render(students[i]); });
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& fn);

// Runs a and b, at once on two threads when jobs > 1, else a and then b.
// Returns when both have returned. If either throws, a's exception is
// rethrown before b's (b is not started if a has already thrown), as on one
// thread.
//
//   run_both([&] { write_file("summary.html", html()); }, [&] { write_file("summary.md", markdown()); }, jobs);
void run_both(const std::function<void()>& a, const std::function<void()>& b, unsigned jobs);

// A bounded, ordered pipeline: items 0 .. count-1 are produced on up to
// `jobs` threads, each taking the next item, and consumed in order on the
// calling thread. An item is produced into a Slot (default-constructed,
// owned by the pipeline, reused from item to item: its buffers are kept) and
// consumed from that slot. At most `depth` items are produced ahead of the
// consumer (being produced, or produced and waiting), so memory stays
// bounded however many items there are. With jobs == 1 everything runs on
// the calling thread, one slot, produce(i) then consume(i).
//
// The first exception in item order, from producing or from consuming, is
// rethrown once every thread has stopped: the run is the one-thread run cut
// short there (every item before it is produced and consumed; none after it
// is consumed, and none is started once it is known).
//
// REQUIRES: depth >= 1; produce(i, slot) writes only the slot and what item
// i owns; consume(i, slot) leaves the slot ready to be produced into again.
//
//   ordered_pipeline<Chunk>(chunks, jobs, 32,
//       [&](std::size_t c, Chunk& chunk) { judge(c, chunk); },   // on up to `jobs` threads
//       [&](std::size_t, Chunk& chunk) { write(chunk); });        // on this thread, in order
template <typename Slot>
void ordered_pipeline(std::size_t count, unsigned jobs, std::size_t depth,
                      const std::function<void(std::size_t, Slot&)>& produce,
                      const std::function<void(std::size_t, Slot&)>& consume);

// A function run on a thread of its own, beside the caller's, from
// construction until join(), which rethrows what it threw. The destructor
// joins too (dropping the exception: it runs when the caller is leaving by
// one of its own), so fn must return by itself, or be made to: its thread's
// handle is there to signal it.
//
//   Background watcher([&] { int signal; sigwait(&stop_signals, &signal); server.stop(); });
//   server.run();
//   pthread_kill(watcher.native_handle(), SIGTERM);  // ends its wait, when no signal has
//   watcher.join();
class Background {
 public:
  explicit Background(std::function<void()> fn);
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  ~Background();

  // Waits for fn to return, then rethrows what it threw, if anything.
  // REQUIRES: not called before.
  void join();

  // fn's thread (a pthread_t), until it is joined.
  std::thread::native_handle_type native_handle() { return thread_.native_handle(); }

 private:
  std::exception_ptr error_;  // what fn threw; read after the join
  std::thread thread_;
};

namespace detail {
// ordered_pipeline over item numbers: produce(i) fills slot i % depth.
void ordered_pipeline(std::size_t count, unsigned jobs, std::size_t depth, const std::function<void(std::size_t)>& produce,
                      const std::function<void(std::size_t)>& consume);
}  // namespace detail

template <typename Slot>
void ordered_pipeline(std::size_t count, unsigned jobs, std::size_t depth,
                      const std::function<void(std::size_t, Slot&)>& produce,
                      const std::function<void(std::size_t, Slot&)>& consume) {
  const std::size_t slots_used = jobs <= 1 ? 1 : std::max<std::size_t>(1, std::min(depth, count));
  std::vector<Slot> slots(slots_used);
  detail::ordered_pipeline(
      count, jobs, slots_used, [&](std::size_t i) { produce(i, slots[i % slots_used]); },
      [&](std::size_t i) { consume(i, slots[i % slots_used]); });
}

}  // namespace attnmark
