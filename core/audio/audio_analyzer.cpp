#include "audio/audio_analyzer.hpp"

#include "audio/dc_blocker.hpp"
#include "audio/level_tracker.hpp"
#include "audio/onset_detector.hpp"
#include "audio/spectrum.hpp"
#include "audio/tempo_tracker.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mirofish {

namespace {

void validate(const AudioAnalyzerConfig& c) {
    auto positive = [](double v) { return v > 0 && std::isfinite(v); };
    if (!positive(c.sampleRate) || !positive(c.frameRate) || !positive(c.gainWindowSeconds) ||
        !positive(c.tempoWindowSeconds) || !positive(c.rangeDb) || c.bands == 0 || c.bands > 1024 ||
        !(c.attackSeconds >= 0) || !(c.releaseSeconds >= 0) || !(c.minSpanDb > 0) ||
        !std::isfinite(c.tiltDbPerOctave) || !(c.onsetMinIntervalSeconds >= 0) || !std::isfinite(c.floorDb) ||
        !(c.minBpm > 0) || !(c.maxBpm > c.minBpm))
        throw std::invalid_argument("audio analyzer: invalid configuration");
    if (c.frameRate > c.sampleRate) throw std::invalid_argument("audio analyzer: frame rate above the sample rate");
}

// Frames further apart than the FFT window would leave the audio between
// two windows unanalysed (at 10 frames per second a click there was no
// onset), and the onset detector's adaptive threshold is tuned at the
// simulation's 60 frames per second (at 12 and 24 it missed a click in
// twenty). A slower frame is therefore the last of as many sub-frames,
// analysed at that many times its rate, as make at least 60 a second and
// close the gaps; an onset in any of them is the frame's.
constexpr double kMinAnalysisRate = 60;

// A DC offset (a cheap recorder, an 8-bit file's silence written as 0x7F, an
// idle sound card) is no sound, but the window turns it into power at 23 Hz,
// which the low band and the level would read as bass; and under a fading
// note it beats against the note in the lowest bins, which read as onsets.
// A window's own mean is no measure of it (a kick's first cycles have one),
// so every window is high-passed at kDcCutoffHz (a 55 Hz bass note loses
// 0.14 dB) over kDcPreRollSeconds of the samples before it as well: those
// leave the filter as it would be had it run over the whole track (to
// e^-15.7), so a frame reads the same analysed in order, after a seek, or live.
constexpr double kDcCutoffHz = 10;
constexpr double kDcPreRollSeconds = 0.25;

std::size_t subFramesPerFrame(const AudioAnalyzerConfig& c) {
    const double hop = c.sampleRate / c.frameRate;
    const double needed = std::max(kMinAnalysisRate / c.frameRate, hop / static_cast<double>(c.fftSize));
    return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(needed - 1e-9)));
}

// dB added to a band's level before the gain compares it: tilt per octave
// of the band's geometric centre above 1 kHz.
std::vector<float> tilts(std::span<const BandRange> bands, double dbPerOctave) {
    std::vector<float> t;
    for (const BandRange& b : bands)
        t.push_back(static_cast<float>(dbPerOctave * std::log2(std::sqrt(b.lowHz * b.highHz) / 1000.0)));
    return t;
}

// A group of bands under one automatic gain.
struct BandGroup {
    BandBins bins;
    std::vector<float> tilt;
    std::vector<LevelSmoother> smoothers;
    LoudnessReference reference;
    std::vector<float> raw;

    BandGroup(std::span<const BandRange> bands, const AudioAnalyzerConfig& c)
        : bins(bands, c.fftSize, c.sampleRate),
          tilt(tilts(bands, c.tiltDbPerOctave)),
          smoothers(bands.size(), LevelSmoother(c.frameRate, c.attackSeconds, c.releaseSeconds)),
          reference(c.frameRate, c.gainWindowSeconds),
          raw(bands.size()) {}

    void reset() {
        for (LevelSmoother& s : smoothers) s.reset();
        reference.reset();
    }

    void update(std::span<const float> power, const GainMapping& mapping, std::span<float> db, std::span<float> norm,
                std::span<float> relative) {
        bins.meanDb(power, raw);
        float loudest = -1e30f;
        for (std::size_t i = 0; i < smoothers.size(); ++i) {
            db[i] = smoothers[i].update(raw[i]);
            loudest = std::max(loudest, db[i] + tilt[i]);
        }
        const float ref = reference.update(loudest);
        for (std::size_t i = 0; i < smoothers.size(); ++i) {
            norm[i] = normaliseDb(db[i], db[i] + tilt[i], ref, mapping);
            relative[i] = gainRelativeDb(db[i], db[i] + tilt[i], ref, mapping);
        }
    }
};

}  // namespace

