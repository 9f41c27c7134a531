#pragma once
// The core never creates threads by itself: it is handed a Scheduler. Work is
// always cut into the same fixed chunks [k*grain, (k+1)*grain), whatever the
// implementation, so per-chunk partial results (and thus every reduction) are
// identical for 1, 2 or N threads.
#include <cstddef>
#include <type_traits>
#include <utility>

namespace mirofish {

// A non-owning reference to a callable taking (begin, end): no allocation,
// unlike std::function, so a parallel-for inside a step allocates nothing.
class RangeFn {
public:
    template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, RangeFn>>>
    RangeFn(F&& f)  // NOLINT(google-explicit-constructor): used like a lambda parameter
        : object_(const_cast<void*>(static_cast<const void*>(&f))),
          call_([](void* o, std::size_t b, std::size_t e) { (*static_cast<std::remove_reference_t<F>*>(o))(b, e); }) {}

    void operator()(std::size_t begin, std::size_t end) const { call_(object_, begin, end); }

private:
    void* object_;
    void (*call_)(void*, std::size_t, std::size_t);
};

class Scheduler {
public:
    virtual ~Scheduler() = default;
    // Calls fn(begin, end) once for every chunk of [0, count) of size grain
    // (the last one shorter), possibly concurrently; returns when all are done.
    virtual void parallelFor(std::size_t count, std::size_t grain, RangeFn fn) = 0;
    virtual int threadCount() const = 0;
};

inline std::size_t chunkCount(std::size_t count, std::size_t grain) { return (count + grain - 1) / grain; }

// Runs every chunk in order on the calling thread.
class SerialScheduler final : public Scheduler {
public:
    void parallelFor(std::size_t count, std::size_t grain, RangeFn fn) override {
        for (std::size_t b = 0; b < count; b += grain) fn(b, b + grain < count ? b + grain : count);
    }
    int threadCount() const override { return 1; }
};

}  // namespace mirofish
