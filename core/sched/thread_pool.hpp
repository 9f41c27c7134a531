#pragma once
// A small fixed-size pool. The calling thread works too, so a pool of T
// threads starts T-1 workers. Idle workers are parked on a futex (C++20
// atomic wait), not spinning, after a short spin that catches back-to-back
// parallel-fors within one simulation step.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "sched/scheduler.hpp"

namespace mirofish {

class ThreadPool final : public Scheduler {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool() override;
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    void parallelFor(std::size_t count, std::size_t grain, RangeFn fn) override;
    int threadCount() const override { return static_cast<int>(workers_.size()) + 1; }

private:
    void workerLoop();
    void runChunks();

    std::vector<std::thread> workers_;
    // The job. Written by the caller before it publishes a new generation and
    // read by workers only after they observe that generation (acquire), and
    // never rewritten until every worker has reported back through pending_.
    RangeFn fn_{[](std::size_t, std::size_t) {}};
    std::size_t count_ = 0;
    std::size_t grain_ = 1;
    std::atomic<std::size_t> nextChunk_{0};
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<int> pending_{0};
    std::atomic<bool> stopping_{false};
};

}  // namespace mirofish
