#pragma once
// Fewer candidates for a scan lanes over fish (sim/neighbour_scan.hpp
// scanList): of the spans around some fish, only the fish that may lie
// within reach of one of them, in their order, as the list of indices that
// the scan walks. In article 000's school the spans of a group
// of sixteen fish in one cell are about 250 fish; a fifth of them lie farther
// from the box around the sixteen than the largest of their radii, and an
// eight-lane run's box is smaller still. Where the separation has a pass of
// its own (sim/neighbour_scan.hpp Pass), a second list holds those that may
// lie within the separation radius of one of them, found by the same test.
//
// Exact, not an approximation: a candidate is dropped only where the scan
// would find it beyond the radius of every fish of the lanes, so the sums
// are those of the whole spans, bit for bit (it would have added +0), and a
// candidate kept or dropped is the same in every build, so the counts of
// candidates examined are too.
// - In a walled world the test is the scan's own formula with each offset
//   replaced by the gap to the box, gx = max(x0 - cx, cx - x1, 0): for a fish
//   at fx in [x0, x1], |fl(cx - fx)| >= gx, since rounding is monotonic
//   (cx < x0 <= fx gives fl(cx - fx) <= fl(cx - x0) <= 0), and products and
//   sums of larger floats round to larger floats (a fused multiply-add
//   rounds a larger exact value once), so the scan's squared distance
//   (rules::scanDot) is at least that of (gx, gy) as computed here.
// - In a wrapping world the scan measures to the nearest image of the
//   candidate, cx, cx - W or cx + W: the gap is the smallest of the three
//   images' gaps, less a slack of eight units in the last place of the
//   world's size for the roundings of the shifts (positions lie in [0, W);
//   a coordinate outside, which no step leaves, counts no gap).
#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "math/lanes.hpp"
#include "sim/grid.hpp"
#include "sim/neighbour_scan.hpp"

namespace mirofish::scan {

// The box around some fish and the largest of their squared radii.
struct Reach {
    float x0, x1, y0, y1;
    float radius2;
};

// The reach of the fish in the lanes of m. A fish at a non-finite position
// or without a radius (NaN, or below 0) perceives nothing and widens nothing;
// with no fish left, the box is empty and every candidate is beyond it.
template <typename F>
[[gnu::always_inline]] inline Reach reachOf(const ScanFishOf<F>& f, MaskOf<F> m) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    const MaskOf<F> counted = m & (absOf(f.x) <= FLT_MAX) & (absOf(f.y) <= FLT_MAX) & (f.radius2 >= 0.0f);
    return {minLanes(select(counted, f.x, inf)), maxLanes(select(counted, f.x, -inf)),
            minLanes(select(counted, f.y, inf)), maxLanes(select(counted, f.y, -inf)),
            maxLanes(select(counted, f.radius2, 0.0f))};
}

// The gap from a coordinate to [lo, hi], 0 inside.
template <FloatLanes F>
[[gnu::always_inline]] inline F gapTo(F c, F lo, F hi) {
    return maxOf(maxOf(lo - c, c - hi), splat<F>(0.0f));
}

// The same for the nearest of the images c, c - size and c + size, made
// smaller by the slack; a coordinate outside [0, size] (or NaN) gets 0.
template <FloatLanes F>
[[gnu::always_inline]] inline F wrappedGapTo(F c, F lo, F hi, F size, F slack) {
    const F below = lo - c, above = c - hi;
    const F shifted = minOf(maxOf(below - size, above + size), maxOf(below + size, above - size));
    const F nearest = minOf(maxOf(below, above), shifted);
    const MaskOf<F> inside = (c >= 0.0f) & (c <= size);
    return select(inside, maxOf(nearest - slack, splat<F>(0.0f)), 0.0f);
}

// wrappedGapTo's value where the box and the candidate lie in the spans of a
// run that needs no nearest image (UniformGrid::needsNearestImage): their
// plain gap is then under half the world less a cell, and every shifted
// image's over half the world, so the nearest is the candidate itself.
template <FloatLanes F>
[[gnu::always_inline]] inline F wrappedGapClearOfSeams(F c, F lo, F hi, F size, F slack) {
    const MaskOf<F> inside = (c >= 0.0f) & (c <= size);
    return select(inside, maxOf(maxOf(lo - c, c - hi) - slack, splat<F>(0.0f)), 0.0f);
}

