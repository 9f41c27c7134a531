#pragma once
// A small fixed-size pool. The calling thread works too, so a pool of T
// threads starts T-1 workers. Idle workers are parked on a futex (C++20
// atomic wait), not spinning, after a short spin that catches back-to-back
// parallel-fors within one simulation step.
//
// The chunks of a parallel-for are split into T consecutive shares, one per
// thread, and a thread that finishes its own share takes chunks from the
// others' (a slow thread's share gets done by the rest). Thread t therefore
// gets about the same part of the fish in every phase of a step: the fish
// arrays it reorders are mostly the ones its kernel chunks read next, and they
// stay in its own core's cache instead of crossing to the other core's.
//
// A worker takes part in a parallel-for only if it joins before the caller
// has handed out every chunk (sched/join_gate.hpp); the caller waits for
// those that joined, never for one still waking up.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "sched/join_gate.hpp"
#include "sched/scheduler.hpp"

namespace mirofish {

class ThreadPool final : public Scheduler {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool() override;
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threadCount() const override { return static_cast<int>(workers_.size()) + 1; }

protected:
    void run(std::size_t count, std::size_t grain, RangeFn fn, const ThreadEndFn* atEnd) override;

private:
    void workerLoop(int self);
    void runChunks(int self);

    // The chunks [next, end) of one thread's share not yet taken. One cache
    // line each, so that taking a chunk does not slow the other threads.
    struct alignas(64) Share {
        std::atomic<std::size_t> next{0};
        std::size_t end = 0;
    };

    std::vector<std::thread> workers_;
    // The job. Written by the caller before it publishes a new generation and
    // read only by workers that joined that generation (gate_) after they
    // observed it (acquire), and never rewritten until each of them has
    // reported back through finished_.
    RangeFn fn_{[](std::size_t, std::size_t) {}};
    const ThreadEndFn* atEnd_ = nullptr;  // called by each thread after its last chunk, where given
    std::size_t count_ = 0;
    std::size_t grain_ = 1;
    std::unique_ptr<Share[]> shares_;  // one per thread, the caller's first
    std::atomic<std::uint64_t> generation_{0};
    JoinGate gate_;
    std::atomic<int> finished_{0};  // workers of this generation done with it
    std::atomic<bool> stopping_{false};
};

}  // namespace mirofish
