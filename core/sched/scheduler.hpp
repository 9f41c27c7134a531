#pragma once
// The core never creates threads by itself: it is handed a Scheduler. Work is
// always cut into the same fixed chunks [k*grain, (k+1)*grain), whatever the
// implementation, so per-chunk partial results (and thus every reduction) are
// identical for 1, 2 or N threads.
#include <cstddef>
#include <type_traits>
#include <utility>

namespace mirofish {

// A non-owning reference to a callable: no allocation, unlike
// std::function, so a parallel-for inside a step allocates nothing.
template <typename Signature>
class FunctionRef;
template <typename... Args>
class FunctionRef<void(Args...)> {
public:
    template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
    FunctionRef(F&& f)  // NOLINT(google-explicit-constructor): used like a lambda parameter
        : object_(const_cast<void*>(static_cast<const void*>(&f))),
          call_([](void* o, Args... args) { (*static_cast<std::remove_reference_t<F>*>(o))(args...); }) {}

    void operator()(Args... args) const { call_(object_, args...); }

private:
    void* object_;
    void (*call_)(void*, Args...);
};
using RangeFn = FunctionRef<void(std::size_t, std::size_t)>;  // (begin, end)
using ThreadEndFn = FunctionRef<void()>;

class Scheduler {
public:
    virtual ~Scheduler() = default;
    // Calls fn(begin, end) once for every chunk of [0, count) of size grain
    // (the last one shorter), possibly concurrently; returns when all are done.
    void parallelFor(std::size_t count, std::size_t grain, RangeFn fn) { run(count, grain, fn, nullptr); }
    // The same, and each thread that ran chunks then calls atEnd() once, after
    // its last chunk and before parallelFor returns: for results a thread
    // gathers chunk by chunk in memory of its own and hands over once.
    void parallelFor(std::size_t count, std::size_t grain, RangeFn fn, ThreadEndFn atEnd) { run(count, grain, fn, &atEnd); }
    virtual int threadCount() const = 0;

protected:
    virtual void run(std::size_t count, std::size_t grain, RangeFn fn, const ThreadEndFn* atEnd) = 0;
};

inline std::size_t chunkCount(std::size_t count, std::size_t grain) { return (count + grain - 1) / grain; }

// Every chunk in order on the calling thread, then atEnd (where given) if a
// chunk ran: a Scheduler's run with one thread.
inline void runChunksInOrder(std::size_t count, std::size_t grain, RangeFn fn, const ThreadEndFn* atEnd) {
    for (std::size_t b = 0; b < count; b += grain) fn(b, b + grain < count ? b + grain : count);
    if (atEnd != nullptr && count > 0) (*atEnd)();
}

// Runs every chunk in order on the calling thread.
class SerialScheduler final : public Scheduler {
public:
    int threadCount() const override { return 1; }

protected:
    void run(std::size_t count, std::size_t grain, RangeFn fn, const ThreadEndFn* atEnd) override {
        runChunksInOrder(count, grain, fn, atEnd);
    }
};

}  // namespace mirofish
