#include "audio/audio_feed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mirofish {

namespace {
using Seconds = std::chrono::duration<double>;
}

void AudioFeed::setTrack(std::shared_ptr<const std::vector<AudioFeatures>> frames, double frameRate) {
    std::lock_guard lock(mutex_);
    track_ = std::move(frames);
    frameRate_ = frameRate;
    playhead_ = 0;
    playing_ = false;
    live_.clear();
}

void AudioFeed::setPlayhead(double seconds, bool playing, Clock::time_point at) {
    std::lock_guard lock(mutex_);
    playhead_ = seconds;
    playing_ = playing;
    playheadAt_ = at;
}

void AudioFeed::pushLive(const AudioFeatures& frame, Clock::time_point capturedAt) {
    std::lock_guard lock(mutex_);
    track_.reset();
    live_.push_back({capturedAt, frame});
    while (!live_.empty() && Seconds(capturedAt - live_.front().at).count() > kLiveHistorySeconds) live_.pop_front();
}

void AudioFeed::setLatency(double seconds) {
    std::lock_guard lock(mutex_);
    latency_ = seconds;
}

void AudioFeed::clear() {
    std::lock_guard lock(mutex_);
    track_.reset();
    live_.clear();
    playing_ = false;
    playhead_ = 0;
}

double AudioFeed::playheadLocked(Clock::time_point now) const {
    if (!track_) return 0;
    return playing_ ? playhead_ + Seconds(now - playheadAt_).count() : playhead_;
}

double AudioFeed::playhead(Clock::time_point now) const {
    std::lock_guard lock(mutex_);
    return playheadLocked(now);
}

long long AudioFeed::trackIndexLocked(Clock::time_point now) const {
    if (!playing_ || track_->empty()) return -1;
    const double k = std::round((playheadLocked(now) - latency_) * frameRate_);
    if (k >= static_cast<double>(track_->size())) return -1;
    return k <= 0 ? 0 : static_cast<long long>(k);
}

AudioFeed::LiveIterator AudioFeed::liveCurrentLocked(Clock::time_point now) const {
    // Live audio cannot be shown ahead of time: a negative latency counts as 0.
    const double latency = std::max(latency_, 0.0);
    if (live_.empty() || Seconds(now - live_.back().at).count() > kLiveStaleSeconds + latency) return live_.rend();
    const auto due = now - std::chrono::duration_cast<Clock::duration>(Seconds(latency));
    return std::find_if(live_.rbegin(), live_.rend(), [&](const Stamped& s) { return s.at <= due; });
}

bool AudioFeed::current(AudioFeatures& out, Clock::time_point now) const {
    std::lock_guard lock(mutex_);
    if (track_) {
        const long long k = trackIndexLocked(now);
        if (k < 0) return false;
        out = (*track_)[static_cast<std::size_t>(k)];
        return true;
    }
    const LiveIterator it = liveCurrentLocked(now);
    if (it == live_.rend()) return false;
    out = it->frame;
    return true;
}

double AudioFeed::onsetAge(Clock::time_point now) const {
    std::lock_guard lock(mutex_);
    constexpr double kNone = std::numeric_limits<double>::infinity();
    if (track_) {
        const long long k = trackIndexLocked(now);
        const auto lookback = static_cast<long long>(kOnsetLookbackSeconds * frameRate_);
        for (long long j = k; j >= 0 && k - j <= lookback; --j)
            if ((*track_)[static_cast<std::size_t>(j)].onset) return static_cast<double>(k - j) / frameRate_;
        return kNone;
    }
    const LiveIterator current = liveCurrentLocked(now);
    for (auto it = current; it != live_.rend(); ++it) {
        const double age = Seconds(current->at - it->at).count();
        if (age > kOnsetLookbackSeconds) break;
        if (it->frame.onset) return age;
    }
    return kNone;
}

}  // namespace mirofish
