// Copying the fish arrays into cell order (sim/cell_order_gather.hpp): every
// build must put fish order[i] into slot i of every array (the alarms only
// when asked), bit for bit, for
// the orders a step's sort makes (runs of fish that kept their place, fish
// from the next cell, fish from far away) and for any other permutation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "sim/cell_order_gather.hpp"

using namespace mirofish;

namespace {

// Every field of every fish a different value, one field a NaN with the
// fish in its payload: a copy that went through arithmetic would show.
FishArrays numbered(std::size_t n) {
    FishArrays f;
    f.allocate(n);
    for (std::size_t k = 0; k < FishArrays::kFloatFields.size(); ++k) {
        auto& field = f.*FishArrays::kFloatFields[k];
        for (std::size_t i = 0; i < n; ++i) {
            const auto fish = static_cast<std::uint32_t>(i);
            field[i] = k == 3 ? std::bit_cast<float>(0x7fc00000u | fish) : static_cast<float>(k * 1000003 + i) * 0.5f;
        }
    }
    std::iota(f.id.begin(), f.id.begin() + static_cast<std::ptrdiff_t>(n), 7u);
    return f;
}

// What a step's counting sort makes of sorted fish of which some moved:
// most keep their place, some swap with a fish a few slots on, a few (2 % at
// the bench's constant density) come from far away.
std::vector<std::uint32_t> sortLikeOrder(std::size_t n, double farShare, std::mt19937& rng) {
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const double r = u(rng);
        if (r < farShare)
            std::swap(order[i], order[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)]);
        else if (r < 0.1)
            std::swap(order[i], order[std::min(n - 1, i + std::uniform_int_distribution<std::size_t>(1, 12)(rng))]);
    }
    return order;
}

struct Case {
    const char* what;
    std::vector<std::uint32_t> order;
};

std::vector<Case> orders(std::size_t n, std::mt19937& rng) {
    std::vector<Case> cases;
    std::vector<std::uint32_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0u);
    cases.push_back({"unchanged", identity});
    cases.push_back({"as a step sorts them", sortLikeOrder(n, 0.02, rng)});
    cases.push_back({"many from far", sortLikeOrder(n, 0.3, rng)});
    std::vector<std::uint32_t> reversed(identity.rbegin(), identity.rend());
    cases.push_back({"reversed", reversed});
    std::vector<std::uint32_t> shuffled = identity;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    cases.push_back({"shuffled", shuffled});
    return cases;
}

bool sameBits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

}  // namespace

TEST_CASE("every build copies the fish into cell order exactly, slot by slot, and nothing outside its slots or the alarms it leaves out") {
    std::mt19937 rng(11);
    for (const std::size_t n : {std::size_t{5}, std::size_t{31}, std::size_t{40}, std::size_t{1000}, std::size_t{20011}}) {
        const FishArrays from = numbered(n);
        for (const Case& c : orders(n, rng)) {
            // The whole range, and parts that start on a cache line (where
            // streamed writes go past the caches) or inside one, and end
            // inside a block of sixteen.
            for (const std::size_t start : {std::size_t{13}, std::size_t{16}})
            for (const CopyWrites writes : {CopyWrites::Cached, CopyWrites::Streamed})
            for (const Alarms alarms : {Alarms::Copied, Alarms::LeftOut})
            for (KernelBuild build : kKernelBuilds) {
                if (!cpuRuns(build)) continue;
                const std::size_t b = n > 40 ? start : 0, e = n > 40 ? n - 9 : n;
                INFO(n << " fish, order " << c.what << ", slots " << b << " to " << e << ", the "
                       << kernelBuildName(build) << " build, "
                       << (writes == CopyWrites::Streamed ? "streamed" : "cached") << " writes, alarms "
                       << (alarms == Alarms::Copied ? "copied" : "left out"));
                FishArrays to;
                to.allocate(n);
                for (auto field : FishArrays::kFloatFields) std::fill((to.*field).begin(), (to.*field).end(), -1.0f);
                std::fill(to.id.begin(), to.id.end(), 0xdeadu);
                gatherInCellOrder(from, to, c.order.data(), b, e, build, writes, alarms);
                bool exact = true;
                // The padding after the last fish too.
                const std::size_t slots = to.id.size();
                for (auto field : FishArrays::kFloatFields)
                    for (std::size_t i = 0; i < slots; ++i) {
                        const bool copied =
                            i >= b && i < e && (alarms == Alarms::Copied || field != &FishArrays::alarm);
                        const float want = copied ? (from.*field)[c.order[i]] : -1.0f;
                        exact = exact && sameBits((to.*field)[i], want);
                    }
                for (std::size_t i = 0; i < slots; ++i)
                    exact = exact && to.id[i] == (i >= b && i < e ? from.id[c.order[i]] : 0xdeadu);
                CHECK(exact);
            }
        }
    }
}
