#include "audio/audio_feed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mirofish {

namespace {
using Seconds = std::chrono::duration<double>;
}

void AudioFeed::setTrack(std::shared_ptr<const std::vector<AudioFeatures>> frames, double frameRate, double seconds) {
    std::lock_guard lock(mutex_);
    track_ = std::move(frames);
    lapStart_.reset();
    frameRate_ = frameRate;
    seconds_ = seconds;
    heard_ = 0;
    transport_ = Transport::Paused;
    live_.clear();
    liveOn_ = false;
}

void AudioFeed::setLapStart(std::shared_ptr<const std::vector<AudioFeatures>> frames) {
    std::lock_guard lock(mutex_);
    lapStart_ = std::move(frames);
}

void AudioFeed::setPlayhead(double heard, bool playing, Clock::time_point at) {
    std::lock_guard lock(mutex_);
    heard_ = heard;
    transport_ = playing ? Transport::Playing : Transport::Paused;
    heardAt_ = at;
}

void AudioFeed::setEnded(Clock::time_point at) {
    std::lock_guard lock(mutex_);
    heard_ = seconds_;
    transport_ = Transport::Ended;
    heardAt_ = at;
}

void AudioFeed::setLoop(bool loop) {
    std::lock_guard lock(mutex_);
    loop_ = loop;
}

void AudioFeed::useLive() {
    std::lock_guard lock(mutex_);
    track_.reset();
    lapStart_.reset();
    live_.clear();
    liveOn_ = true;
}

void AudioFeed::pushLive(const AudioFeatures& frame, Clock::time_point capturedAt) {
    std::lock_guard lock(mutex_);
    if (!liveOn_) return;
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
    lapStart_.reset();
    live_.clear();
    liveOn_ = false;
    transport_ = Transport::Paused;
    heard_ = 0;
}

double AudioFeed::heardLocked(Clock::time_point now) const {
    if (!track_) return 0;
    return transport_ == Transport::Paused ? heard_ : heard_ + Seconds(now - heardAt_).count();
}

double AudioFeed::playhead(Clock::time_point now) const {
    std::lock_guard lock(mutex_);
    const double heard = heardLocked(now);
    if (transport_ == Transport::Ended) return seconds_;
    return loop_ && seconds_ > 0 ? std::fmod(heard, seconds_) : std::min(heard, seconds_);
}

AudioFeed::TrackFrame AudioFeed::trackFrameLocked(Clock::time_point now) const {
    if (transport_ == Transport::Paused || track_->empty()) return {};
    double t = heardLocked(now) - latency_;
    // Before the first frame is due (the latency at the start) the school
    // reads the first; a lap's start shows the end of the lap before it.
    if (t <= 0) return {0, 0};
    long long lap = 0;
    if (loop_ && transport_ == Transport::Playing && seconds_ > 0) {
        lap = static_cast<long long>(std::floor(t / seconds_));
        t = std::fmod(t, seconds_);
    }
    const double last = static_cast<double>(track_->size() - 1);
    const double k = std::round(t * frameRate_);
    // Within the track the nearest frame may be one past the last: a track
    // is rarely a whole number of frames long, and its last part rounds up.
    if (t < seconds_) return {static_cast<long long>(std::min(k, last)), lap};
    if (k > last) return {};
    return {static_cast<long long>(k), lap};
}

const AudioFeatures& AudioFeed::frameOfLapLocked(long long index, long long lap) const {
    if (index < 0) {
        index += static_cast<long long>(track_->size());
        --lap;
    }
    const auto k = static_cast<std::size_t>(index);
    if (lap >= 1 && lapStart_ && k < lapStart_->size()) return (*lapStart_)[k];
    return (*track_)[k];
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
        const TrackFrame at = trackFrameLocked(now);
        if (at.index < 0) return false;
        out = frameOfLapLocked(at.index, at.lap);
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
        const TrackFrame at = trackFrameLocked(now);
        if (at.index < 0) return kNone;
        const auto lookback = static_cast<long long>(kOnsetLookbackSeconds * frameRate_);
        // From the second lap on, back over the seam into the lap before.
        const long long earliest = at.lap >= 1 ? -static_cast<long long>(track_->size()) : 0;
        for (long long j = at.index; j >= earliest && at.index - j <= lookback; --j)
            if (frameOfLapLocked(j, at.lap).onset) return static_cast<double>(at.index - j) / frameRate_;
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
