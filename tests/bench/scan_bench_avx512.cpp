// Compiled for AVX-512, like sim/fish_kernel_avx512.cpp; flattened, so that
// nothing compiled for AVX-512 but this entry reaches the linker.
#include "scan_bench_avx512.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/neighbour_scan.hpp"

namespace mirofish::bench {

namespace {

template <scan::Pass P>
void scanAs(scan::LanesOf<v16f>& lanes, const scan::ScanSharedOf<v16f>& shared, const scan::ScanFishOf<v16f>& fish,
            std::span<const std::uint32_t> list) {
    scan::scanList<false, P>(lanes, shared, fish, list);
}

}  // namespace

[[gnu::flatten]] double nanosecondsPerScanStep(int candidates, ScanPass pass) {
    // Fish of the bench's density around sixteen fish in a strip of cells
    // (perception radius 50 px): which lanes see which candidate changes
    // nothing, the scan being branch-free, but the sums stay ordinary numbers.
    std::mt19937 random(2024);
    std::uniform_real_distribution<float> x(0.0f, 350.0f), y(0.0f, 150.0f), v(-60.0f, 60.0f);
    const std::size_t n = static_cast<std::size_t>(candidates);
    std::vector<float> px(n), py(n), vx(n), vy(n);
    for (std::size_t i = 0; i < n; ++i) px[i] = x(random), py[i] = y(random), vx[i] = v(random), vy[i] = v(random);
    std::vector<std::uint32_t> list(n);
    for (std::uint32_t i = 0; i < n; ++i) list[i] = i;
    std::shuffle(list.begin(), list.end(), random);
    scan::ScanFishOf<v16f> fish{};
    for (int l = 0; l < 16; ++l) {
        fish.x[l] = 100.0f + 10.0f * static_cast<float>(l);
        fish.y[l] = y(random);
        fish.axisX[l] = 0.6f;
        fish.axisY[l] = 0.8f;
        fish.coneLimit[l] = rules::coneLimit(-0.34f);  // a 220-degree field of view
        fish.radius2[l] = 50.0f * 50.0f;
    }
    const scan::ScanSharedOf<v16f> shared{px.data(), py.data(), vx.data(), vy.data(), splat<v16f>(2500.0f),
                                          splat<v16f>(1.0f), splat<v16f>(1e6f), splat<v16f>(1e6f)};
    // Enough scans for a few milliseconds a sample.
    const int scans = std::max(1, 2000000 / candidates);
    std::array<double, 9> samples{};
    float sink = 0.0f;
    for (double& sample : samples) {
        const auto start = std::chrono::steady_clock::now();
        for (int s = 0; s < scans; ++s) {
            scan::LanesOf<v16f> lanes;
            const std::span<const std::uint32_t> all(list);
            if (pass == ScanPass::Everything) scanAs<scan::Pass::Everything>(lanes, shared, fish, all);
            if (pass == ScanPass::AllButSeparation) scanAs<scan::Pass::AllButSeparation>(lanes, shared, fish, all);
            if (pass == ScanPass::SeparationOnly) scanAs<scan::Pass::SeparationOnly>(lanes, shared, fish, all);
            if (pass == ScanPass::BothApart) scan::scanListsApart<false>(lanes, shared, fish, all, all);
            // Every sum the pass makes is used, and only after the scan, so
            // that the loop is the kernel's: sums left unused drop out of it,
            // and a lane read by a variable index keeps its vector in memory,
            // stored after every candidate (up to twice the kernel's time).
            const v16f sums = lanes.sepX + lanes.sepY + lanes.velX + lanes.velY + lanes.offX + lanes.offY +
                              __builtin_convertvector(lanes.seen, v16f);
            sink += sums[0];
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        sample = seconds * 1e9 / (static_cast<double>(scans) * static_cast<double>(n));
    }
    // Keeps the sums alive, and so the scans.
    asm volatile("" : : "r"(sink));
    std::nth_element(samples.begin(), samples.begin() + 4, samples.end());
    return samples[4];
}

}  // namespace mirofish::bench
