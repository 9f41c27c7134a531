#pragma once
// Onsets by spectral flux: the rise in dB of each bin since the previous
// frame (each bin clamped at the floor, so noise below it never counts),
// averaged with weights proportional to 1/frequency so that every octave
// counts equally (otherwise the hundreds of bins above 2 kHz drown a kick,
// which moves only a handful of bins below 150 Hz),
// against an adaptive threshold: mean + k * standard deviation of the last
// second's flux, plus a minimum. At most one onset per minimum interval.
// Working in dB makes the flux independent of the gain: a quiet copy of a
// track has the same onsets as a loud one, as long as it stays above the floor.
#include <cstddef>
#include <span>
#include <vector>

namespace mirofish {

struct OnsetConfig {
    double frameRate = 60;
    float floorDb = -80;
    float thresholdK = 2.0f;           // deviations above the recent mean
    float minFlux = 0.1f;              // dB (weighted mean rise); silence and steady tones stay below
    double minIntervalSeconds = 0.1;   // refractory time after an onset
    double historySeconds = 1.0;       // the adaptive threshold's memory
};

class OnsetDetector {
public:
    OnsetDetector() = default;
    // Bins [firstBin, endBin) of the power spectra that update() receives.
    OnsetDetector(const OnsetConfig& config, std::size_t firstBin, std::size_t endBin, std::size_t lowEndBin = 0);

    void reset();
    // One frame's power spectrum; returns whether this frame is an onset.
    bool update(std::span<const float> power);
    float flux() const { return flux_; }            // this frame's flux
    // The part of this frame's flux below 150 Hz (kick and bass), same weights.
    float lowFlux() const { return lowFlux_; }
    float threshold() const { return threshold_; }  // what it had to exceed

private:
    OnsetConfig config_;
    std::size_t firstBin_ = 0, endBin_ = 0;
    std::size_t lowEnd_ = 0;                       // bins below 150 Hz end here
    std::size_t minInterval_ = 1;                  // frames
    std::vector<float> previousDb_;
    std::vector<float> weight_;                    // per bin, 1/k, summing to 1
    std::vector<float> history_;                   // ring of recent flux values
    std::size_t next_ = 0, filled_ = 0;
    std::size_t sinceOnset_ = 0;
    float lowFlux_ = 0;
    float flux_ = 0, previousFlux_ = 0, threshold_ = 0;
};

}  // namespace mirofish
