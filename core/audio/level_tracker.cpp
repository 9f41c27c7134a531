#include "audio/level_tracker.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish {

namespace {
// Per-frame coefficient of a one-pole filter with time constant tau.
float onePole(double frameRate, double tau) {
    if (!(tau > 0)) return 1.0f;
    return static_cast<float>(1.0 - std::exp(-1.0 / (frameRate * tau)));
}
}  // namespace

LevelSmoother::LevelSmoother(double frameRate, double attackSeconds, double releaseSeconds, float silenceDb)
    : attack_(onePole(frameRate, attackSeconds)),
      release_(onePole(frameRate, releaseSeconds)),
      silenceDb_(silenceDb),
      value_(silenceDb) {}

float LevelSmoother::update(float db) {
    value_ += (db - value_) * (db > value_ ? attack_ : release_);
    return value_;
}

LoudnessReference::LoudnessReference(double frameRate, double windowSeconds, float silenceDb)
    : history_(std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(windowSeconds * frameRate)))),
      glide_(onePole(frameRate, windowSeconds / 4)),
      silenceDb_(silenceDb) {
    reset();
}

void LoudnessReference::reset() {
    std::fill(history_.begin(), history_.end(), silenceDb_);
    next_ = 0;
    value_ = silenceDb_;
}

float LoudnessReference::update(float db) {
    history_[next_] = db;
    next_ = next_ + 1 == history_.size() ? 0 : next_ + 1;
    const float windowMax = *std::max_element(history_.begin(), history_.end());
    if (windowMax >= value_) value_ = windowMax;
    else value_ += (windowMax - value_) * glide_;
    return value_;
}

float normaliseDb(float db, float weightedDb, float referenceDb, const GainMapping& m) {
    if (!(db > m.floorDb)) return 0.0f;
    const float top = std::max(referenceDb, m.floorDb + m.minSpanDb);
    const float bottom = std::max(top - m.rangeDb, m.floorDb);
    return std::clamp((weightedDb - bottom) / (top - bottom), 0.0f, 1.0f);
}

float gainRelativeDb(float db, float weightedDb, float referenceDb, const GainMapping& m) {
    if (!(db > m.floorDb)) return -120.0f;
    const float top = std::max(referenceDb, m.floorDb + m.minSpanDb);
    return std::clamp(weightedDb - top, -120.0f, 0.0f);
}

}  // namespace mirofish
