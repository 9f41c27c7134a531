#include "audio/audio_feed.hpp"

#include <algorithm>
#include <cmath>

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

bool AudioFeed::current(AudioFeatures& out, Clock::time_point now) const {
    std::lock_guard lock(mutex_);
    if (track_) {
        if (!playing_ || track_->empty()) return false;
        const double t = playheadLocked(now) - latency_;
        const double k = std::round(t * frameRate_);
        if (k >= static_cast<double>(track_->size())) return false;
        out = (*track_)[k <= 0 ? 0 : static_cast<std::size_t>(k)];
        return true;
    }
    if (live_.empty() || Seconds(now - live_.back().at).count() > kLiveStaleSeconds + std::max(latency_, 0.0))
        return false;
    // Live audio cannot be shown ahead of time: a negative latency counts as 0.
    const auto due = now - std::chrono::duration_cast<Clock::duration>(Seconds(std::max(latency_, 0.0)));
    for (auto it = live_.rbegin(); it != live_.rend(); ++it) {
        if (it->at <= due) {
            out = it->frame;
            return true;
        }
    }
    return false;
}

}  // namespace mirofish
