// base/threads.h: the one way attnmark uses several cores.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace attnmark {

// Calls fn(i) for every i in [0, count) on up to `jobs` threads (the
// caller's among them), each taking the next i not yet taken, so no thread
// idles while another has a queue. fn must only write to what item i owns;
// results are then independent of the number of threads. Returns when every
// call has returned.
template <typename Fn>
void parallel_for(std::size_t count, unsigned jobs, Fn fn) {
  const std::size_t threads = std::max<std::size_t>(1, std::min<std::size_t>(jobs, count));
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) fn(i);
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace attnmark
