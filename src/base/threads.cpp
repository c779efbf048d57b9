#include "base/threads.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace attnmark {

void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& fn) {
  const std::size_t threads = std::max<std::size_t>(1, std::min<std::size_t>(jobs, count));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> failed{count};  // the lowest i known to have thrown (count: none)
  std::exception_ptr error;                // its exception
  std::mutex mutex;                        // guards failed's updates and error
  // Indices are taken in increasing order, so when i is taken every lower
  // one has been: stopping only above a failure runs all below it.
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
      if (i > failed.load(std::memory_order_relaxed)) return;
      try {
        fn(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex);
        if (i < failed.load(std::memory_order_relaxed)) {
          failed.store(i, std::memory_order_relaxed);
          error = std::current_exception();
        }
      }
    }
  };
  std::vector<std::thread> pool;
  try {
    pool.reserve(threads - 1);
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  } catch (...) {  // a thread could not be started: those that were stop, and the reason is the error
    next.store(count);
    for (std::thread& t : pool) t.join();
    throw;
  }
  work();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

void run_both(const std::function<void()>& a, const std::function<void()>& b, unsigned jobs) {
  parallel_for(2, jobs, [&](std::size_t i) { i == 0 ? a() : b(); });
}

namespace detail {

void ordered_pipeline(std::size_t count, unsigned jobs, std::size_t depth, const std::function<void(std::size_t)>& produce,
                      const std::function<void(std::size_t)>& consume) {
  if (jobs <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      produce(i);
      consume(i);
    }
    return;
  }
  // Item i lives in slot i % depth from the start of its producing to the
  // end of its consuming; it may start only once item i - depth is consumed.
  std::mutex mutex;  // guards everything below but `next`
  std::condition_variable changed;
  std::vector<char> ready(depth, 0);              // the slot holds a produced item, not yet consumed
  std::vector<std::exception_ptr> errors(depth);  // why producing the slot's item failed
  std::size_t consumed = 0;                       // items consumed
  std::size_t failed = count;                     // the lowest item whose producing threw (count: none)
  bool stop = false;                              // the consumer is done, or has failed: every thread stops
  std::atomic<std::size_t> next{0};
  auto producer = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return i < consumed + depth || i > failed || stop; });
        if (i > failed || stop) return;
      }
      std::exception_ptr error;
      try {
        produce(i);
      } catch (...) {
        error = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(mutex);
      errors[i % depth] = error;
      ready[i % depth] = 1;
      if (error) failed = std::min(failed, i);
      changed.notify_all();
    }
  };
  // Items are consumed, and their errors met, in order: the error rethrown
  // is the first in item order, whatever the number of threads.
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  try {
    threads.reserve(std::min<std::size_t>(jobs, count));
    for (std::size_t t = 0; t < std::min<std::size_t>(jobs, count); ++t) threads.emplace_back(producer);
    for (std::size_t i = 0; i < count; ++i) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return ready[i % depth] != 0; });
        failure = errors[i % depth];
      }
      if (failure) break;
      consume(i);
      const std::lock_guard<std::mutex> lock(mutex);
      ready[i % depth] = 0;
      consumed = i + 1;
      changed.notify_all();
    }
  } catch (...) {  // consuming threw, or a thread could not be started
    failure = std::current_exception();
  }
  {
    const std::lock_guard<std::mutex> lock(mutex);
    stop = true;
    changed.notify_all();
  }
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace detail

Background::Background(std::function<void()> fn)
    : thread_([this, fn = std::move(fn)] {
        try {
          fn();
        } catch (...) {
          error_ = std::current_exception();
        }
      }) {}

Background::~Background() {
  if (thread_.joinable()) thread_.join();
}

void Background::join() {
  thread_.join();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace attnmark