struct AudioAnalyzer::Impl {
    AudioAnalyzerConfig config;  // at the sub-frames' rate
    AudioAnalyzerConfig asked;   // at the frames' rate
    std::size_t subFrames = 1;   // per frame
    Spectrum spectrum;
    std::vector<BandRange> ranges;
    BandGroup named, bands;
    BandBins audibleBins;
    GainMapping mapping;
    LevelSmoother level;
    LoudnessReference levelReference;
    OnsetDetector onsets;
    TempoTracker tempo;
    std::size_t preRoll;  // samples before the window that the DC blocker runs over
    float dcPole;
    std::vector<float> window;    // the pre-roll and the window
    std::vector<float> filtered;  // the same, DC blocked
    std::size_t nextFrame = 0;
    bool started = false;

    explicit Impl(const AudioAnalyzerConfig& c)
        : config(c),
          spectrum(c.fftSize, c.sampleRate),
          ranges(logSpacedBands(c.bands)),
          named(kNamedBands, c),
          bands(ranges, c),
          audibleBins(std::span(&kAudibleRange, 1), c.fftSize, c.sampleRate),
          mapping{c.floorDb, c.rangeDb, c.minSpanDb},
          level(c.frameRate, c.attackSeconds, c.releaseSeconds),
          levelReference(c.frameRate, c.gainWindowSeconds),
          preRoll(static_cast<std::size_t>(std::ceil(kDcPreRollSeconds * c.sampleRate))),
          dcPole(dcBlockerPole(kDcCutoffHz, c.sampleRate)) {
        OnsetConfig oc;
        oc.frameRate = c.frameRate;
        oc.floorDb = c.floorDb;
        oc.thresholdK = c.onsetThresholdK;
        oc.minFlux = c.onsetMinFlux;
        oc.minIntervalSeconds = c.onsetMinIntervalSeconds;
        const BandBins low(std::span(&kNamedBands[0], 1), c.fftSize, c.sampleRate);
        onsets = OnsetDetector(oc, audibleBins.firstBin(0), audibleBins.endBin(0), low.endBin(0));
        TempoConfig tc;
        tc.frameRate = c.frameRate;
        tc.windowSeconds = c.tempoWindowSeconds;
        tc.minBpm = c.minBpm;
        tc.maxBpm = c.maxBpm;
        tempo = TempoTracker(tc);
        window.assign(c.fftSize + preRoll, 0.0f);
        filtered.reserve(window.size());
    }

    void reset() {
        named.reset();
        bands.reset();
        level.reset();
        levelReference.reset();
        onsets.reset();
        tempo.reset();
        started = false;
        nextFrame = 0;
    }

    // samples: the pre-roll and the window, at most window.size() of them,
    // not those before the track, which are silence.
    AudioFeatures analyze(std::span<const float> samples, double time) {
        filtered.resize(samples.size());
        blockDc(samples, filtered, dcPole);
        const std::span<const float> power = spectrum.compute(filtered);
        AudioFeatures f;
        f.time = time;

        named.update(power, mapping, f.namedDb, f.named, f.namedGainDb);
        f.bands.assign(bands.smoothers.size(), 0.0f);
        f.bandsDb.assign(bands.smoothers.size(), 0.0f);
        f.bandsGainDb.assign(bands.smoothers.size(), -120.0f);
        bands.update(power, mapping, f.bandsDb, f.bands, f.bandsGainDb);

        f.levelDb = level.update(powerToDb(audibleBins.sumPower(power, 0)));
        const float levelRef = levelReference.update(f.levelDb);
        f.level = normaliseDb(f.levelDb, f.levelDb, levelRef, mapping);
        f.levelGainDb = gainRelativeDb(f.levelDb, f.levelDb, levelRef, mapping);

        f.onset = onsets.update(power);
        tempo.update(onsets.flux(), onsets.lowFlux());
        f.bpm = tempo.bpm();
        f.tempoConfidence = tempo.confidence();
        f.beatPhase = tempo.beatPhase();
        return f;
    }
};

AudioAnalyzerConfig analyzerConfigFor(double sampleRate) {
    AudioAnalyzerConfig c;
    c.sampleRate = sampleRate;
    const double wanted = static_cast<double>(c.fftSize) * sampleRate / 48000.0;
    // log2 rounded: the power of two nearest in ratio; at least 256 points.
    const int exponent = std::max(8, static_cast<int>(std::lround(std::log2(std::max(wanted, 1.0)))));
    c.fftSize = std::size_t{1} << std::min(exponent, 16);
    return c;
}

AudioAnalyzer::AudioAnalyzer(const AudioAnalyzerConfig& config) {
    validate(config);
    const std::size_t subFrames = subFramesPerFrame(config);
    AudioAnalyzerConfig inner = config;
    inner.frameRate *= static_cast<double>(subFrames);
    impl_ = std::make_unique<Impl>(inner);
    impl_->asked = config;
    impl_->subFrames = subFrames;
}

AudioAnalyzer::~AudioAnalyzer() = default;
AudioAnalyzer::AudioAnalyzer(AudioAnalyzer&&) noexcept = default;
AudioAnalyzer& AudioAnalyzer::operator=(AudioAnalyzer&&) noexcept = default;

