#pragma once
// One writer, one reader, no lock, no waiting: the writer always has a
// buffer of its own to fill, the reader always gets the newest complete one.
// Three slots: the writer's, the reader's, and the "middle" one they trade
// through a single atomic index.
#include <array>
#include <atomic>
#include <cstdint>

namespace mirofish::editor {

template <typename T>
class TripleBuffer {
public:
    // The writer's slot; fill it, then publish().
    T& writeSlot() { return slots_[writer_]; }

    // Hands the written slot over and takes the middle one to write next.
    // acq_rel: release makes the writes to the slot visible to the reader
    // that acquires it; acquire makes the reader's finished reads of the
    // slot we take back happen before we overwrite it.
    void publish() {
        const std::uint8_t old = middle_.exchange(static_cast<std::uint8_t>(writer_ | kFresh), std::memory_order_acq_rel);
        writer_ = old & kIndex;
    }

    // The newest published slot, or nullptr when nothing new arrived since
    // the last call (the previous slot stays valid until the next call).
    const T* readNewest() {
        if (!(middle_.load(std::memory_order_relaxed) & kFresh)) return nullptr;
        const std::uint8_t old = middle_.exchange(static_cast<std::uint8_t>(reader_), std::memory_order_acq_rel);
        reader_ = old & kIndex;
        return &slots_[reader_];
    }

    // The slot the reader holds (valid after a first readNewest() returned it).
    const T& current() const { return slots_[reader_]; }

private:
    static constexpr std::uint8_t kIndex = 0x3;
    static constexpr std::uint8_t kFresh = 0x4;
    std::array<T, 3> slots_{};
    std::uint8_t writer_ = 0;  // touched by the writer only
    std::uint8_t reader_ = 1;  // touched by the reader only
    std::atomic<std::uint8_t> middle_{2};
};

}  // namespace mirofish::editor