// Whether NearbyList::fill takes sixteen candidates at a time: where the
// target has AVX-512 (the kernel's AVX-512 build).
#ifdef __AVX512DQ__
constexpr bool kWideFill = true;
#else
constexpr bool kWideFill = false;
#endif

// Each thread's list (one per thread, not per call: a chunk must not
// allocate, and the list keeps the size of the largest one).
class NearbyList {
public:
    // The fish of the spans within reach, in the spans' order; width and
    // height are the world's, for Wrap; Images as for scanWithinReach. Eight
    // candidates at a time: up to seven past a span are read (the arrays are
    // padded) and left out. Wide (the default where the CPU has AVX-512):
    // sixteen at a time, half the instructions a candidate, the same list.
    // Lock-step on 1 thread against eight at a time: article 000 0.973-0.979
    // of the time (0.981 from step 7407), with the app's defaults
    // 0.976-0.979; at the bench's constant density 0.990-0.996. A span's last
    // fewer than sixteen go in one pass whose loads skip the lanes past the
    // span, where they were eight at a time (two passes for up to fifteen):
    // the bench's spans of about twenty-two fish take two passes, not two or
    // three, and the loop's exit is more often foreseen. Lock-step against
    // that (Intel Xeon, 2026-12-03): 0.964-0.995 at constant density in four
    // sittings (50 000 fish, 1 thread), 0.934 at 1 000 000 on 2 threads;
    // article 000 0.987-0.988, the app's defaults 0.999.
    template <bool Wrap, bool Images = Wrap, bool Wide = kWideFill>
    [[gnu::always_inline]] std::span<const std::uint32_t> fill(const float* px, const float* py,
                                                               const UniformGrid::Spans& spans, const Reach& r,
                                                               float width, float height) {
        return fillLists<Wrap, Images, false, Wide>(px, py, spans, r, width, height, 0.0f).all;
    }
    // The same list, and the list of those of its fish that may lie within
    // the separation radius (squared: separationRadius2) of one of the fish,
    // found by the same test with that radius (so just as exact).
    struct Lists {
        std::span<const std::uint32_t> all, close;
    };
    template <bool Wrap, bool Images = Wrap, bool Wide = kWideFill>
    [[gnu::always_inline]] Lists fillWithClose(const float* px, const float* py, const UniformGrid::Spans& spans,
                                               const Reach& r, float width, float height, float separationRadius2) {
        return fillLists<Wrap, Images, true, Wide>(px, py, spans, r, width, height, separationRadius2);
    }

    // Keeps the lists' starts within their pages clear of those of px and py
    // (kClearance below): the kernel calls it once a chunk, with the
    // positions its fills read.
    void keepClearOf(const float* px, const float* py) {
        if (!clearOf(px) || !clearOf(py)) placeClearOf(px, py);
    }

private:
    // fill, with the close list where Close.
    template <bool Wrap, bool Images, bool Close, bool Wide>
    [[gnu::always_inline]] Lists fillLists(const float* px, const float* py, const UniformGrid::Spans& spans,
                                           const Reach& r, float width, float height, float separationRadius2) {
        if (room_ < spans.total + kRoom) grow(2 * std::size_t{spans.total} + kRoom);
        // In locals: the stores could alias the vectors' own pointers.
        std::uint32_t* const out = list_.data() + listShift_;
        std::uint32_t* const closeOut = close_.data() + closeShift_;
        // A box outside the world (no step leaves a fish there) keeps every candidate.
        const bool boxInside = !Wrap || (r.x0 >= 0.0f && r.x1 <= width && r.y0 >= 0.0f && r.y1 <= height);
        constexpr float inf = std::numeric_limits<float>::infinity();
        const Radii radii{boxInside ? r.radius2 : inf, boxInside ? separationRadius2 : inf};
        Counts n;
        for (int s = 0; s < spans.count; ++s) {
            std::uint32_t j = spans.begin[s];
            const std::uint32_t end = spans.end[s];
            if constexpr (Wide) {
                for (; j + 2 * kLanes <= end; j += 2 * kLanes)
                    appendWithinReach<v16f, Wrap, Images, Close, Lanes::InSpan>(out, closeOut, n, px, py, j, end, r, radii,
                                                                                width, height);
                if (j < end)
                    appendWithinReach<v16f, Wrap, Images, Close, Lanes::LoadedToEnd>(out, closeOut, n, px, py, j, end, r,
                                                                                     radii, width, height);
            } else {
                for (; j < end; j += kLanes)
                    appendWithinReach<v8f, Wrap, Images, Close, Lanes::PastEndLeftOut>(out, closeOut, n, px, py, j, end, r,
                                                                                       radii, width, height);
            }
        }
        return {{out, n.all}, {closeOut, n.close}};
    }

