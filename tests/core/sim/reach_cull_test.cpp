// The neighbour scan's cull (sim/reach_cull.hpp): it may only drop
// candidates that no fish of the lanes perceives, so the scan's sums stay
// those of the whole spans, bit for bit, in eight lanes and in sixteen.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "math/lanes.hpp"
#include "sim/grid.hpp"
#include "sim/neighbour_scan.hpp"
#include "sim/reach_cull.hpp"
#include "sim/rules.hpp"

using namespace mirofish;

namespace {

template <typename F>
bool sameBits(const F& a, const F& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

template <typename F>
bool sameSums(const scan::LanesOf<F>& a, const scan::LanesOf<F>& b) {
    return sameBits(a.seen, b.seen) && sameBits(a.velX, b.velX) && sameBits(a.velY, b.velY) &&
           sameBits(a.offX, b.offX) && sameBits(a.offY, b.offY) && sameBits(a.sepX, b.sepX) &&
           sameBits(a.sepY, b.sepY);
}

// Fish sorted by cell, as the kernel reads them, with the arrays' padding.
struct SortedSchool {
    std::vector<float> px, py, vx, vy;
    UniformGrid grid;
};

SortedSchool school(std::mt19937& rng, std::size_t n, float w, float h, float cell, bool wrap) {
    // Clumps, so that blocks hold many fish; in a walled world a few fish
    // off the world too.
    std::uniform_real_distribution<float> u(0.0f, 1.0f), spread(-40.0f, 40.0f), speed(-150.0f, 150.0f);
    std::vector<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float cx = w * u(rng), cy = h * u(rng);
        x[i] = i % 3 == 0 ? cx : std::fmod(w + x[i / 2] + spread(rng), w);
        y[i] = i % 3 == 0 ? cy : std::fmod(h + y[i / 2] + spread(rng), h);
        if (i % 97 == 5 && !wrap) x[i] = -7.5f;
    }
    SortedSchool s;
    s.grid.reserve(n);
    s.grid.configure(w, h, cell, wrap);
    s.grid.build(x.data(), y.data(), n);
    for (auto* a : {&s.px, &s.py, &s.vx, &s.vy}) a->assign(n + kLanes, 0.0f);
    for (std::size_t i = 0; i < n; ++i) {
        s.px[i] = x[s.grid.order()[i]];
        s.py[i] = y[s.grid.order()[i]];
        s.vx[i] = speed(rng);
        s.vy[i] = speed(rng);
    }
    return s;
}

// The squared distance as the scan compiled here computes it
// (sim/neighbour_scan.hpp perceive; fused or not as mulAdd on lanes is in
// this file), with the nearest image in a wrapping world.
template <bool Wrap>
float scanD2(float cx, float cy, float fx, float fy, float w, float h) {
    float dx = cx - fx, dy = cy - fy;
    if (Wrap) {
        if (dx > 0.5f * w) dx -= w;
        if (dx < -0.5f * w) dx += w;
        if (dy > 0.5f * h) dy -= h;
        if (dy < -0.5f * h) dy += h;
    }
    return rules::scanDot(dx, dy, dx, dy, kFusedMulAdd);
}

// The scan of every candidate of the spans, in their order: what the kernel
// did before the cull.
template <bool Wrap, typename F>
void scanWholeSpans(scan::LanesOf<F>& L, const scan::ScanSharedOf<F>& s, const scan::ScanFishOf<F>& f,
                    const UniformGrid::Spans& spans) {
    std::vector<std::uint32_t> all;
    for (int k = 0; k < spans.count; ++k)
        for (std::uint32_t j = spans.begin[k]; j < spans.end[k]; ++j) all.push_back(j);
    scan::scanList<Wrap>(L, s, f, all);
}

struct Tally {
    std::size_t groups = 0, differing = 0, seen = 0, nearEdge = 0;
    std::size_t plain = 0;  // groups of one cell clear of the seams, scanned again without images
    std::size_t examined = 0, whole = 0;  // of the groups of consecutive fish
    std::size_t twoPasses = 0;            // groups whose separation had a pass of its own
};

// Groups of lanes taken from consecutive fish (as the kernel takes them) and
// from anywhere, some with a fish that perceives nothing (a non-finite
// position, no radius), scanned both ways.
template <typename F, bool Wrap>
Tally scanBothWays(std::uint32_t seed, bool separationApart = false) {
    using M = scan::MaskOf<F>;
    constexpr int lanes = kLaneCount<F>;
    std::mt19937 rng(seed);
    const float radius = 60.0f;
    const SortedSchool s = school(rng, 1500, 900.0f, 500.0f, radius * 1.2f, Wrap);
    const std::size_t n = s.px.size() - kLanes;
    const UniformGrid& g = s.grid;
    // Apart, a smaller separation radius, so that the close lists are short
    // enough for their own pass in some groups.
    const float separation = separationApart ? 12.0f : 25.0f;
    const scan::ScanSharedOf<F> shared{s.px.data(),     s.py.data(),      s.vx.data(),
                                       s.vy.data(),     splat<F>(separation * separation),
                                       splat<F>(1.0f),  splat<F>(900.0f), splat<F>(500.0f)};
    std::uniform_int_distribution<std::size_t> anyFish(0, n - 1);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    scan::NearbyList& nearby = scan::threadNearbyList();
    Tally t;
    for (int trial = 0; trial < 400; ++trial) {
        const std::size_t first = anyFish(rng) % (n - lanes);
        scan::ScanFishOf<F> f;
        M m;
        for (int l = 0; l < lanes; ++l) {
            const std::size_t i = trial % 2 == 0 ? first + static_cast<std::size_t>(l) : anyFish(rng);
            f.x[l] = s.px[i];
            f.y[l] = s.py[i];
            const float angle = 6.2831853f * u(rng);
            f.axisX[l] = std::cos(angle);
            f.axisY[l] = std::sin(angle);
            f.coneLimit[l] = rules::coneLimit(std::cos(1.9f));
            const float r = radius * (0.8f + 0.2f * u(rng));
            f.radius2[l] = r * r;
            m[l] = trial % 5 == 4 && l % 3 == 1 ? 0 : -1;  // lanes outside a run
        }
        if (trial % 7 == 3) f.x[1] = std::numeric_limits<float>::quiet_NaN();
        if (trial % 11 == 5) f.y[2] = std::numeric_limits<float>::infinity();
        if (trial % 13 == 6) f.radius2[3] = 0.0f;
        const UniformGrid::Spans spans = g.neighbourSpans(g.cellX(f.x[0]), g.cellY(f.y[0]));

        scan::LanesOf<F> whole, culled;
        scanWholeSpans<Wrap>(whole, shared, f, spans);
        const std::size_t examined =
            separationApart ? scan::scanWithinReach<Wrap, Wrap, true>(culled, shared, f, M{} - 1, spans, nearby)
                            : scan::scanWithinReach<Wrap>(culled, shared, f, M{} - 1, spans, nearby);
        if (separationApart) {
            const auto lists = nearby.fillWithClose<Wrap>(s.px.data(), s.py.data(), spans, scan::reachOf(f, M{} - 1),
                                                          900.0f, 500.0f, separation * separation);
            t.twoPasses += scan::separateCloseList(lists.all.size(), lists.close.size());
        }
        ++t.groups;
        t.differing += !sameSums(whole, culled);
        // In a wrapping world, fish of one cell whose block needs no nearest
        // image: the plain scan (and its list) gives the very same.
        bool oneCell = true;
        for (int l = 0; l < lanes; ++l)
            oneCell = oneCell && g.cellX(f.x[l]) == g.cellX(f.x[0]) && g.cellY(f.y[l]) == g.cellY(f.y[0]);
        if (Wrap && oneCell && !g.needsNearestImage(g.cellX(f.x[0]), g.cellX(f.x[0]), g.cellY(f.y[0]))) {
            scan::LanesOf<F> plain;
            const std::size_t plainExamined =
                scan::scanWithinReach<Wrap, false>(plain, shared, f, M{} - 1, spans, nearby);
            t.differing += !sameSums(whole, plain) || plainExamined != examined;
            ++t.plain;
        }
        if (trial % 2 == 0) t.examined += examined, t.whole += spans.total;

        // Lanes outside the run may be left out of the box, and their sums
        // are then not asked for: the run's lanes still get theirs.
        scan::LanesOf<F> runOnly;
        if (separationApart)
            scan::scanWithinReach<Wrap, Wrap, true>(runOnly, shared, f, m, spans, nearby);
        else
            scan::scanWithinReach<Wrap>(runOnly, shared, f, m, spans, nearby);
        for (int l = 0; l < lanes; ++l)
            if (m[l] != 0)
                t.differing += !(whole.seen[l] == runOnly.seen[l] && sameBits(whole.velX[l], runOnly.velX[l]) &&
                                 sameBits(whole.offY[l], runOnly.offY[l]) && sameBits(whole.sepX[l], runOnly.sepX[l]));

        // The control: fish just inside their radius, where a box a hair
        // too small would lose them.
        for (int l = 0; l < lanes; ++l) {
            t.seen += static_cast<std::size_t>(-whole.seen[l]);
            for (int k = 0; k < spans.count; ++k)
                for (std::uint32_t j = spans.begin[k]; j < spans.end[k]; ++j) {
                    const float d2 = scanD2<Wrap>(s.px[j], s.py[j], f.x[l], f.y[l], 900.0f, 500.0f);
                    t.nearEdge += d2 < f.radius2[l] && d2 > 0.97f * f.radius2[l];
                }
        }
    }
    return t;
}

}  // namespace

