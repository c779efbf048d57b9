// Threads (base/threads.h): every index run once on any number of threads,
// the first exception in index order carried back to the caller, and the
// ordered pipeline's order, bound and errors.
#include "support/test_support.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "base/threads.h"

using namespace attnmark;

namespace {

// What fn threw: "out_of_range: <message>", "bad_alloc", or "nothing".
template <typename Fn>
std::string thrown(Fn fn) {
  try {
    fn();
  } catch (const std::out_of_range& e) {
    return std::string("out_of_range: ") + e.what();
  } catch (const std::bad_alloc&) {
    return "bad_alloc";
  } catch (...) {
    return "another exception";
  }
  return "nothing";
}

// The thread ids fn was called on.
class ThreadsSeen {
 public:
  void note() {
    const std::lock_guard<std::mutex> lock(mutex_);
    ids_.insert(std::this_thread::get_id());
  }
  std::set<std::thread::id> ids() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return ids_;
  }

 private:
  std::mutex mutex_;
  std::set<std::thread::id> ids_;
};

}  // namespace

TEST_CASE("parallel_for calls fn once for every index, on at most `jobs` threads", "[threads]") {
  for (const unsigned jobs : {1u, 2u, 7u}) {
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
      INFO("jobs " << jobs << ", count " << count);
      std::vector<std::atomic<int>> calls(count);
      ThreadsSeen seen;
      parallel_for(count, jobs, [&](std::size_t i) {
        ++calls[i];
        seen.note();
      });
      for (std::size_t i = 0; i < count; ++i) CHECK(calls[i] == 1);
      CHECK(seen.ids().size() <= jobs);
      if (jobs == 1 && count > 0) CHECK(seen.ids() == std::set<std::thread::id>{std::this_thread::get_id()});
    }
  }
}

TEST_CASE("parallel_for rethrows the exception of the lowest index that threw, with its type and message, for any jobs",
          "[threads]") {
  for (const unsigned jobs : {1u, 2u, 7u}) {
    INFO("jobs " << jobs);
    std::vector<std::atomic<int>> calls(1000);
    const std::string error = thrown([&] {
      parallel_for(calls.size(), jobs, [&](std::size_t i) {
        ++calls[i];
        if (i == 300 || i == 301 || i == 700) throw std::out_of_range("item " + std::to_string(i));
      });
    });
    CHECK(error == "out_of_range: item 300");
    // Every index below the failure ran, once; on one thread, none above it.
    for (std::size_t i = 0; i <= 300; ++i) CHECK(calls[i] == 1);
    for (std::size_t i = 301; i < calls.size(); ++i) {
      CHECK(calls[i] <= 1);
      if (jobs == 1) CHECK(calls[i] == 0);
    }
  }
}

TEST_CASE("parallel_for starts no index once one is known to have thrown", "[threads]") {
  // Each index takes 0.2 ms: on 7 threads all 10,000 would take some 0.3 s.
  // Index 0 throws at once, so only those started while it was throwing run.
  std::atomic<std::size_t> started{0};
  const std::string error = thrown([&] {
    parallel_for(10000, 7, [&](std::size_t i) {
      ++started;
      if (i == 0) throw std::out_of_range("item 0");
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    });
  });
  CHECK(error == "out_of_range: item 0");
  CHECK(started < 5000);
}

TEST_CASE("a std::bad_alloc thrown on a worker thread comes back to the caller as std::bad_alloc", "[threads]") {
  // The caller's own calls wait until a worker has thrown, so it is a worker's.
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> worker_threw{false};
  const std::string error = thrown([&] {
    parallel_for(100, 2, [&](std::size_t) {
      if (std::this_thread::get_id() != caller) {
        worker_threw = true;
        throw std::bad_alloc();
      }
      while (!worker_threw) std::this_thread::yield();
    });
  });
  CHECK(error == "bad_alloc");
}

TEST_CASE("run_both runs a and b at once with jobs > 1, else a then b, and rethrows a's exception before b's", "[threads]") {
  {  // jobs 2: each waits for the other to have started, which one thread could not do.
    std::atomic<int> in{0};
    auto meet = [&] {
      ++in;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (in < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    };
    run_both(meet, meet, 2);
    CHECK(in == 2);
  }
  {
    std::vector<char> order;
    run_both([&] { order.push_back('a'); }, [&] { order.push_back('b'); }, 1);
    CHECK(order == std::vector<char>{'a', 'b'});
  }
  for (const unsigned jobs : {1u, 2u}) {
    INFO("jobs " << jobs);
    CHECK(thrown([&] {
            run_both([] { throw std::out_of_range("a"); }, [] { throw std::out_of_range("b"); }, jobs);
          }) == "out_of_range: a");
    CHECK(thrown([&] { run_both([] {}, [] { throw std::out_of_range("b"); }, jobs); }) == "out_of_range: b");
    bool b_ran = false;
    CHECK(thrown([&] { run_both([] { throw std::bad_alloc(); }, [&] { b_ran = true; }, jobs); }) == "bad_alloc");
    if (jobs == 1) CHECK_FALSE(b_ran);
  }
}

TEST_CASE("ordered_pipeline consumes every item once, in order, from the slot it was produced into", "[threads]") {
  for (const unsigned jobs : {1u, 2u, 7u}) {
    for (const std::size_t depth : {std::size_t{1}, std::size_t{3}, std::size_t{32}}) {
      for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
        INFO("jobs " << jobs << ", depth " << depth << ", count " << count);
        std::vector<std::atomic<int>> produced(count);
        std::vector<std::size_t> consumed;
        std::vector<std::size_t> wrong;  // items whose slot did not hold what was produced for them
        ThreadsSeen producers;
        ordered_pipeline<std::vector<std::size_t>>(
            count, jobs, depth,
            [&](std::size_t i, std::vector<std::size_t>& slot) {
              ++produced[i];
              producers.note();
              slot.push_back(i * 3 + 1);
            },
            [&](std::size_t i, std::vector<std::size_t>& slot) {
              if (slot != std::vector<std::size_t>{i * 3 + 1}) wrong.push_back(i);
              slot.clear();
              consumed.push_back(i);
            });
        std::vector<std::size_t> all(count);
        for (std::size_t i = 0; i < count; ++i) all[i] = i;
        CHECK(consumed == all);
        CHECK(wrong.empty());
        for (std::size_t i = 0; i < count; ++i) CHECK(produced[i] == 1);
        CHECK(producers.ids().size() <= jobs);
        if (jobs == 1 && count > 0) CHECK(producers.ids() == std::set<std::thread::id>{std::this_thread::get_id()});
      }
    }
  }
}