    struct Radii {
        float reach2, separation2;  // squared
    };
    struct Counts {
        std::size_t all = 0, close = 0;
    };

    // Of the candidates j, j + 1, ... in the lanes of F, those before end (in
    // the span) and within reach, appended at out + n.all, and where Close,
    // those within the separation radius at closeOut + n.close; counts them
    // into n. Which lanes lie in the span: all of them (InSpan); or those
    // before end, the others read from the padding and left out
    // (PastEndLeftOut); or those before end, loaded alone (LoadedToEnd: a
    // masked load reads nothing past it).
    enum class Lanes { InSpan, PastEndLeftOut, LoadedToEnd };
    template <FloatLanes F, bool Wrap, bool Images, bool Close, Lanes L>
    [[gnu::always_inline]] static void appendWithinReach(std::uint32_t* out, std::uint32_t* closeOut, Counts& n,
                                                         const float* px, const float* py, std::uint32_t j,
                                                         std::uint32_t end, const Reach& r, const Radii& radii,
                                                         float width, float height) {
        const MaskOf<F> inSpan =
            L == Lanes::InSpan ? MaskOf<F>{} - 1 : iotaLanes<MaskOf<F>>() < static_cast<std::int32_t>(end - j);
        constexpr bool masked = L == Lanes::LoadedToEnd;
        const F cx = masked ? loadLanesWhere<F>(inSpan, px + j) : loadLanes<F>(px + j);
        const F cy = masked ? loadLanesWhere<F>(inSpan, py + j) : loadLanes<F>(py + j);
        const F x0 = splat<F>(r.x0), x1 = splat<F>(r.x1), y0 = splat<F>(r.y0), y1 = splat<F>(r.y1);
        const F w = splat<F>(width), h = splat<F>(height);
        // At least eight units in the last place of the size (ulp(size) is at most size * 2^-23).
        const F slackX = w * 0x1p-20f, slackY = h * 0x1p-20f;
        F gx, gy;
        if constexpr (Wrap && Images) {
            gx = wrappedGapTo(cx, x0, x1, w, slackX);
            gy = wrappedGapTo(cy, y0, y1, h, slackY);
        } else if constexpr (Wrap) {
            gx = wrappedGapClearOfSeams(cx, x0, x1, w, slackX);
            gy = wrappedGapClearOfSeams(cy, y0, y1, h, slackY);
        } else {
            gx = gapTo(cx, x0, x1);
            gy = gapTo(cy, y0, y1);
        }
        const F gap2 = rules::scanDot(gx, gy, gx, gy);
        n.all += appendSetLanes(out + n.all, j, inSpan & (gap2 < radii.reach2));
        if constexpr (Close) n.close += appendSetLanes(closeOut + n.close, j, inSpan & (gap2 < radii.separation2));
    }

    // Out of line (sim/neighbour_scan.cpp), in the generic build: the AVX2
    // kernel must not instantiate std::vector's growth (sim/fish_kernel_body.hpp).
    void grow(std::size_t size);