TEST_CASE("a scan of the candidates within reach of its fish gives the sums of its whole spans, bit for bit") {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        INFO("seed " << seed);
        // With the separation apart, the groups take either way.
        const Tally apart = scanBothWays<v16f, false>(seed, true);
        CHECK(apart.twoPasses > apart.groups / 10);
        CHECK(apart.twoPasses < apart.groups * 9 / 10);
        for (const Tally& t : {scanBothWays<v8f, false>(seed), scanBothWays<v16f, false>(seed),
                               scanBothWays<v8f, true>(seed), scanBothWays<v16f, true>(seed),
                               scanBothWays<v8f, false>(seed, true), scanBothWays<v16f, false>(seed, true),
                               scanBothWays<v8f, true>(seed, true), scanBothWays<v16f, true>(seed, true)}) {
            CHECK(t.differing == 0);
            // The cull does drop candidates around fish that lie close
            // together, and the scans see neighbours, some of them at the
            // very edge of their radius.
            CHECK(t.examined < t.whole * 9 / 10);
            CHECK(t.examined > 0);
            CHECK(t.seen > 1000);
            CHECK(t.nearEdge > 100);
        }
        CHECK(scanBothWays<v8f, true>(seed).plain > 20);
    }
}

TEST_CASE("candidates at the very edge of a fish's radius are still scanned") {
    // Each candidate lies one step of float inside the radius of one fish,
    // as the scan computes the squared distance, in any direction: those
    // outward of the box's fish are at the box's own reach, where a box or a
    // reach a hair too small would drop them. In a wrapping world the fish
    // lie by a corner, so that their candidates are across the seams.
    for (const bool wrap : {false, true}) {
        INFO((wrap ? "wrapping" : "walled"));
        const float w = 400.0f, h = 300.0f;
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        for (int trial = 0; trial < 50; ++trial) {
            scan::ScanFish f{};
            for (int l = 0; l < kLanes; ++l) {
                f.x[l] = wrap ? 60.0f * u(rng) : 150.0f + 80.0f * u(rng);
                f.y[l] = wrap ? 60.0f * u(rng) : 100.0f + 80.0f * u(rng);
                const float r = 40.0f + 30.0f * u(rng);
                f.radius2[l] = r * r;
            }
            f.coneLimit = splat(-1.0f);  // all around
            const auto d2 = [&](float cx, float cy, int l) {
                return wrap ? scanD2<true>(cx, cy, f.x[l], f.y[l], w, h) : scanD2<false>(cx, cy, f.x[l], f.y[l], w, h);
            };
            const auto wrapped = [&](float c, float size) {
                return wrap ? (c < 0.0f ? c + size : (c >= size ? c - size : c)) : c;
            };
            std::vector<float> px, py, vx, vy;
            while (px.size() < 400) {
                const int l = static_cast<int>(px.size() % kLanes);
                const float angle = 6.2831853f * u(rng);
                const float r = std::sqrt(f.radius2[l]);
                float ux = f.x[l] + r * std::cos(angle), uy = f.y[l] + r * std::sin(angle);
                // Step towards the fish until just inside.
                for (int step = 0; step < 64 && !(d2(wrapped(ux, w), wrapped(uy, h), l) < f.radius2[l]); ++step) {
                    ux = std::nextafter(ux, f.x[l]);
                    uy = std::nextafter(uy, f.y[l]);
                }
                if (!(d2(wrapped(ux, w), wrapped(uy, h), l) < f.radius2[l])) continue;
                px.push_back(wrapped(ux, w)), py.push_back(wrapped(uy, h)), vx.push_back(1.0f), vy.push_back(2.0f);
            }
            for (auto* a : {&px, &py, &vx, &vy}) a->resize(a->size() + kLanes, 0.0f);
            const scan::ScanShared shared{px.data(), py.data(), vx.data(), vy.data(),
                                          splat(100.0f), splat(1.0f), splat(w), splat(h)};
            UniformGrid::Spans spans;
            spans.count = 1, spans.begin[0] = 0, spans.end[0] = 400, spans.total = 400;
            scan::Lanes whole, culled;
            std::size_t across = 0;
            if (wrap) {
                scanWholeSpans<true>(whole, shared, f, spans);
                scan::scanWithinReach<true>(culled, shared, f, v8i{} - 1, spans, scan::threadNearbyList());
                for (std::size_t j = 0; j < 400; ++j) across += px[j] > 0.5f * w || py[j] > 0.5f * h;
                CHECK(across > 50);
            } else {
                scanWholeSpans<false>(whole, shared, f, spans);
                scan::scanWithinReach<false>(culled, shared, f, v8i{} - 1, spans, scan::threadNearbyList());
            }
            INFO("trial " << trial);
            REQUIRE(sameSums(whole, culled));
            for (int l = 0; l < kLanes; ++l) CHECK(-whole.seen[l] >= 50);  // its own edge candidates at least
        }
    }
}