TEST_CASE("ordered_pipeline consumes on the calling thread and never produces more than `depth` items ahead", "[threads]") {
  for (const unsigned jobs : {1u, 2u, 7u}) {
    for (const std::size_t depth : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
      INFO("jobs " << jobs << ", depth " << depth);
      const std::thread::id caller = std::this_thread::get_id();
      std::atomic<std::size_t> ahead{0};  // items started and not yet consumed
      std::atomic<std::size_t> most_ahead{0};
      std::atomic<std::size_t> done{0};   // items consumed
      std::atomic<std::size_t> early{0};  // items started before item - depth was consumed
      std::atomic<std::size_t> elsewhere{0};  // consumed on another thread
      ordered_pipeline<int>(
          500, jobs, depth,
          [&](std::size_t i, int&) {
            const std::size_t now = ++ahead;
            for (std::size_t m = most_ahead; now > m && !most_ahead.compare_exchange_weak(m, now);) {
            }
            if (i >= done + depth) ++early;
            if (i % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));  // a slow one now and then
          },
          [&](std::size_t, int&) {
            if (std::this_thread::get_id() != caller) ++elsewhere;
            --ahead;
            ++done;
          });
      CHECK(done == 500);
      CHECK(most_ahead <= depth);
      CHECK(early == 0);
      CHECK(elsewhere == 0);
    }
  }
}

TEST_CASE("ordered_pipeline rethrows the first exception in item order, from producing or consuming, for any jobs",
          "[threads]") {
  for (const unsigned jobs : {1u, 2u, 7u}) {
    INFO("jobs " << jobs);
    std::vector<std::size_t> consumed;
    std::atomic<std::size_t> produced_after{0};  // items above 500 produced
    auto produce = [&](std::size_t i, int&) {
      if (i > 500) ++produced_after;
      if (i == 500 || i == 501 || i == 700) throw std::out_of_range("producing " + std::to_string(i));
    };
    auto consume = [&](std::size_t i, int&) { consumed.push_back(i); };
    CHECK(thrown([&] { ordered_pipeline<int>(1000, jobs, 8, produce, consume); }) == "out_of_range: producing 500");
    CHECK(consumed.size() == 500);
    CHECK((!consumed.empty() && consumed.back() == 499));
    if (jobs == 1) CHECK(produced_after == 0);
    CHECK(produced_after <= 8);  // no more than depth ahead of item 499, the last consumed

    // A consumer's exception before the producer's comes first, and one after it never comes.
    consumed.clear();
    auto consume_to_300 = [&](std::size_t i, int&) {
      if (i == 300) throw std::out_of_range("consuming 300");
      consumed.push_back(i);
    };
    CHECK(thrown([&] { ordered_pipeline<int>(1000, jobs, 8, produce, consume_to_300); }) == "out_of_range: consuming 300");
    CHECK(consumed.size() == 300);
    auto consume_from_600 = [&](std::size_t i, int&) {
      if (i >= 600) throw std::out_of_range("consuming " + std::to_string(i));
    };
    CHECK(thrown([&] { ordered_pipeline<int>(1000, jobs, 8, produce, consume_from_600); }) == "out_of_range: producing 500");

    // Producers waiting for room stop when the consumer fails.
    CHECK(thrown([&] {
            ordered_pipeline<int>(
                100, jobs, 2, [](std::size_t, int&) {}, [](std::size_t, int&) { throw std::out_of_range("consuming 0"); });
          }) == "out_of_range: consuming 0");
  }
}

TEST_CASE("ordered_pipeline carries a std::bad_alloc from a producer thread back as std::bad_alloc", "[threads]") {
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> on_worker{false};
  CHECK(thrown([&] {
          ordered_pipeline<int>(
              50, 3, 4,
              [&](std::size_t i, int&) {
                on_worker = on_worker || std::this_thread::get_id() != caller;
                if (i == 10) throw std::bad_alloc();
              },
              [](std::size_t, int&) {});
        }) == "bad_alloc");
  CHECK(on_worker);
}

TEST_CASE("Background runs fn on another thread, and join rethrows what it threw", "[threads]") {
  const std::thread::id caller = std::this_thread::get_id();
  std::thread::id ran_on;
  Background quiet([&] { ran_on = std::this_thread::get_id(); });
  quiet.join();
  CHECK(ran_on != caller);
  CHECK(ran_on != std::thread::id());

  Background failing([] { throw std::out_of_range("in the background"); });
  CHECK(thrown([&] { failing.join(); }) == "out_of_range: in the background");

  {  // Not joined: the destructor joins, and its exception is dropped.
    std::atomic<bool> ran{false};
    {
      Background dropped([&] {
        ran = true;
        throw std::bad_alloc();
      });
    }
    CHECK(ran);
  }
}