const AudioAnalyzerConfig& AudioAnalyzer::config() const { return impl_->asked; }
std::span<const BandRange> AudioAnalyzer::bandRanges() const { return impl_->ranges; }
void AudioAnalyzer::reset() { impl_->reset(); }
std::size_t AudioAnalyzer::subFrames() const { return impl_->subFrames; }

AudioFeatures AudioAnalyzer::analyzeFrame(std::span<const float> mono, std::size_t frameIndex) {
    Impl& d = *impl_;
    const bool follows = d.started && frameIndex == d.nextFrame;
    if (!follows) d.reset();
    d.started = true;
    d.nextFrame = frameIndex + 1;

    // The sub-frames since the previous frame (subFramesPerFrame); after a
    // seek, the frame's own.
    const std::size_t last = frameIndex * d.subFrames;
    const std::size_t first = follows && frameIndex > 0 ? last - d.subFrames + 1 : last;
    AudioFeatures f;
    bool onset = false;
    for (std::size_t j = first; j <= last; ++j) {
        const double endSample = std::round(static_cast<double>(j) * d.config.sampleRate / d.config.frameRate);
        const auto end = static_cast<long long>(endSample);
        const auto n = static_cast<long long>(d.window.size());
        const auto size = static_cast<long long>(mono.size());
        for (long long i = 0; i < n; ++i) {
            const long long s = end - n + i;
            d.window[static_cast<std::size_t>(i)] = s >= 0 && s < size ? mono[static_cast<std::size_t>(s)] : 0.0f;
        }
        const auto beforeTrack = static_cast<std::size_t>(std::clamp(n - end, 0LL, n));
        f = d.analyze(std::span(d.window).subspan(beforeTrack), endSample / d.config.sampleRate);
        onset = onset || f.onset;
    }
    f.onset = onset;
    return f;
}

AudioFeatures AudioAnalyzer::analyzeWindow(std::span<const float> newest, double time) {
    impl_->started = false;  // a later analyzeFrame starts afresh
    return impl_->analyze(newest.last(std::min(newest.size(), windowSamples())), time);
}

std::size_t AudioAnalyzer::windowSamples() const { return impl_->window.size(); }

std::size_t AudioAnalyzer::frameCount(std::size_t sampleCount, double sampleRate, double frameRate) {
    if (sampleCount == 0 || !(sampleRate > 0) || !(frameRate > 0)) return 0;
    return static_cast<std::size_t>(std::floor(static_cast<double>(sampleCount) * frameRate / sampleRate)) + 1;
}

std::vector<AudioFeatures> AudioAnalyzer::analyzeAll(std::span<const float> mono, double frameRate) {
    if (frameRate != impl_->asked.frameRate) {
        AudioAnalyzerConfig c = impl_->asked;
        c.frameRate = frameRate;
        *this = AudioAnalyzer(c);
    }
    impl_->reset();
    const std::size_t frames = frameCount(mono.size(), impl_->config.sampleRate, frameRate);
    std::vector<AudioFeatures> out;
    out.reserve(frames);
    for (std::size_t k = 0; k < frames; ++k) out.push_back(analyzeFrame(mono, k));
    return out;
}

std::vector<AudioFeatures> analyzeLapStart(const AudioAnalyzerConfig& config, std::span<const float> mono) {
    const std::size_t n = mono.size();
    if (n == 0) return {};
    const double seconds = std::max(config.tempoWindowSeconds, config.gainWindowSeconds);
    const double samplesPerFrame = config.sampleRate / config.frameRate;
    const auto leadFrames = static_cast<std::size_t>(std::ceil(seconds * config.frameRate));
    const std::size_t headFrames =
        std::min(AudioAnalyzer::frameCount(n, config.sampleRate, config.frameRate), leadFrames);
    // The loop's last `seconds` (the track over again where it is shorter),
    // then its start as far as the last frame's window reaches.
    const auto lead = static_cast<std::size_t>(std::llround(static_cast<double>(leadFrames) * samplesPerFrame));
    const auto head = std::min(n, static_cast<std::size_t>(std::ceil(static_cast<double>(headFrames) * samplesPerFrame)));
    std::vector<float> heard(lead + head);
    for (std::size_t i = 0; i < lead; ++i) heard[i] = mono[(n - (lead - i) % n) % n];
    std::copy_n(mono.begin(), head, heard.begin() + static_cast<std::ptrdiff_t>(lead));
    AudioAnalyzer analyzer(config);
    std::vector<AudioFeatures> frames;
    frames.reserve(headFrames);
    const double leadSeconds = static_cast<double>(lead) / config.sampleRate;
    for (std::size_t j = 0; j < leadFrames + headFrames; ++j) {
        AudioFeatures f = analyzer.analyzeFrame(heard, j);
        if (j < leadFrames) continue;
        f.time -= leadSeconds;
        frames.push_back(std::move(f));
    }
    return frames;
}

}  // namespace mirofish
