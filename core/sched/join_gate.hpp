#pragma once
// Which workers take part in one parallel-for of the pool. The caller opens
// the gate for each job before it publishes it; a worker that wakes up joins
// the job only while the gate is open; the caller closes it once its own loop
// has handed out every chunk, and then waits for the workers that joined and
// no others. A worker that was asleep or off its core when the job came (the
// two cores busy with a software renderer, the audio, the interface) skips
// that job, instead of the caller waiting for it to wake up only to report
// that nothing was left: in the editor under Xvfb, a step of 200 fish took
// 1.4-1.5 ms waiting so, against 0.04-0.07 ms on one thread.
#include <atomic>
#include <cstdint>

namespace mirofish {

class JoinGate {
public:
    // Opens the gate for `job` (a number that differs from the last job's),
    // nobody joined yet.
    void open(std::uint64_t job) { state_.store(job << kJobShift, std::memory_order_relaxed); }

    // Whether the calling worker takes part in `job`: only while the gate is
    // open for that very job.
    bool tryJoin(std::uint64_t job) {
        std::uint64_t s = state_.load(std::memory_order_relaxed);
        while ((s >> kJobShift) == (job & kJobMask) && (s & kClosed) == 0)
            if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel, std::memory_order_relaxed))
                return true;
        return false;
    }

    // Closes the gate; returns how many workers joined the job.
    int close() { return static_cast<int>(state_.fetch_or(kClosed, std::memory_order_acq_rel) & kJoinedMask); }

private:
    // The job's number in the high bits (those that fit), the closed flag,
    // and the count of workers that joined in the low 15 bits.
    static constexpr int kJobShift = 16;
    static constexpr std::uint64_t kJobMask = ~std::uint64_t{0} >> kJobShift;
    static constexpr std::uint64_t kClosed = std::uint64_t{1} << 15, kJoinedMask = kClosed - 1;
    std::atomic<std::uint64_t> state_{0};
};

}  // namespace mirofish
