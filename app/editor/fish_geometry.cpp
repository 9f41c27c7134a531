#include "fish_geometry.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "trail_frame.hpp"

namespace mirofish::editor {

namespace {
struct Rgb {
    float r, g, b;
};

Rgb mix(Rgb a, Rgb b, float t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }

// Slow deep blue, cruising cyan, fast near-white.
Rgb speedColour(float t) {
    constexpr Rgb slow{0.16f, 0.32f, 0.78f}, mid{0.25f, 0.78f, 0.90f}, fast{0.93f, 0.98f, 1.0f};
    t = std::clamp(t, 0.0f, 1.0f);
    return t < 0.6f ? mix(slow, mid, t / 0.6f) : mix(mid, fast, (t - 0.6f) / 0.4f);
}

// A hue per direction (HSV with saturation 0.65, value 1).
Rgb headingColour(float hx, float hy) {
    const float turns = (std::atan2(hy, hx) + std::numbers::pi_v<float>) / (2.0f * std::numbers::pi_v<float>);
    const float h = turns * 6.0f;
    const float x = 1.0f - std::abs(std::fmod(h, 2.0f) - 1.0f);
    const float s = 0.65f;
    Rgb c{};
    switch (static_cast<int>(h) % 6) {
    case 0: c = {1, x, 0}; break;
    case 1: c = {x, 1, 0}; break;
    case 2: c = {0, 1, x}; break;
    case 3: c = {0, x, 1}; break;
    case 4: c = {x, 0, 1}; break;
    default: c = {1, 0, x}; break;
    }
    return {1 - s + s * c.r, 1 - s + s * c.g, 1 - s + s * c.b};
}

// Six colours of a reef school, chosen by a hash of the fish's id.
Rgb paletteColour(std::uint32_t id) {
    static constexpr std::array<Rgb, 6> kPalette{{{0.98f, 0.78f, 0.30f},
                                                  {0.36f, 0.80f, 0.95f},
                                                  {0.95f, 0.45f, 0.40f},
                                                  {0.55f, 0.90f, 0.55f},
                                                  {0.85f, 0.62f, 0.95f},
                                                  {0.95f, 0.95f, 0.92f}}};
    return kPalette[(id * 2654435761u >> 16) % kPalette.size()];
}

// Ember: dark red, orange, yellow-white.
Rgb gradientColour(float t) {
    constexpr Rgb cold{0.55f, 0.08f, 0.10f}, warm{1.0f, 0.45f, 0.08f}, hot{1.0f, 0.93f, 0.62f};
    t = std::clamp(t, 0.0f, 1.0f);
    return t < 0.5f ? mix(cold, warm, t / 0.5f) : mix(warm, hot, (t - 0.5f) / 0.5f);
}

// Fresh strokes of the age palette; the fade turns them blue (TrailFrame).
constexpr Rgb kFreshStroke{1.0f, 0.96f, 0.88f};

constexpr Rgb kAlarmed{1.0f, 0.45f, 0.25f};

unsigned char byte(float v) { return static_cast<unsigned char>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); }
}  // namespace

ViewTransform ViewTransform::fit(float viewWidth, float viewHeight, float worldWidth, float worldHeight, float border) {
    ViewTransform t;
    const float w = worldWidth + 2 * border, h = worldHeight + 2 * border;
    if (w <= 0 || h <= 0 || viewWidth <= 0 || viewHeight <= 0) return t;
    t.scale = std::min(viewWidth / w, viewHeight / h);
    t.offsetX = 0.5f * (viewWidth - t.scale * worldWidth);
    t.offsetY = 0.5f * (viewHeight - t.scale * worldHeight);
    return t;
}

