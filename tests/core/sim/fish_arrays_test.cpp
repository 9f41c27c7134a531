// The per-fish arrays are split between the threads by ranges of fish: no
// cache line may hold entries of two arrays (sim/cache_line_vector.hpp), and
// each array starts on a line, so that chunks of sixteen fish are whole lines.
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/fish_arrays.hpp"

using namespace mirofish;

namespace {

struct LineRange {
    std::uintptr_t first, last;  // cache lines, inclusive
};

std::vector<LineRange> linesOf(const FishArrays& f) {
    std::vector<LineRange> lines;
    const auto add = [&](const void* data, std::size_t bytes) {
        const auto at = reinterpret_cast<std::uintptr_t>(data);
        lines.push_back({at / kCacheLine, (at + bytes - 1) / kCacheLine});
    };
    for (FishArrays::FloatField m : FishArrays::kFloatFields) add((f.*m).data(), (f.*m).size() * sizeof(float));
    add(f.id.data(), f.id.size() * sizeof(std::uint32_t));
    return lines;
}

void requireOwnLines(const FishArrays& f) {
    for (FishArrays::FloatField m : FishArrays::kFloatFields)
        REQUIRE(reinterpret_cast<std::uintptr_t>((f.*m).data()) % kCacheLine == 0);
    REQUIRE(reinterpret_cast<std::uintptr_t>(f.id.data()) % kCacheLine == 0);
    const std::vector<LineRange> lines = linesOf(f);
    for (std::size_t a = 0; a < lines.size(); ++a)
        for (std::size_t b = a + 1; b < lines.size(); ++b)
            REQUIRE((lines[a].last < lines[b].first || lines[b].last < lines[a].first));
}

}  // namespace

TEST_CASE("every per-fish array starts on a cache line and shares no line with another array") {
    for (const std::size_t capacity : {std::size_t{1}, std::size_t{3000}, std::size_t{3001}, std::size_t{50000}}) {
        CAPTURE(capacity);
        FishArrays f;
        f.allocate(capacity);
        requireOwnLines(f);
        // A copy (the simulation keeps one while it grows) and two buffers
        // side by side (the step's current and next arrays) keep it too.
        const FishArrays copy = f;
        requireOwnLines(copy);
        FishArrays other;
        other.allocate(capacity);
        std::vector<LineRange> both = linesOf(f);
        for (const LineRange& r : linesOf(other)) both.push_back(r);
        for (std::size_t a = 0; a < both.size(); ++a)
            for (std::size_t b = a + 1; b < both.size(); ++b)
                REQUIRE((both[a].last < both[b].first || both[b].last < both[a].first));
    }
}
