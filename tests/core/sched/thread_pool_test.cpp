// The schedulers: every index of a parallel-for is visited exactly once, in
// the same fixed chunks whatever the thread count, call after call.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "sched/scheduler.hpp"
#include "sched/thread_pool.hpp"

using namespace mirofish;

namespace {

// Runs many back-to-back parallel-fors of assorted sizes and checks each.
void hammer(Scheduler& s, int calls) {
    const std::size_t counts[] = {0, 1, 2, 7, 63, 64, 65, 100, 1000, 4097};
    const std::size_t grains[] = {1, 3, 64, 512};
    std::vector<std::atomic<int>> visits(5000);
    for (int call = 0; call < calls; ++call) {
        const std::size_t count = counts[static_cast<std::size_t>(call) % std::size(counts)];
        const std::size_t grain = grains[static_cast<std::size_t>(call / 3) % std::size(grains)];
        for (std::size_t i = 0; i < count; ++i) visits[i].store(0, std::memory_order_relaxed);
        std::atomic<std::size_t> badChunks{0};
        s.parallelFor(count, grain, [&](std::size_t b, std::size_t e) {
            // Chunks are exactly [k*grain, min((k+1)*grain, count)).
            if (b % grain != 0 || e != std::min(b + grain, count) || b >= e) badChunks.fetch_add(1);
            for (std::size_t i = b; i < e; ++i) visits[i].fetch_add(1, std::memory_order_relaxed);
        });
        // parallelFor returns only when every chunk is done.
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < count; ++i) wrong += visits[i].load(std::memory_order_relaxed) != 1;
        INFO("call " << call << ": count " << count << ", grain " << grain);
        REQUIRE(wrong == 0);
        REQUIRE(badChunks.load() == 0);
    }
}

}  // namespace

TEST_CASE("parallelFor visits every index exactly once, call after call, for any thread count") {
    SECTION("serial") {
        SerialScheduler s;
        CHECK(s.threadCount() == 1);
        hammer(s, 400);
    }
    for (int threads : {1, 2, 3, 4, 8}) {
        DYNAMIC_SECTION(threads << " threads") {
            ThreadPool pool(threads);
            CHECK(pool.threadCount() == threads);
            hammer(pool, 3000);
        }
    }
}

TEST_CASE("a thread pool really shares the work among its threads") {
    ThreadPool pool(4);
    std::mutex m;
    std::set<std::thread::id> ids;
    // Enough slow chunks that every worker picks some up.
    for (int round = 0; round < 20 && ids.size() < 2; ++round) {
        pool.parallelFor(64, 1, [&](std::size_t, std::size_t) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            std::lock_guard<std::mutex> lock(m);
            ids.insert(std::this_thread::get_id());
        });
    }
    CHECK(ids.size() >= 2);
}

TEST_CASE("a thread held up in one chunk does not hold up the rest of its share") {
    // Each thread starts on its own share of the chunks; the others must
    // still take over whatever is left of a share whose thread is stuck.
    ThreadPool pool(2);
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> heldUp{false}, waitedInVain{false};
    for (int round = 0; round < 20 && !heldUp.load(); ++round) {
        std::atomic<int> done{0};
        pool.parallelFor(16, 1, [&](std::size_t, std::size_t) {
            if (std::this_thread::get_id() != caller && !heldUp.exchange(true)) {
                // The worker's first chunk waits for all 15 others, the rest of
                // its own share included, which only the caller can now run.
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                while (done.load() < 15 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
                waitedInVain = done.load() < 15;
            } else {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));  // time for the worker to wake
            }
            done.fetch_add(1);
        });
        REQUIRE(done.load() == 16);
    }
    CHECK(heldUp.load());
    CHECK_FALSE(waitedInVain.load());
}

