// The pool's gate: a parallel-for waits for the workers that joined it, and a
// worker can join only the job that is open, only until the caller closes it.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "sched/join_gate.hpp"

using namespace mirofish;

TEST_CASE("the caller waits for exactly the workers that joined before it closed the gate") {
    JoinGate gate;
    gate.open(5);
    CHECK(gate.tryJoin(5));
    CHECK(gate.tryJoin(5));
    CHECK(gate.tryJoin(5));
    CHECK(gate.close() == 3);
    // A worker that wakes up after the caller handed out every chunk stays out.
    CHECK_FALSE(gate.tryJoin(5));
}

TEST_CASE("a worker late by a whole job cannot join the next one under the old job's number") {
    JoinGate gate;
    gate.open(6);
    CHECK_FALSE(gate.tryJoin(5));
    CHECK(gate.tryJoin(6));
    CHECK(gate.close() == 1);
    // The next job starts with nobody joined.
    gate.open(7);
    CHECK_FALSE(gate.tryJoin(6));
    CHECK(gate.close() == 0);
    // Job numbers grow for as long as the pool lives.
    const std::uint64_t late = (std::uint64_t{1} << 50) + 3;
    gate.open(late);
    CHECK(gate.tryJoin(late));
    CHECK_FALSE(gate.tryJoin(late - 1));
    CHECK(gate.close() == 1);
}

TEST_CASE("workers joining while the caller closes the gate are counted exactly") {
    for (int round = 0; round < 200; ++round) {
        JoinGate gate;
        const std::uint64_t job = 100 + static_cast<std::uint64_t>(round);
        gate.open(job);
        std::atomic<bool> go{false};
        std::atomic<int> joined{0};
        std::vector<std::thread> workers;
        for (int w = 0; w < 6; ++w)
            workers.emplace_back([&] {
                while (!go.load()) std::this_thread::yield();
                if (gate.tryJoin(job)) joined.fetch_add(1);
            });
        go = true;
        if (round % 2 == 0) std::this_thread::yield();
        const int counted = gate.close();
        for (auto& t : workers) t.join();
        INFO("round " << round);
        // Every join the gate let through was before the close, and counted.
        REQUIRE(joined.load() == counted);
    }
}
