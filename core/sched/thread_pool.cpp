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
// Spins before parking: long enough to bridge the gap between the
// parallel-fors of one step (microseconds), short enough that a pool idle
// between the app's steps, 16.7 ms apart, spins well under 1 % of the time.
// The length of a pause differs from CPU to CPU: 4000 of them took 52-57 us
// on the Intel Xeon (Ice Lake) host of 2026-12-03.
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
    bool ran = false;
    for (int k = 0; k < threads; ++k) {
        Share& share = shares_[static_cast<std::size_t>((self + k) % threads)];
        for (;;) {
            // Relaxed is enough: the counter only hands out distinct indices;
            // the job fields were made visible by the generation's acquire.
            const std::size_t c = share.next.fetch_add(1, std::memory_order_relaxed);
            if (c >= share.end) break;
            const std::size_t b = c * grain_;
            fn_(b, std::min(b + grain_, count_));
            ran = true;
        }
    }
    if (ran && atEnd_ != nullptr) (*atEnd_)();
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
        // Too late: the caller has handed out every chunk and does not wait.
        if (!gate_.tryJoin(g)) continue;
        runChunks(self);
        // Release: the chunk results this worker wrote happen-before the
        // caller's acquire that sees finished_ reach the count that joined.
        finished_.fetch_add(1, std::memory_order_release);
        finished_.notify_one();
    }
}

void ThreadPool::run(std::size_t count, std::size_t grain, RangeFn fn, const ThreadEndFn* atEnd) {
    if (count == 0) return;
    grain = std::max<std::size_t>(grain, 1);
    if (workers_.empty() || count <= grain) {
        runChunksInOrder(count, grain, fn, atEnd);
        return;
    }
    fn_ = fn;
    atEnd_ = atEnd;
    count_ = count;
    grain_ = grain;
    const std::size_t chunks = chunkCount(count, grain);
    const auto threads = static_cast<std::size_t>(threadCount());
    for (std::size_t t = 0; t < threads; ++t) {
        shares_[t].next.store(chunks * t / threads, std::memory_order_relaxed);
        shares_[t].end = chunks * (t + 1) / threads;
    }
    finished_.store(0, std::memory_order_relaxed);
    const std::uint64_t job = generation_.load(std::memory_order_relaxed) + 1;
    gate_.open(job);
    // Release publishes the job fields and the open gate above to every
    // worker that acquires this generation.
    generation_.store(job, std::memory_order_release);
    generation_.notify_all();
    runChunks(0);
    // Every chunk is taken: a worker that has not joined by now has nothing
    // left to do. Each one that joined reports once, so when all of them
    // have, nobody reads the job fields any more.
    const int joined = gate_.close();
    int done = finished_.load(std::memory_order_acquire);
    for (int spin = 0; done != joined && spin < kSpinIterations; ++spin) {
        MIROFISH_CPU_RELAX();
        done = finished_.load(std::memory_order_acquire);
    }
    while (done != joined) {
        finished_.wait(done, std::memory_order_acquire);
        done = finished_.load(std::memory_order_acquire);
    }
}

}  // namespace mirofish
