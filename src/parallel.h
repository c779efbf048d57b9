// parallel.h: the one way attnmark uses several cores.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace attnmark {

// Calls fn(i) for every i in [0, count) on up to `jobs` threads, thread t
// taking i = t, t + jobs, ... (interleaved, so slow items spread out).
// fn must only write to what item i owns; results are then independent of
// the number of threads. Returns when every call has returned.
template <typename Fn>
void parallel_for(std::size_t count, unsigned jobs, Fn fn) {
  const std::size_t threads = std::max<std::size_t>(1, std::min<std::size_t>(jobs, count));
  auto work = [&](std::size_t first) {
    for (std::size_t i = first; i < count; i += threads) fn(i);
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& t : pool) t.join();
}

}  // namespace attnmark
