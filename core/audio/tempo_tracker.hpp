#pragma once
// Tempo and beat phase from the onset-strength envelope (the spectral flux,
// one value per analysis frame).
//
// Tempo: the envelope of the last window (default 8 s) is lightly smoothed,
// its running median over 2 s taken away, and its autocorrelation taken. Every candidate tempo from
// minBpm to maxBpm (0.5 BPM steps, refined by a parabola through the best
// three) is scored by the mean normalised autocorrelation at its first four
// beat periods (a comb: a true tempo repeats at every multiple, which also
// gives sub-frame resolution), weighted by a broad log-Gaussian preference
// around 120 BPM that settles the octave (60 vs 120 BPM) the way listeners do.
// The tempo chosen is then refined from the autocorrelation's peaks near
// every multiple of its beat (refinedBpm): the grid and its parabola alone
// left up to 1.25 BPM where a beat is no whole number of frames.
// The confidence is that mean autocorrelation (1 for a perfectly periodic
// envelope, about 0 for noise or silence); below minConfidence the tempo is
// reported as unknown (0), and once known, below keepConfidence.
//
// The octave is then checked against the double tempo: when that one's comb
// is nearly as strong, each beat has an event halfway as strong as itself,
// and the double is read, unless the low band (kick, bass) repeats at the
// slower tempo alone: a groove at 90 BPM with its hats on the off-beats has
// an onset as strong halfway through each beat, but its kick only on the beat.
//
// Beat phase: the offset that lines a comb of beats at the tempo up with
// the most beat strength over the window; 0 on the beat, rising to 1. The
// beat strength is the onset strength with its low-frequency part (kick,
// bass) counted extra, so a dance track's phase follows the kick rather
// than the off-beat hats.
#include <cstddef>
#include <vector>

namespace mirofish {

struct TempoConfig {
    double frameRate = 60;
    double windowSeconds = 8;
    double minBpm = 60, maxBpm = 200;
    float minConfidence = 0.2f;
    // Once known, the tempo stays known until the confidence falls below
    // this: a steady kick under busy random hits (confidence 0.10-0.38) read
    // 120 BPM and unknown by turns, 21 times in 30 s, and a beatPhase route
    // dropped to its minimum at each. Random hits alone read 0.03-0.20 (mean
    // 0.08-0.11) and fall below it within 6 s (4 draws of 40 s measured).
    float keepConfidence = 0.1f;
    // An envelope whose standard deviation is below this is flat: a steady
    // tone's spectral flux is rounding noise (about 1e-5 to 1e-3 dB against
    // 2-3 dB for a click track or music), which the normalised
    // autocorrelation would blow up into any tempo (120 BPM, the prior's
    // peak, at up to 98 % confidence); a held chord's partials beat against
    // one another and wobble it by 0.02-0.1 dB (an A major triad read 171
    // BPM at 85 %, a detuned saw pad 80 BPM). A 60 Hz kick 27 dB under such
    // a chord still reads its tempo. In the onset strength's units (dB).
    float minDeviation = 0.2f;
    double minHistorySeconds = 2.5;  // no estimate before this much envelope
    double updateHz = 15;            // tempo re-estimates per second (phase: every frame)
};

class TempoTracker {
public:
    TempoTracker() = default;
    explicit TempoTracker(const TempoConfig& config);

    void reset();
    // One frame: the onset strength and its low-frequency part (kick, bass),
    // which counts four times towards the beat strength.
    void update(float onsetStrength, float lowStrength = 0);

    float bpm() const { return known_ ? bpm_ : 0.0f; }
    float rawBpm() const { return bpm_; }  // the best candidate, however unsure
    float confidence() const { return confidence_; }
    float beatPhase() const { return bpm() > 0 ? phase_ : 0.0f; }

private:
    void smoothInto(const std::vector<float>& ring, std::size_t start, std::size_t n, std::vector<double>& out);
    void estimateTempo();
    void estimatePhase();
    bool lowBandAlsoHalfway(double bpm) const;
    double refinedBpm(double bpm, std::size_t lagLimit) const;

    TempoConfig config_;
    std::vector<float> ring_;             // onset strength, one window
    std::vector<float> beatRing_;         // beat strength, same frames
    std::vector<float> lowRing_;          // the onset strength's low band, same frames
    std::size_t next_ = 0, filled_ = 0, sinceEstimate_ = 0, estimateEvery_ = 1;
    std::vector<double> linear_, smooth_, trendFree_, window_, beat_, low_, acf_;  // scratch, sized once
    std::vector<double> scores_, combs_, prior_;  // per candidate tempo
    float bpm_ = 0, confidence_ = 0, phase_ = 0;
    bool known_ = false;  // the confidence reached minConfidence and has kept above keepConfidence
};

}  // namespace mirofish