    // Where the lists start within a 4 KB page. The fill stores each list
    // while it loads the positions; where a list started within a few lines
    // of the x or the y positions' offset in their pages, the fill took 1.2
    // to 2.5 times as long (a micro-benchmark of the fill's loop, AMD Zen 5,
    // 2026-12-05), and article 000's step 3-4 % longer (a process whose heap
    // had put the close list at the x positions' offset, against one whose
    // heap had put it elsewhere; lock-step, the same build). So the lists
    // start at least kClearance bytes from both offsets (keepClearOf): where
    // they do not, their starts move within their storage, which has a page
    // of entries to spare, away from the offsets of the last few arrays they
    // were kept clear of (the step's two sets of positions take turns).
    static constexpr std::uint32_t kPageBytes = 4096;
    static constexpr std::uint32_t kClearance = 256;
    static constexpr std::size_t kSpareEntries = kPageBytes / sizeof(std::uint32_t);
    static std::uint32_t pageOffset(const void* p) {
        return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p) % kPageBytes);
    }
    // Whether offsets a and b lie at least kClearance apart, around the page.
    static bool apart(std::uint32_t a, std::uint32_t b) {
        const std::uint32_t d = (a - b) % kPageBytes;
        return d >= kClearance && d <= kPageBytes - kClearance;
    }
    // Lists not allocated yet are clear of anything (grow places them).
    bool clearOf(const float* p) const {
        if (room_ == 0) return true;
        const std::uint32_t at = pageOffset(p);
        return apart(at, pageOffset(list_.data() + listShift_)) && apart(at, pageOffset(close_.data() + closeShift_));
    }
    // Out of line (sim/neighbour_scan.cpp), like grow.
    void placeClearOf(const float* px, const float* py);
    void place();  // the starts clear of every offset remembered

    // Room past the list's end for the lanes of one last append.
    static constexpr std::size_t kRoom = 2 * kLanes;
    std::vector<std::uint32_t> list_, close_;  // of the same size: room_ + kSpareEntries
    std::size_t room_ = 0;
    std::size_t listShift_ = 0, closeShift_ = 0;  // entries from the storage's start to the list's
    // The page offsets of the arrays the lists were last placed clear of: a
    // ring, each new offset in the oldest's place once full.
    static constexpr std::size_t kRemembered = 4;
    std::uint32_t remembered_[kRemembered] = {};
    std::size_t rememberedCount_ = 0, nextRemembered_ = 0;
};

NearbyList& threadNearbyList();

// Whether the separation's pass of its own over a close list of this
// length, side by side with the pass over all the candidates without it
// (scanListsApart), costs less than one pass with everything: where fewer
// than half of the candidates are close. On warm lists (mirofish_scan_bench,
// AMD Zen 5, 2026-12-05, GCC 12 build) a candidate of each list side by side
// takes about as long as one candidate of the single pass (2.3-2.5 ns
// against 2.2-2.5), and a candidate of the pass without the separation alone
// 1.4-1.6; the clang 14 build, in a slower hour: 2.9-3.2 against 3.0-3.3,
// and 1.9-2.1. (The Intel Xeon's figures this bound was first weighed with
// came from that bench before it was mended: its loop then stored the sums
// to memory after every candidate.) In article 000's school on the Intel
// Xeon (lock-step against one pass for every group, 1 thread) this bound
// took 0.966 of the time; a third 0.975, two thirds 0.992, and every group
// apart 1.012. On the Zen 5 (clang build, against this bound): three
// quarters 0.956, 1.000 and 1.000 from step 7407 and 1.002 from step 1500;
// every group with a candidate not close apart 0.992 and 1.003.
inline bool separateCloseList(std::size_t all, std::size_t close) { return 2 * close < all; }

// The scan of the spans around the fish of the lanes of m, lanes over fish,
// through the list of those within reach. Returns how many candidates it
// examined (per fish). Images: whether the scan measures to the nearest
// image (UniformGrid::needsNearestImage); the list is the same either way.
// Apart: the separation in a pass of its own where the close list is short
// (Pass, separateCloseList); the sums are the same either way.
template <bool Wrap, bool Images = Wrap, bool Apart = false, typename F>
[[gnu::always_inline]] inline std::size_t scanWithinReach(LanesOf<F>& L, const ScanSharedOf<F>& s,
                                                          const ScanFishOf<F>& f, MaskOf<F> m,
                                                          const UniformGrid::Spans& spans, NearbyList& nearby) {
    static_assert(Wrap || !Images, "only a wrapping world has images");
    const Reach reach = reachOf(f, m);
    if constexpr (Apart) {
        const NearbyList::Lists lists =
            nearby.fillWithClose<Wrap, Images>(s.px, s.py, spans, reach, s.width[0], s.height[0], s.separationRadius2[0]);
        if (separateCloseList(lists.all.size(), lists.close.size())) {
            scanListsApart<Images>(L, s, f, lists.all, lists.close);
        } else {
            scanList<Images>(L, s, f, lists.all);
        }
        return lists.all.size();
    }
    const std::span<const std::uint32_t> list = nearby.fill<Wrap, Images>(s.px, s.py, spans, reach, s.width[0], s.height[0]);
    scanList<Images>(L, s, f, list);
    return list.size();
}

}  // namespace mirofish::scan
