#pragma once
// The two halves of the automatic gain, per level over time: attack/release
// smoothing (LevelSmoother), and the music's loud level over the last few
// seconds (LoudnessReference), which the gain maps to 1. Allocation-free
// after construction.
#include <cstddef>
#include <vector>

namespace mirofish {

// One-pole smoothing in dB with separate time constants for rising and
// falling levels.
class LevelSmoother {
public:
    LevelSmoother() = default;
    LevelSmoother(double frameRate, double attackSeconds, double releaseSeconds, float silenceDb = -120.0f);
    void reset() { value_ = silenceDb_; }
    float update(float db);  // returns the smoothed level
    float value() const { return value_; }

private:
    float attack_ = 1, release_ = 1, silenceDb_ = -120, value_ = -120;
};

// The loudest level of the last window: it rises at once (so the levels it
// is measured from never exceed it) and, when a loud passage leaves the
// window, glides down over a quarter of the window rather than jumping.
class LoudnessReference {
public:
    LoudnessReference() = default;
    LoudnessReference(double frameRate, double windowSeconds, float silenceDb = -120.0f);
    void reset();
    float update(float db);  // returns the reference
    float value() const { return value_; }

private:
    std::vector<float> history_;  // ring, one window
    std::size_t next_ = 0;
    float glide_ = 1, silenceDb_ = -120, value_ = -120;
};

// How dB becomes 0..1 under the automatic gain.
struct GainMapping {
    float floorDb = -80;    // absolute: at or below reads 0 whatever the gain
    float rangeDb = 30;     // the reference reads 1, reference - range reads 0
    float minSpanDb = 24;   // the reference never sits lower than floor + minSpan,
                            // so near-silence is not stretched to full scale
};

// 0 at or below the floor (`db`); otherwise `weightedDb` (the same level,
// possibly tilt-weighted like the reference) linear in dB between
// max(reference - range, floor) and max(reference, floor + minSpan), clamped to 0..1.
float normaliseDb(float db, float weightedDb, float referenceDb, const GainMapping& mapping);
// The same level in dB relative to the gain's reference (0 = as loud as this
// music has been lately, negative below); at or under the floor: -120. The
// modulation's log curve reads this, so quiet and loud tracks move routes alike.
float gainRelativeDb(float db, float weightedDb, float referenceDb, const GainMapping& m);

}  // namespace mirofish