TEST_CASE("the separation in a pass of its own over the close list adds what one pass adds, bit for bit, also side by side") {
    // Half the candidates lie one step of float inside the separation radius
    // of one fish, as the scan computes the squared distance, in any
    // direction (where a close list a hair too short would lose them), the
    // rest anywhere within perception.
    const float separation = 30.0f;
    std::mt19937 rng(6);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::size_t closeTotal = 0, allTotal = 0;
    for (int trial = 0; trial < 50; ++trial) {
        scan::ScanFish f{};
        for (int l = 0; l < kLanes; ++l) {
            f.x[l] = 150.0f + 60.0f * u(rng);
            f.y[l] = 100.0f + 60.0f * u(rng);
            const float angle = 6.2831853f * u(rng);
            f.axisX[l] = std::cos(angle);
            f.axisY[l] = std::sin(angle);
            f.coneLimit[l] = rules::coneLimit(std::cos(2.0f));
            const float r = 60.0f + 10.0f * u(rng);
            f.radius2[l] = r * r;
        }
        std::vector<float> px, py, vx, vy;
        while (px.size() < 400) {
            const int l = static_cast<int>(px.size() % kLanes);
            const bool edge = px.size() % 2 == 0;
            const float angle = 6.2831853f * u(rng);
            const float r = edge ? separation : 80.0f * u(rng);
            float ux = f.x[l] + r * std::cos(angle), uy = f.y[l] + r * std::sin(angle);
            // An edge candidate steps towards its fish until just inside.
            const auto inside = [&] { return scanD2<false>(ux, uy, f.x[l], f.y[l], 0, 0) < separation * separation; };
            for (int step = 0; edge && step < 64 && !inside(); ++step) {
                ux = std::nextafter(ux, f.x[l]);
                uy = std::nextafter(uy, f.y[l]);
            }
            px.push_back(ux), py.push_back(uy), vx.push_back(u(rng)), vy.push_back(u(rng));
        }
        for (auto* a : {&px, &py, &vx, &vy}) a->resize(a->size() + kLanes, 0.0f);
        const scan::ScanShared shared{px.data(), py.data(), vx.data(), vy.data(),
                                      splat(separation * separation), splat(1.0f), splat(500.0f), splat(400.0f)};
        UniformGrid::Spans spans;
        spans.count = 1, spans.begin[0] = 0, spans.end[0] = 400, spans.total = 400;
        scan::Lanes whole, twoPasses;
        scanWholeSpans<false>(whole, shared, f, spans);
        const auto lists = scan::threadNearbyList().fillWithClose<false>(px.data(), py.data(), spans,
                                                                         scan::reachOf(f, v8i{} - 1), 500.0f, 400.0f,
                                                                         separation * separation);
        scan::scanList<false, scan::Pass::AllButSeparation>(twoPasses, shared, f, lists.all);
        scan::scanList<false, scan::Pass::SeparationOnly>(twoPasses, shared, f, lists.close);
        // Both passes side by side (the close list is the shorter one), and
        // with the lists swapped, so that either may outlast the other.
        scan::Lanes sideBySide, swapped, swappedApart;
        scan::scanListsApart<false>(sideBySide, shared, f, lists.all, lists.close);
        const std::vector<std::uint32_t> allList(lists.all.begin(), lists.all.end());
        const std::vector<std::uint32_t> closeList(lists.close.begin(), lists.close.end());
        scan::scanList<false, scan::Pass::AllButSeparation>(swapped, shared, f, closeList);
        scan::scanList<false, scan::Pass::SeparationOnly>(swapped, shared, f, allList);
        scan::scanListsApart<false>(swappedApart, shared, f, closeList, allList);
        INFO("trial " << trial);
        REQUIRE(sameSums(whole, twoPasses));
        REQUIRE(sameSums(whole, sideBySide));
        REQUIRE(sameSums(swapped, swappedApart));
        closeTotal += lists.close.size(), allTotal += lists.all.size();
        std::size_t close = 0;
        for (int l = 0; l < kLanes; ++l) close += whole.sepX[l] != 0.0f;
        CHECK(close >= kLanes - 1);  // the edge candidates do push
    }
    // The close list leaves candidates out.
    CHECK(closeTotal < allTotal * 9 / 10);
}