namespace {
// A fish is never drawn smaller than this many pixels, or it vanishes when zoomed out.
constexpr float kMinPixels = 2.5f;

// A trail frame's light is laid down where each fish is when the frame is
// drawn: at 24 fps (a film's rate) a cruising fish moved most of a body
// length between two of them, and its stroke was a row of dashes, bright
// where two stamps overlapped. A fish that moved more than half its drawn
// length is stamped as many times along the way it swam, each with its share
// of the light; at 60 fps in the window that is once, as before. Beyond 8
// stamps (a fish of 2 px swimming 1500 px/s at 24 fps needs 63) each stamp
// is drawn longer instead, so that they still overlap: capped at their
// length, they left a row of dashes again.
constexpr int kMaxStamps = 8;

// What every fish of a frame is drawn with.
struct FishStyle {
    FishStyle(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds)
        : baseLength(frame.params.get(ParamId::FishLength)),
          stretch(frame.params.get(ParamId::SpeedStretch)),
          width(frame.params.get(ParamId::FishWidth) * baseLength * view.scale),
          mode(static_cast<int>(frame.params.get(ParamId::ColorMode))),
          trails(frame.params.get(ParamId::Trails) >= 0.5f),
          palette(static_cast<TrailPalette>(static_cast<int>(frame.params.get(ParamId::TrailPalette)))),
          topSpeed(std::max(frame.params.get(ParamId::MaxSpeed) * (1.0f + frame.params.get(ParamId::Variation)), 1e-3f)),
          strokeSeconds(trails ? strokeSeconds : 0.0f),
          scale(view.scale) {}
    float baseLength, stretch, width;
    int mode;
    // Trails: strokes of light, added to the canvas (alpha 0 under
    // premultiplied blending adds the colour); the view's opacity sets how much.
    bool trails;
    TrailPalette palette;
    float topSpeed;
    float strokeSeconds;  // 0 without trails: one stamp
    float scale;

    float lengthPixels(float speed) const { return std::max((baseLength + stretch * speed) * scale, kMinPixels); }
    // The world px fish i swam back along its heading in the trail frame,
    // and the stamps laid along them.
    float swum(const FrameSnapshot& frame, std::size_t i) const { return frame.speed[i] * strokeSeconds; }
    int stamps(const FrameSnapshot& frame, std::size_t i) const {
        const float apart = 0.5f * lengthPixels(frame.speed[i]);
        const float n = std::ceil(swum(frame, i) * scale / apart);
        return n > 1.0f ? static_cast<int>(std::min(n, static_cast<float>(kMaxStamps))) : 1;
    }
    // A stamp's drawn length, of `n` stamps (stamps()): its fish's, or twice the way
    // between two stamps where their number is capped (they overlap as uncapped ones do).
    float stampLengthPixels(const FrameSnapshot& frame, std::size_t i, int n) const {
        const float between = swum(frame, i) * scale / static_cast<float>(n);
        return std::max(lengthPixels(frame.speed[i]), 2.0f * between);
    }
};

// Fish i's triangle, drawn `dx`, `dy` world px from where it is.
void writeFish(const FrameSnapshot& frame, const ViewTransform& view, const FishStyle& style, std::size_t i, float dx,
               float dy, QSGGeometry::ColoredPoint2D* v) {
    const float hx = frame.hx[i], hy = frame.hy[i];
    const int stamps = style.stamps(frame, i);
    const float len = style.stampLengthPixels(frame, i, stamps);
    const float halfW = 0.5f * std::max(style.width, kMinPixels * 0.5f);
    const QPointF c = view.toView(frame.px[i] + dx, frame.py[i] + dy);
    const float cx = static_cast<float>(c.x()), cy = static_cast<float>(c.y());
    // Nose 60 % of the length ahead of the position, tail 40 % behind.
    const float noseX = cx + hx * 0.6f * len, noseY = cy + hy * 0.6f * len;
    const float tailX = cx - hx * 0.4f * len, tailY = cy - hy * 0.4f * len;
    const float nx = -hy * halfW, ny = hx * halfW;

    const float speedShare = frame.speed[i] / style.topSpeed;
    Rgb col;
    if (style.trails) {
        col = style.palette == TrailPalette::Heading    ? headingColour(hx, hy)
              : style.palette == TrailPalette::Age      ? kFreshStroke
              : style.palette == TrailPalette::Gradient ? gradientColour(speedShare)
                                                        : speedColour(speedShare);
    } else {
        col = style.mode == 1   ? headingColour(hx, hy)
              : style.mode == 2 ? paletteColour(frame.id[i])
                                : speedColour(speedShare);
    }
    if (frame.alarmed[i]) col = mix(col, kAlarmed, 0.7f);
    if (style.trails) {
        // Each stamp its share of the fish's light, and a stamp drawn longer
        // (capped stamps) spreads it thinner: all of them together lay down
        // one fish's light whatever the frame rate (longer at 24 fps, they
        // were five times as bright as at 120).
        const float share = style.lengthPixels(frame.speed[i]) / len / static_cast<float>(stamps);
        col = {col.r * share, col.g * share, col.b * share};
    }
    const unsigned char r = byte(col.r), g = byte(col.g), b = byte(col.b), a = style.trails ? 0 : 255;
    v[0].set(noseX, noseY, r, g, b, a);
    v[1].set(tailX + nx, tailY + ny, r, g, b, a);
    v[2].set(tailX - nx, tailY - ny, r, g, b, a);
}
}  // namespace

