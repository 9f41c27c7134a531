// The per-fish arrays are split between the threads by ranges of fish: no
// cache line may hold entries of two arrays (sim/cache_line_vector.hpp), and
// each array starts on a line, so that a group of sixteen fish is one line.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "sim/fish_arrays.hpp"

using namespace mirofish;

namespace {

struct LineRange {
    std::uintptr_t first, last;  // cache lines, inclusive
};

void addLinesOf(const FishArrays& f, std::vector<LineRange>& lines) {
    const auto add = [&](const void* data, std::size_t bytes) {
        const auto at = reinterpret_cast<std::uintptr_t>(data);
        REQUIRE(at % kCacheLine == 0);
        lines.push_back({at / kCacheLine, (at + bytes - 1) / kCacheLine});
    };
    for (FishArrays::FloatField m : FishArrays::kFloatFields) add((f.*m).data(), (f.*m).size() * sizeof(float));
    add(f.id.data(), f.id.size() * sizeof(std::uint32_t));
}

void requireNoSharedLine(const std::vector<LineRange>& lines) {
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
        // A copy (the simulation keeps one while it grows) and a second set
        // (the step's current and next arrays side by side) keep it too.
        const FishArrays copy = f;
        FishArrays other;
        other.allocate(capacity);
        std::vector<LineRange> lines;
        for (const FishArrays* set : std::vector<const FishArrays*>{&f, &copy, &other}) addLinesOf(*set, lines);
        requireNoSharedLine(lines);
    }
}