TEST_CASE("a scan over no fish or over fish that perceive nothing examines no candidate") {
    const SortedSchool s = [] {
        std::mt19937 rng(4);
        return school(rng, 300, 400.0f, 300.0f, 50.0f, false);
    }();
    const scan::ScanShared shared{s.px.data(), s.py.data(), s.vx.data(), s.vy.data(),
                                  splat(100.0f), splat(1.0f), splat(400.0f), splat(300.0f)};
    scan::ScanFish f{splat(200.0f), splat(150.0f), splat(1.0f), splat(0.0f), splat(-1.0f), splat(2500.0f)};
    const UniformGrid::Spans spans = s.grid.neighbourSpans(s.grid.cellX(200.0f), s.grid.cellY(150.0f));
    REQUIRE(spans.total > 0);
    scan::NearbyList& nearby = scan::threadNearbyList();
    scan::Lanes lanes;
    CHECK(scan::scanWithinReach<false>(lanes, shared, f, v8i{}, spans, nearby) == 0);
    f.radius2 = splat(0.0f);
    CHECK(scan::scanWithinReach<false>(lanes, shared, f, v8i{} - 1, spans, nearby) == 0);
    f.radius2 = splat(std::numeric_limits<float>::quiet_NaN());
    CHECK(scan::scanWithinReach<false>(lanes, shared, f, v8i{} - 1, spans, nearby) == 0);
    CHECK(sameSums(lanes, scan::Lanes{}));
}

