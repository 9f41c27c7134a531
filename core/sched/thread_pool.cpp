#include "sched/thread_pool.hpp"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MIROFISH_CPU_RELAX() _mm_pause()
#else
#define MIROFISH_CPU_RELAX() ((void)0)
#endif

namespace mirofish {

namespace {
// About a few microseconds of spinning: long enough to bridge the gap
// between the parallel-fors of one step, short enough that an idle pool
// costs nothing measurable.
constexpr int kSpinIterations = 4000;
}  // namespace

ThreadPool::ThreadPool(int threads) {
    const int workers = std::max(threads, 1) - 1;
    shares_ = std::make_unique<Share[]>(static_cast<std::size_t>(workers) + 1);
    workers_.reserve(static_cast<std::size_t>(workers));
    for (int i = 0; i < workers; ++i) workers_.emplace_back([this, i] { workerLoop(i + 1); });
}

ThreadPool::~ThreadPool() {
    stopping_.store(true, std::memory_order_relaxed);
    // Release pairs with the workers' acquire of the generation: they see
    // stopping_ once they see the new generation.
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::runChunks(int self) {
    // The own share first, then the others' in turn.
    const int threads = threadCount();
    for (int k = 0; k < threads; ++k) {
        Share& share = shares_[static_cast<std::size_t>((self + k) % threads)];
        for (;;) {
            // Relaxed is enough: the counter only hands out distinct indices;
            // the job fields were made visible by the generation's acquire.
            const std::size_t c = share.next.fetch_add(1, std::memory_order_relaxed);
            if (c >= share.end) break;
            const std::size_t b = c * grain_;
            fn_(b, std::min(b + grain_, count_));
        }
    }
}

void ThreadPool::workerLoop(int self) {
    std::uint64_t seen = 0;
    for (;;) {
        std::uint64_t g = generation_.load(std::memory_order_acquire);
        for (int spin = 0; g == seen && spin < kSpinIterations; ++spin) {
            MIROFISH_CPU_RELAX();
            g = generation_.load(std::memory_order_acquire);
        }
        while (g == seen) {
            generation_.wait(seen, std::memory_order_acquire);
            g = generation_.load(std::memory_order_acquire);
        }
        seen = g;
        if (stopping_.load(std::memory_order_relaxed)) return;
        runChunks(self);
        // Release: the chunk results this worker wrote happen-before the
        // caller's acquire that sees pending_ reach zero.
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
    }
}

void ThreadPool::parallelFor(std::size_t count, std::size_t grain, RangeFn fn) {
    if (count == 0) return;
    grain = std::max<std::size_t>(grain, 1);
    if (workers_.empty() || count <= grain) {
        for (std::size_t b = 0; b < count; b += grain) fn(b, std::min(b + grain, count));
        return;
    }
    fn_ = fn;
    count_ = count;
    grain_ = grain;
    const std::size_t chunks = chunkCount(count, grain);
    const auto threads = static_cast<std::size_t>(threadCount());
    for (std::size_t t = 0; t < threads; ++t) {
        shares_[t].next.store(chunks * t / threads, std::memory_order_relaxed);
        shares_[t].end = chunks * (t + 1) / threads;
    }
    pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    // Release publishes the job fields above to every worker that acquires
    // this generation.
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    runChunks(0);
    // Every worker takes part in every generation and reports once, so when
    // pending_ is zero nobody reads the job fields any more.
    int left = pending_.load(std::memory_order_acquire);
    for (int spin = 0; left != 0 && spin < kSpinIterations; ++spin) {
        MIROFISH_CPU_RELAX();
        left = pending_.load(std::memory_order_acquire);
    }
    while (left != 0) {
        pending_.wait(left, std::memory_order_acquire);
        left = pending_.load(std::memory_order_acquire);
    }
}

}  // namespace mirofish
