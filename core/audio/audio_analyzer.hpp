#pragma once
// The audio analysis: mono samples in, one AudioFeatures per analysis frame
// out. Qt-free and deterministic: the same samples and configuration give
// bit-identical frames. Per frame: a Hann-windowed FFT of the window ending
// at the frame's time, the named and log-spaced bands in dB (mean power per
// bin), attack/release smoothing, an automatic gain, spectral-flux
// onsets and a tempo with confidence and beat phase.
//
// Automatic gain: one reference per group of bands (named, log-spaced), the
// loudest smoothed band level of the last gainWindowSeconds
// (LoudnessReference); a band reads 1 at the reference and 0 rangeDb below
// it. Before the comparison each band's level is tilted by tiltDbPerOctave
// around 1 kHz: a band's mean power per bin falls 3 dB per octave for pink
// noise (typical music) and for a sine of fixed level, because higher bands
// hold more bins; +3 dB/octave lets every band of ordinary music use the
// whole range without lifting any band on its own (a per-band gain would
// turn leakage and faint noise in an empty band into a full-scale signal).
// Nothing at or below floorDb ever reads above 0, so silence and empty bands
// stay dark. The overall level has its own reference. A quiet and a loud copy
// of the same music therefore read alike once the reference has settled
// (within one gain window), down to the floor.
#include "audio/audio_features.hpp"
#include "audio/bands.hpp"

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace mirofish {

struct AudioAnalyzerConfig {
    double sampleRate = 48000;
    std::size_t fftSize = 2048;       // even; 2048 at 48 kHz: 23.4 Hz bins, a 43 ms window
    double frameRate = 60;            // analysis frames per second (the hop)
    std::size_t bands = kDefaultBands;  // log-spaced bands, 20 Hz - 16 kHz
    double attackSeconds = 0.01;      // smoothing of rising levels
    double releaseSeconds = 0.15;     // smoothing of falling levels
    double gainWindowSeconds = 4;     // how long the automatic gain remembers a loud moment
    // dB of a band's mean power per bin (a full-scale sine's bins sum to 0 dB).
    // -80 keeps a -30 dBFS track's top octave above the floor, while 16-bit
    // noise (about -125 dB per bin) and an idle input stay below it.
    float floorDb = -80;
    float rangeDb = 30;               // dB below the reference that still reads above 0
    float minSpanDb = 24;             // the reference never sits below floor + minSpan
    float tiltDbPerOctave = 3;        // see the header comment; 0 compares bands' raw dB
    float onsetThresholdK = 2.0f;     // OnsetConfig::thresholdK
    float onsetMinFlux = 0.1f;        // OnsetConfig::minFlux, dB (weighted mean rise per bin)
    double onsetMinIntervalSeconds = 0.1;
    double tempoWindowSeconds = 8;
    double minBpm = 60, maxBpm = 200;
};

// The configuration for audio at `sampleRate` (a live input's own rate):
// the FFT scaled to the power of two nearest 2048 x rate / 48 kHz, so that
// its bins stay about 23 Hz wide and its window about 43 ms long, and the
// bands read the same as a file's at 48 kHz. With 2048 points at 192 kHz a
// bin was 94 Hz wide, and the two lowest bands both read it.
AudioAnalyzerConfig analyzerConfigFor(double sampleRate);

class AudioAnalyzer {
public:
    // Throws std::invalid_argument for a configuration it cannot use.
    explicit AudioAnalyzer(const AudioAnalyzerConfig& config = {});
    ~AudioAnalyzer();
    AudioAnalyzer(AudioAnalyzer&&) noexcept;
    AudioAnalyzer& operator=(AudioAnalyzer&&) noexcept;

    const AudioAnalyzerConfig& config() const;
    // The log-spaced bands' edges, low to high (for meter labels).
    std::span<const BandRange> bandRanges() const;

    // Forgets all running state (smoothing, gain, onsets, tempo).
    void reset();

    // Offline, deterministic: analyses the windowSamples() samples ending
    // (exclusive) at sample round(frameIndex * sampleRate / frameRate) of the
    // whole track `monoSamples` (zeros before its start and after its end):
    // the fftSize of the window, after the pre-roll its DC blocker runs over
    // (AudioAnalyzer.cpp). Call it for
    // consecutive frames; a frame that does not follow the previous call's
    // starts afresh, as after reset() (a seek). Below 60 frames per second,
    // or where a frame's hop is longer than the FFT window (sample rates of
    // 176.4 kHz and up at 60 frames per second), a frame is the last of
    // several sub-frames analysed at a multiple of its rate, its onset any of
    // theirs, so that no audio between two frames goes unheard.
    AudioFeatures analyzeFrame(std::span<const float> monoSamples, std::size_t frameIndex);
    // How many sub-frames make a frame (1 at 60 frames per second and 48 kHz).
    std::size_t subFrames() const;

    // The samples one window reads: fftSize and the pre-roll before it.
    std::size_t windowSamples() const;

    // Live: the newest samples, the last one being "now" (a shorter span
    // follows silence, a longer one uses its last windowSamples()); each
    // call is the next sub-frame, 1/(frameRate * subFrames()) after the
    // previous one. `time` is copied to the result.
    AudioFeatures analyzeWindow(std::span<const float> newestSamples, double time);

    // Resets, then analyses frames 0 .. frameCount(mono.size(), ...) - 1 of a
    // whole track at `frameRate` (which replaces the configured one).
    std::vector<AudioFeatures> analyzeAll(std::span<const float> mono, double frameRate);

    // The frames whose window ends within the track: k = 0 .. floor(samples * frameRate / sampleRate).
    static std::size_t frameCount(std::size_t sampleCount, double sampleRate, double frameRate);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The first frames of a track that loops, as heard from its second lap on:
// analysed after the end of the lap before (the loop's last seconds), so
// that the tempo, the gain, the smoothing and the onsets go on over the
// seam. Analysed alone, every lap started cold: "listening" for the tempo
// and no beat phase for 2.5 s, and an onset at its first frame even inside
// a held note. Frame k is the track's frame k (time k / frameRate); they
// cover the longer of the tempo and gain windows, or the whole of a shorter
// track. Empty for a track without samples.
std::vector<AudioFeatures> analyzeLapStart(const AudioAnalyzerConfig& config, std::span<const float> mono);

}  // namespace mirofish