TEST_CASE("packing the set lanes of a mask keeps every set lane once, in order") {
    for (int bits = 0; bits < 256; ++bits) {
        v8i m{};
        std::vector<std::uint32_t> expected;
        for (int l = 0; l < kLanes; ++l)
            if (bits >> l & 1) m[l] = -1, expected.push_back(1000u + static_cast<std::uint32_t>(l));
        std::uint32_t out[kLanes + 1] = {};
        const std::size_t n = appendSetLanes(out, 1000u, m);
        INFO("mask " << bits);
        REQUIRE(n == expected.size());
        CHECK(std::vector<std::uint32_t>(out, out + n) == expected);
        CHECK(out[kLanes] == 0);  // nothing past its eight entries
    }
}

TEST_CASE("packing sixteen lanes keeps every set lane once, in order") {
    std::mt19937 rng(4);
    for (int trial = 0; trial < 2000; ++trial) {
        const unsigned bits = trial < 16 ? (trial == 0 ? 0u : 0xffffu >> (trial - 1)) : rng() & 0xffffu;
        v16i m{};
        std::vector<std::uint32_t> expected;
        for (int l = 0; l < 2 * kLanes; ++l)
            if (bits >> l & 1) m[l] = -1, expected.push_back(77u + static_cast<std::uint32_t>(l));
        std::uint32_t out[2 * kLanes + 1] = {};
        const std::size_t n = appendSetLanes(out, 77u, m);
        INFO("mask " << bits);
        REQUIRE(n == expected.size());
        CHECK(std::vector<std::uint32_t>(out, out + n) == expected);
        CHECK(out[2 * kLanes] == 0);  // nothing past its sixteen entries
    }
}

