#include "audio/tempo_tracker.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mirofish {

namespace {
constexpr double kBpmStep = 0.5;
constexpr int kHarmonics = 4;
// How far the refined tempo may move from the comb's: its grid and parabola
// left fast tempi up to 1.25 BPM off (191 BPM read 190.0 at 60 fps).
constexpr double kRefinedReachBpm = 1.5;
constexpr double kPreferredBpm = 120;
// The span of the envelope's running median, which the tempo's
// autocorrelation leaves out: two beats at the slowest tempo (60 BPM).
constexpr double kTrendSeconds = 2;
// The low band's standard deviation (dB) below which it is too flat to
// tell the octave: the whole envelope's bar (TempoConfig::minDeviation) was
// raised for held chords, which concern the tempo, not the octave check.
constexpr double kFlatLowBandDb = 0.01;
// How strongly the low band must repeat at half a beat, as a share of how
// it repeats at a whole beat, for the halfway events to count as beats.
// Measured on the tests' signals over a full window: click tracks at 64-87
// BPM 0.94-1.02, the dance loop slowed to a groove at 80-100 BPM 0.49-0.76.
constexpr double kLowHalfwayShare = 0.8;

// Linear interpolation of v at a fractional index (0 outside).
double at(const std::vector<double>& v, std::size_t size, double x) {
    if (x < 0) return 0;
    const auto i = static_cast<std::size_t>(x);
    if (i + 1 >= size) return i < size ? v[i] : 0.0;
    const double f = x - static_cast<double>(i);
    return v[i] * (1 - f) + v[i + 1] * f;
}

double meanOf(const std::vector<double>& envelope, std::size_t n) {
    double mean = 0;
    for (std::size_t i = 0; i < n; ++i) mean += envelope[i];
    return mean / static_cast<double>(n);
}

// The unbiased autocovariance of the first n values of an envelope, about
// its mean, at a whole lag.
double covarianceAt(const std::vector<double>& envelope, std::size_t n, double mean, std::size_t lag) {
    double sum = 0;
    for (std::size_t i = lag; i < n; ++i) sum += (envelope[i] - mean) * (envelope[i - lag] - mean);
    return sum / static_cast<double>(n - lag);
}
}  // namespace

TempoTracker::TempoTracker(const TempoConfig& config) : config_(config) {
    if (!(config.frameRate > 0) || !(config.minBpm > 0) || !(config.maxBpm > config.minBpm) ||
        !(config.windowSeconds > 0))
        throw std::invalid_argument("tempo: frame rate, window and a BPM range min < max are required");
    const auto window = static_cast<std::size_t>(std::lround(config.windowSeconds * config.frameRate));
    ring_.assign(std::max<std::size_t>(window, 8), 0.0f);
    beatRing_.assign(ring_.size(), 0.0f);
    beat_.assign(ring_.size(), 0.0);
    lowRing_.assign(ring_.size(), 0.0f);
    low_.assign(ring_.size(), 0.0);
    smooth_.assign(ring_.size(), 0.0);
    trendFree_.assign(ring_.size(), 0.0);
    window_.reserve(ring_.size());
    acf_.assign(ring_.size(), 0.0);
    linear_.assign(ring_.size(), 0.0);
    const auto candidates = static_cast<std::size_t>(std::floor((config.maxBpm - config.minBpm) / kBpmStep)) + 1;
    scores_.assign(candidates, 0.0);
    combs_.assign(candidates, 0.0);
    for (std::size_t c = 0; c < candidates; ++c) {
        const double octaves = std::log2((config.minBpm + kBpmStep * static_cast<double>(c)) / kPreferredBpm);
        prior_.push_back(std::exp(-0.5 * octaves * octaves));
    }
    estimateEvery_ = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(config.frameRate / config.updateHz)));
    reset();
}

void TempoTracker::reset() {
    std::fill(ring_.begin(), ring_.end(), 0.0f);
    std::fill(beatRing_.begin(), beatRing_.end(), 0.0f);
    std::fill(lowRing_.begin(), lowRing_.end(), 0.0f);
    next_ = filled_ = sinceEstimate_ = 0;
    bpm_ = confidence_ = phase_ = 0;
    known_ = false;
}

void TempoTracker::update(float onsetStrength, float lowStrength) {
    auto clean = [](float v) { return std::isfinite(v) ? std::max(v, 0.0f) : 0.0f; };
    ring_[next_] = clean(onsetStrength);
    beatRing_[next_] = clean(onsetStrength + 3 * lowStrength);
    lowRing_[next_] = clean(lowStrength);
    next_ = next_ + 1 == ring_.size() ? 0 : next_ + 1;
    filled_ = std::min(filled_ + 1, ring_.size());
    if (static_cast<double>(filled_) < config_.minHistorySeconds * config_.frameRate) return;

    // The envelope in time order, smoothed by a [1 4 6 4 1]/16 kernel
    // (renormalised at the ends) so the autocorrelation has round peaks.
    const std::size_t n = filled_;
    const std::size_t start = (next_ + ring_.size() - n) % ring_.size();
    smoothInto(ring_, start, n, smooth_);
    smoothInto(beatRing_, start, n, beat_);
    smoothInto(lowRing_, start, n, low_);

    if (sinceEstimate_ == 0) {
        estimateTempo();
        known_ = confidence_ >= (known_ ? config_.keepConfidence : config_.minConfidence);
    }
    sinceEstimate_ = (sinceEstimate_ + 1) % estimateEvery_;
    estimatePhase();
}