void writeFishTriangles(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds, std::size_t first,
                        std::size_t last, QSGGeometry::ColoredPoint2D* out) {
    const FishStyle style(frame, view, strokeSeconds);
    for (std::size_t i = first; i < last; ++i) writeFish(frame, view, style, i, 0, 0, out + (i - first) * kVerticesPerFish);
}

namespace {
// In a wrapping world, fish i drawn `dx`, `dy` from where it is (itself, or
// one of its trail stamps) shows again at each place where its body reaches
// past an edge: those places, less (dx, dy) itself, go to `out`.
void addWrappedPlaces(const FrameSnapshot& frame, const ViewTransform& view, const FishStyle& style, std::size_t i,
                      float dx, float dy, bool withItself, std::vector<SeamCopy>& out) {
    // The whole body's length (a stamp's) reaches past an edge at most (nose 60 %, tail 40 %).
    const float reach = style.stampLengthPixels(frame, i, style.stamps(frame, i)) / std::max(view.scale, 1e-6f);
    forEachWrappedPlace(Vec2{{frame.px[i] + dx, frame.py[i] + dy}}, reach, frame.worldWidth, frame.worldHeight,
                        [&](float ox, float oy) {
                            if (withItself || ox != 0.0f || oy != 0.0f)
                                out.push_back({static_cast<std::uint32_t>(i), dx + ox, dy + oy});
                        });
}
}  // namespace

void findSeamCopies(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds,
                    std::vector<SeamCopy>& out) {
    out.clear();
    if (frame.params.boundaryMode() != BoundaryMode::Wrap) return;
    const FishStyle style(frame, view, strokeSeconds);
    for (std::size_t i = 0; i < frame.count(); ++i) addWrappedPlaces(frame, view, style, i, 0.0f, 0.0f, false, out);
}

void addTrailStamps(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds,
                    std::vector<SeamCopy>& out) {
    const FishStyle style(frame, view, strokeSeconds);
    if (!(style.strokeSeconds > 0.0f)) return;
    const bool wrap = frame.params.boundaryMode() == BoundaryMode::Wrap;
    for (std::size_t i = 0; i < frame.count(); ++i) {
        const int n = style.stamps(frame, i);
        const float back = style.swum(frame, i) / static_cast<float>(n);
        const float mx = frame.mx[i], my = frame.my[i];
        // A stamp across a wrapping world's seam shows on the other side too,
        // where the fish swam before it crossed.
        for (int j = 1; j < n; ++j) {
            const float dx = -mx * back * static_cast<float>(j), dy = -my * back * static_cast<float>(j);
            if (wrap) addWrappedPlaces(frame, view, style, i, dx, dy, true, out);
            else out.push_back({static_cast<std::uint32_t>(i), dx, dy});
        }
    }
}

void writeSeamCopies(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds,
                     const std::vector<SeamCopy>& copies, std::size_t first, std::size_t last,
                     QSGGeometry::ColoredPoint2D* out) {
    const FishStyle style(frame, view, strokeSeconds);
    for (std::size_t k = first; k < last; ++k)
        writeFish(frame, view, style, copies[k].index, copies[k].dx, copies[k].dy, out + (k - first) * kVerticesPerFish);
}

}  // namespace mirofish::editor