// The list of candidates within reach, sixteen at a time (the AVX-512
// build's) and eight at a time, for boxes around groups of fish and boxes
// anywhere, over spans of every length the grid gives.
template <bool Wrap, bool Images>
void fillBothWidths(std::uint32_t seed) {
    std::mt19937 rng(seed);
    const float w = 900.0f, h = 500.0f;
    const SortedSchool s = school(rng, 1500, w, h, 70.0f, Wrap);
    const std::size_t n = s.px.size() - kLanes;
    const UniformGrid& g = s.grid;
    std::uniform_int_distribution<std::size_t> anyFish(0, n - 1);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    scan::NearbyList& nearby = scan::threadNearbyList();
    std::size_t sixteens = 0, closeOnes = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t i = anyFish(rng);
        const float x = s.px[i], y = s.py[i];
        const float half = 40.0f * u(rng), r = 20.0f + 60.0f * u(rng);
        const scan::Reach reach{x - half, x + half, y - half * u(rng), y + half, r * r};
        const int cx = g.cellX(x), cy = g.cellY(y);
        const UniformGrid::Spans spans = g.neighbourSpans(std::max(cx - trial % 3, 0), cx, cy);
        for (int k = 0; k < spans.count; ++k) sixteens += (spans.end[k] - spans.begin[k]) / 16;
        const auto eight = nearby.fill<Wrap, Images, false>(s.px.data(), s.py.data(), spans, reach, w, h);
        const std::vector<std::uint32_t> byEight(eight.begin(), eight.end());
        const auto sixteen = nearby.fill<Wrap, Images, true>(s.px.data(), s.py.data(), spans, reach, w, h);
        INFO("trial " << trial << ", " << spans.total << " fish in the spans");
        CHECK(std::vector<std::uint32_t>(sixteen.begin(), sixteen.end()) == byEight);
        // The same again with the close list (a separation radius of 25 px).
        const auto closeByEight = nearby.fillWithClose<Wrap, Images, false>(s.px.data(), s.py.data(), spans, reach, w, h, 625.0f);
        const std::vector<std::uint32_t> allByEight(closeByEight.all.begin(), closeByEight.all.end());
        const std::vector<std::uint32_t> closeEight(closeByEight.close.begin(), closeByEight.close.end());
        const auto closeBySixteen = nearby.fillWithClose<Wrap, Images, true>(s.px.data(), s.py.data(), spans, reach, w, h, 625.0f);
        CHECK(std::vector<std::uint32_t>(closeBySixteen.all.begin(), closeBySixteen.all.end()) == byEight);
        CHECK(allByEight == byEight);
        CHECK(std::vector<std::uint32_t>(closeBySixteen.close.begin(), closeBySixteen.close.end()) == closeEight);
        closeOnes += closeEight.size();
    }
    CHECK(closeOnes > 1000);
    CHECK(sixteens > 300);  // whole blocks of sixteen were taken
}

TEST_CASE("the cull lists the same candidates sixteen at a time as eight at a time") {
    fillBothWidths<false, false>(21);
    fillBothWidths<true, true>(22);
    fillBothWidths<true, false>(23);
}