void TempoTracker::smoothInto(const std::vector<float>& ring, std::size_t start, std::size_t n, std::vector<double>& out) {
    for (std::size_t i = 0, j = start; i < n; ++i, j = j + 1 == ring.size() ? 0 : j + 1) linear_[i] = ring[j];
    static constexpr double kernel[5] = {1, 4, 6, 4, 1};
    for (std::size_t i = 0; i < n; ++i) {
        if (i >= 2 && i + 2 < n) {
            out[i] = (linear_[i - 2] + 4 * linear_[i - 1] + 6 * linear_[i] + 4 * linear_[i + 1] + linear_[i + 2]) / 16;
            continue;
        }
        double sum = 0, weight = 0;
        for (std::size_t k = 0; k < 5; ++k) {
            if (i + k < 2 || i + k - 2 >= n) continue;
            sum += kernel[k] * linear_[i + k - 2];
            weight += kernel[k];
        }
        out[i] = sum / weight;
    }
}

void TempoTracker::estimateTempo() {
    const std::size_t n = filled_;
    // Each value less the median of the kTrendSeconds around it: a loud
    // passage next to a quiet one (applause, then silence) is a step, whose
    // autocorrelation is high at every lag and read as any tempo. A median,
    // not a mean: a single hit would leave a mean's shelf around it, two
    // seconds wide, read as 60 BPM.
    // The window [lo, hi) around i slides one value at a time, kept sorted
    // (an insertion and a removal each, not a sort per value).
    const auto half = static_cast<std::size_t>(std::lround(0.5 * kTrendSeconds * config_.frameRate));
    window_.clear();
    std::size_t lo = 0, hi = 0;
    for (std::size_t i = 0; i < n; ++i) {
        for (; hi < std::min(n, i + half + 1); ++hi)
            window_.insert(std::upper_bound(window_.begin(), window_.end(), smooth_[hi]), smooth_[hi]);
        for (; lo + half < i; ++lo) window_.erase(std::lower_bound(window_.begin(), window_.end(), smooth_[lo]));
        trendFree_[i] = smooth_[i] - window_[window_.size() / 2];
    }
    const std::vector<double>& envelope = trendFree_;
    const double mean = meanOf(envelope, n);

    // Unbiased autocorrelation of the mean-free envelope up to half the window.
    const std::size_t maxLag = n / 2;
    const double fps = config_.frameRate;
    const std::size_t lagLimit = std::min(maxLag, static_cast<std::size_t>(std::ceil(kHarmonics * 60.0 * fps / config_.minBpm)) + 2);
    for (std::size_t lag = 0; lag <= lagLimit; ++lag) acf_[lag] = covarianceAt(envelope, n, mean, lag);
    if (!(acf_[0] > static_cast<double>(config_.minDeviation) * config_.minDeviation)) {  // silence or a steady sound
        bpm_ = confidence_ = 0;
        return;
    }
    for (std::size_t lag = 1; lag <= lagLimit; ++lag) acf_[lag] /= acf_[0];
    acf_[0] = 1;

    std::size_t best = 0;
    double bestScore = -1e300;
    for (std::size_t c = 0; c < scores_.size(); ++c) {
        const double bpm = config_.minBpm + kBpmStep * static_cast<double>(c);
        const double period = 60.0 * fps / bpm;
        double comb = 0;
        int used = 0;
        for (int h = 1; h <= kHarmonics && h * period <= static_cast<double>(lagLimit); ++h, ++used)
            comb += at(acf_, lagLimit + 1, h * period);
        comb = used > 0 ? comb / used : 0.0;
        combs_[c] = comb;
        scores_[c] = comb * prior_[c];
        if (used > 0 && scores_[c] > bestScore) {
            bestScore = scores_[c];
            best = c;
        }
    }
    if (bestScore <= 0) {
        confidence_ = 0;
        return;
    }
    // Octaves: when the double tempo's comb is nearly as strong, every beat
    // of the slower reading has an equally strong event halfway: count those,
    // unless the low band repeats at the slower tempo alone (a groove's kick
    // under its off-beat hats, as loud as the kick). A reading is never
    // halved: a rock beat, its kick not on every beat, read at half speed.
    const double doubled = 2 * (config_.minBpm + kBpmStep * static_cast<double>(best));
    if (doubled <= config_.maxBpm) {
        const std::size_t centre = std::min(combs_.size() - 1, static_cast<std::size_t>(std::lround((doubled - config_.minBpm) / kBpmStep)));
        std::size_t fast = centre;
        for (std::size_t c = centre >= 2 ? centre - 2 : 0; c <= std::min(centre + 2, combs_.size() - 1); ++c)
            if (combs_[c] > combs_[fast]) fast = c;
        if (combs_[fast] >= 0.9 * combs_[best] && lowBandAlsoHalfway(doubled / 2)) best = fast;
    }
    double offset = 0;
    if (best > 0 && best + 1 < scores_.size()) {
        const double a = scores_[best - 1], b = scores_[best], c = scores_[best + 1];
        const double denom = a - 2 * b + c;
        if (denom < 0) offset = std::clamp(0.5 * (a - c) / denom, -0.5, 0.5);
    }
    bpm_ = static_cast<float>(refinedBpm(config_.minBpm + kBpmStep * (static_cast<double>(best) + offset), lagLimit));
    confidence_ = static_cast<float>(std::clamp(combs_[best], 0.0, 1.0));
}

