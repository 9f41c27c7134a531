#pragma once
// What the simulation reads each step: the analysis frame the audience is
// hearing now. Thread-safe (one small mutex, held for a copy): the audio side
// writes (a track and its transport, or live frames), the simulation thread
// reads once per step.
//
// Track (a decoded, analysed file): frames at frameRate, frame k = k/frameRate
// seconds into the file. The transport reports how much of the track has been
// heard with the clock time that was true at; while playing the feed advances
// it with the clock, so the simulation sees a smooth playhead between
// reports. The frame read is the one at heard - latency (rounded to the
// nearest frame). "Heard" counts on across loop wraps, so that a positive
// latency shows the end of one lap after the next has begun; and after the
// end of a track that does not loop the frames the latency still owes drive
// on (setEnded) before nothing does.
//
// Live (an input device): frames stamped with the clock time their window
// ended; the frame read is the newest one at least `latency` old. A stalled
// input (nothing newer than kLiveStaleSeconds) drives nothing.
//
// Nothing drives (current() is false) when no source is set, the track is
// paused or past its end (plus the latency), or live input has stalled: the
// school then runs on its own parameters.
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "audio/audio_features.hpp"

namespace mirofish {

class AudioFeed {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr double kLiveStaleSeconds = 0.5;
    static constexpr double kLiveHistorySeconds = 3.0;  // the most latency live input can add

    // A new track, `seconds` long, replaces any source; it starts paused at 0.
    void setTrack(std::shared_ptr<const std::vector<AudioFeatures>> frames, double frameRate, double seconds);
    // The first frames of the track as heard from its second lap on
    // (analyzeLapStart), which a looping track drives with in place of its
    // own; none until set, and none after another setTrack.
    void setLapStart(std::shared_ptr<const std::vector<AudioFeatures>> frames);
    // `heard` seconds of the track heard at `at`, from the start of the
    // track: the playhead, plus the track's length for each loop wrap since
    // playing started or the playhead was last moved.
    void setPlayhead(double heard, bool playing, Clock::time_point at = Clock::now());
    // The track was heard to its end at `at` (it does not loop): the frames
    // the latency still owes drive on, then nothing.
    void setEnded(Clock::time_point at = Clock::now());
    // Whether the track wraps to its start at its end (a transport setting:
    // kept across tracks).
    void setLoop(bool loop);
    // Switches to live input, dropping any track.
    void useLive();
    // Live input's newest frame. Taken only after useLive() and until a track
    // is set or the feed cleared: a capture thread may deliver frames after
    // the switch away from it, and they must not drop the track chosen since.
    void pushLive(const AudioFeatures& frame, Clock::time_point capturedAt = Clock::now());
    // Seconds the visuals wait behind the audio (negative: ahead, tracks only).
    void setLatency(double seconds);
    void clear();

    // The frame to drive the parameters with at `now`; false: nothing drives.
    bool current(AudioFeatures& out, Clock::time_point now = Clock::now()) const;
    // Seconds from the newest onset at or before the current frame to that
    // frame (0: the current frame is an onset), looking back at most
    // kOnsetLookbackSeconds; infinity when none or nothing drives. A meter
    // sampling more slowly than the frames still sees every beat.
    static constexpr double kOnsetLookbackSeconds = 1.0;
    double onsetAge(Clock::time_point now = Clock::now()) const;
    // The track's playhead at `now`, within the track (0 without a track).
    double playhead(Clock::time_point now = Clock::now()) const;

private:
    struct Stamped {
        Clock::time_point at;
        AudioFeatures frame;
    };
    using LiveIterator = std::deque<Stamped>::const_reverse_iterator;

    enum class Transport { Paused, Playing, Ended };
    // Seconds heard at `now` (see setPlayhead).
    double heardLocked(Clock::time_point now) const;
    // The current track frame: its index (-1: none drives) and the lap
    // (0 the first, which the track's own frames drive).
    struct TrackFrame {
        long long index = -1;
        long long lap = 0;
    };
    TrackFrame trackFrameLocked(Clock::time_point now) const;
    // Frame `index` of lap `lap`; a negative index counts back into the lap before.
    const AudioFeatures& frameOfLapLocked(long long index, long long lap) const;
    // The current live frame (live_.rend(): none drives).
    LiveIterator liveCurrentLocked(Clock::time_point now) const;

    mutable std::mutex mutex_;
    std::shared_ptr<const std::vector<AudioFeatures>> track_;
    std::shared_ptr<const std::vector<AudioFeatures>> lapStart_;
    double frameRate_ = 60;
    double seconds_ = 0;
    double heard_ = 0;
    Transport transport_ = Transport::Paused;
    bool loop_ = false;
    Clock::time_point heardAt_{};
    std::deque<Stamped> live_;
    bool liveOn_ = false;
    double latency_ = 0;
};

}  // namespace mirofish