TEST_CASE("no chunk runs after parallelFor returns, even when the worker wakes up late") {
    // Between the calls the worker parks, as it does between the editor's
    // frames; the caller then often takes every chunk before the worker is
    // up, and returns without it. A worker that wakes up later must leave
    // that job alone.
    ThreadPool pool(2);
    std::vector<std::atomic<int>> visits(8);
    for (int round = 0; round < 100; ++round) {
        for (auto& v : visits) v.store(0);
        pool.parallelFor(visits.size(), 1, [&](std::size_t b, std::size_t) { visits[b].fetch_add(1); });
        std::this_thread::sleep_for(std::chrono::milliseconds(round % 3 == 0 ? 2 : 0));
        int wrong = 0;
        for (auto& v : visits) wrong += v.load() != 1;
        INFO("round " << round);
        REQUIRE(wrong == 0);
        std::this_thread::sleep_for(std::chrono::microseconds(200 * (round % 5)));
    }
}

TEST_CASE("results written inside a parallelFor are visible to the caller afterwards") {
    ThreadPool pool(4);
    std::vector<long long> out(100000);
    for (int round = 1; round <= 50; ++round) {
        pool.parallelFor(out.size(), 1000, [&](std::size_t b, std::size_t e) {
            for (std::size_t i = b; i < e; ++i) out[i] = static_cast<long long>(i) * round;  // plain writes
        });
        long long wrong = 0;
        for (std::size_t i = 0; i < out.size(); ++i) wrong += out[i] != static_cast<long long>(i) * round;
        REQUIRE(wrong == 0);
    }
}

TEST_CASE("thread pools start and stop cleanly, even when never used") {
    for (int i = 0; i < 50; ++i) {
        ThreadPool idle(1 + i % 5);
        if (i % 2 == 0) {
            std::atomic<int> n{0};
            idle.parallelFor(10, 1, [&](std::size_t, std::size_t) { n.fetch_add(1); });
            REQUIRE(n.load() == 10);
        }
    }
    ThreadPool none(0);  // at least the calling thread
    CHECK(none.threadCount() == 1);
    int n = 0;
    none.parallelFor(5, 2, [&](std::size_t b, std::size_t e) { n += static_cast<int>(e - b); });
    CHECK(n == 5);
}

TEST_CASE("each thread that ran chunks of a parallel-for calls its end once, after its last chunk, before the call returns") {
    // What a thread gathers chunk by chunk in memory of its own (the
    // kernel's statistics) is handed over in that call.
    struct Seen {
        int chunks = 0, ends = 0;
        bool chunkAfterEnd = false;
    };
    const auto check = [](Scheduler& s, std::size_t count, std::size_t grain) {
        std::mutex m;
        std::map<std::thread::id, Seen> seen;
        s.parallelFor(
            count, grain,
            [&](std::size_t, std::size_t) {
                if (grain > 1) std::this_thread::sleep_for(std::chrono::microseconds(50));  // time for the workers to join
                const std::lock_guard lock(m);
                Seen& t = seen[std::this_thread::get_id()];
                ++t.chunks;
                t.chunkAfterEnd = t.chunkAfterEnd || t.ends > 0;
            },
            [&] {
                const std::lock_guard lock(m);
                ++seen[std::this_thread::get_id()].ends;
            });
        int chunks = 0;
        for (const auto& [id, t] : seen) {
            INFO(count << " indices in chunks of " << grain << ", a thread with " << t.chunks << " chunks");
            CHECK(t.chunks > 0);
            CHECK(t.ends == 1);
            CHECK_FALSE(t.chunkAfterEnd);
            chunks += t.chunks;
        }
        CHECK(chunks == static_cast<int>(chunkCount(count, grain)));
        return seen.size();
    };
    SerialScheduler serial;
    CHECK(check(serial, 100, 7) == 1);
    CHECK(check(serial, 0, 7) == 0);
    for (int threads : {1, 2, 4}) {
        ThreadPool pool(threads);
        // Slow chunks, so that the workers join: then several threads end.
        std::size_t most = 0;
        for (int round = 0; round < 20 && most < 2; ++round) most = std::max(most, check(pool, 64, 2));
        CHECK((threads > 1 ? most >= 2 : most == 1));
        CHECK(check(pool, 5, 8) == 1);  // one chunk: run by the caller alone
        CHECK(check(pool, 0, 8) == 0);
    }
}