TEST_CASE("the smallest and the largest of eight or sixteen lanes") {
    const float inf = std::numeric_limits<float>::infinity();
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> any(-1e6f, 1e6f);
    for (int trial = 0; trial < 200; ++trial) {
        v16f v;
        for (int l = 0; l < 16; ++l) v[l] = trial % 10 == 0 && l == trial % 16 ? (trial % 20 ? inf : -inf) : any(rng);
        float lo = v[0], hi = v[0];
        for (int l = 1; l < 16; ++l) lo = std::min(lo, v[l]), hi = std::max(hi, v[l]);
        CHECK(minLanes(v) == lo);
        CHECK(maxLanes(v) == hi);
        float first8[8];
        std::memcpy(first8, &v, sizeof first8);
        CHECK(minLanes(lowHalf(v)) == *std::min_element(first8, first8 + 8));
        CHECK(maxLanes(lowHalf(v)) == *std::max_element(first8, first8 + 8));
    }
}

namespace {

// Positions on a page of their own, at `offset` bytes into it, for the
// fill's lists to keep clear of.
struct PagePositions {
    std::vector<float> storage = std::vector<float>(3 * 1024 + 64, 1.0f);
    float* at(std::uint32_t offset) {
        const auto base = reinterpret_cast<std::uintptr_t>(storage.data());
        const std::uintptr_t page = (base + 4095) / 4096 * 4096;
        return reinterpret_cast<float*>(page + offset);
    }
};

std::uint32_t pageOffsetOf(const void* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p) % 4096); }

// At least 256 bytes apart, around the page.
bool clearOf(const void* list, const float* positions) {
    const std::uint32_t d = (pageOffsetOf(list) - pageOffsetOf(positions)) % 4096;
    return d >= 256 && d <= 4096 - 256;
}

scan::NearbyList::Lists fillFrom(const float* px, const float* py) {
    UniformGrid::Spans spans;
    spans.count = 1, spans.begin[0] = 0, spans.end[0] = 64, spans.total = 64;
    const scan::Reach everywhere{0.0f, 1.0f, 0.0f, 1.0f, 1e30f};
    return scan::threadNearbyList().fillWithClose<false>(px, py, spans, everywhere, 500.0f, 400.0f, 1e30f);
}

}  // namespace

TEST_CASE("the fill's lists start away from the positions' offsets within a page, and stay put once clear of both sets") {
    // The fill stores its lists while it loads the positions: a list that
    // starts at the very offset of the x or y positions within their pages
    // slows it down (sim/reach_cull.hpp NearbyList::kClearance). The step's
    // two sets of positions take turns, so the lists must settle where both
    // sets leave them room, not move at every step.
    scan::NearbyList& nearby = scan::threadNearbyList();
    PagePositions xs, ys, nextXs, nextYs;
    const auto before = fillFrom(xs.at(0), ys.at(2048));
    REQUIRE(before.all.size() == 64);
    // Positions at the offsets where the lists start now.
    float* const px = xs.at(pageOffsetOf(before.all.data()));
    float* const py = ys.at(pageOffsetOf(before.close.data()));
    float* const nextPx = nextXs.at((pageOffsetOf(before.all.data()) + 1024) % 4096);
    float* const nextPy = nextYs.at((pageOffsetOf(before.close.data()) + 64) % 4096);
    const void* settled[2] = {};
    for (int step = 0; step < 6; ++step) {
        INFO("step " << step);
        const bool next = step % 2 == 1;
        nearby.keepClearOf(next ? nextPx : px, next ? nextPy : py);
        const auto lists = fillFrom(next ? nextPx : px, next ? nextPy : py);
        for (const float* positions : {px, py, nextPx, nextPy}) {
            if (step == 0 && (positions == nextPx || positions == nextPy)) continue;  // not seen yet
            CHECK(clearOf(lists.all.data(), positions));
            CHECK(clearOf(lists.close.data(), positions));
        }
        // Every candidate is within reach of the box and of the separation radius.
        CHECK(lists.all.size() == 64);
        CHECK(lists.close.size() == 64);
        if (step >= 2) {
            CHECK(lists.all.data() == settled[0]);
            CHECK(lists.close.data() == settled[1]);
        }
        settled[0] = lists.all.data(), settled[1] = lists.close.data();
    }
}