// The tempo read to a finer step than the comb's: the comb's parabola over
// its 0.5 BPM grid left a beat that is no whole number of frames up to 1.25 BPM
// off (128 BPM, 28.125 frames at 60 fps, read 128.35). The autocorrelation's
// peak near each multiple of the beat within the lags taken (8 at 128 BPM,
// the last at 225 frames, a whole number) is placed by a parabola through it
// and its neighbours, and the period is the least-squares line through
// those places (beat h at h periods): the far peaks pin it down, the near
// ones steady it. Kept within kRefinedReachBpm of `bpm`: the comb chose the
// tempo (its octave above all), this only its last BPM.
double TempoTracker::refinedBpm(double bpm, std::size_t lagLimit) const {
    const double period = 60.0 * config_.frameRate / bpm;
    double sumHLag = 0, sumHH = 0;
    for (int h = 1; h * period + 1 < static_cast<double>(lagLimit); ++h) {
        const double expected = h * period;
        const auto reach = static_cast<std::size_t>(std::ceil(expected * kRefinedReachBpm / bpm));
        const auto centre = static_cast<std::size_t>(std::lround(expected));
        std::size_t peak = centre;
        for (std::size_t lag = centre > reach ? centre - reach : 1; lag <= std::min(centre + reach, lagLimit - 1); ++lag)
            if (acf_[lag] > acf_[peak]) peak = lag;
        const double a = acf_[peak - 1], b = acf_[peak], c = acf_[peak + 1];
        if (!(b > 0 && b >= a && b >= c)) continue;  // the window's edge, or no peak at all
        const double denom = a - 2 * b + c;
        const double lag = static_cast<double>(peak) + (denom < 0 ? std::clamp(0.5 * (a - c) / denom, -0.5, 0.5) : 0.0);
        sumHLag += h * lag;
        sumHH += static_cast<double>(h) * h;
    }
    if (!(sumHH > 0)) return bpm;
    const double refined = 60.0 * config_.frameRate * sumHH / sumHLag;
    return std::clamp(refined, bpm - kRefinedReachBpm, bpm + kRefinedReachBpm);
}

// Whether the low band repeats at half a beat of `bpm` nearly as strongly
// as at a whole beat (its autocorrelation summed at the half-beat lags
// against the whole-beat lags): a click track's every click does, a groove's
// kick over its bass line does not. A low band too flat to tell leaves the
// onsets to decide alone.
bool TempoTracker::lowBandAlsoHalfway(double bpm) const {
    const std::size_t n = filled_;
    const double mean = meanOf(low_, n);
    if (!(covarianceAt(low_, n, mean, 0) > kFlatLowBandDb * kFlatLowBandDb)) return true;
    const auto between = [&](double lag) {
        const auto whole = static_cast<std::size_t>(lag);
        const double f = lag - static_cast<double>(whole);
        return covarianceAt(low_, n, mean, whole) * (1 - f) + covarianceAt(low_, n, mean, whole + 1) * f;
    };
    const double period = 60.0 * config_.frameRate / bpm;
    double halfBeats = 0, wholeBeats = 0;
    for (int h = 1; h <= kHarmonics && h * period + 1 < static_cast<double>(n / 2); ++h) {
        halfBeats += between((h - 0.5) * period);
        wholeBeats += between(h * period);
    }
    return !(wholeBeats > 0) || halfBeats >= kLowHalfwayShare * wholeBeats;
}

void TempoTracker::estimatePhase() {
    if (!(bpm_ > 0)) {
        phase_ = 0;
        return;
    }
    const std::size_t n = filled_;
    const double period = 60.0 * config_.frameRate / bpm_;
    const double last = static_cast<double>(n - 1);
    constexpr double kStep = 0.25;  // frames
    double bestOffset = 0, bestScore = -1;
    for (double offset = 0; offset < period; offset += kStep) {
        double score = 0;
        for (double x = last - offset; x >= 0; x -= period) score += at(beat_, n, x);
        if (score > bestScore) {
            bestScore = score;
            bestOffset = offset;
        }
    }
    phase_ = static_cast<float>(std::clamp(bestOffset / period, 0.0, 1.0 - 1e-6));
}

}  // namespace mirofish
