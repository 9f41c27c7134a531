#pragma once
// Plays a decoded track and keeps the audio feed's playhead on what is being
// heard. With an output device: a QAudioSink in pull mode reading our own
// buffer (TrackReader), the playhead being what the sink has taken minus what
// it still holds. Without one (CI, a machine without sound): a clock, so the
// file still drives the school in real time, silently.
#include <QAudioDevice>
#include <QAudioSink>
#include <QElapsedTimer>
#include <QIODevice>
#include <QObject>
#include <QTimer>
#include <cstdint>
#include <memory>

#include "audio/audio_feed.hpp"
#include "audio/wav_file.hpp"

namespace mirofish::editor {

// The sink's source: the mono track converted on the fly to the output's
// format (any channel count, rate and sample format), looping if asked.
// Lives and is read on the GUI thread (the sink pulls from its own thread's
// event loop: here the GUI's).
class TrackReader : public QIODevice {
public:
    TrackReader(std::shared_ptr<const MonoAudio> audio, const QAudioFormat& format, QObject* parent = nullptr);
    double positionSeconds() const;  // what has been handed out, within the track
    // What has been handed out from the start of the track, counted on
    // across loop wraps since the last seek or the loop turned off
    // (AudioFeed::setPlayhead).
    double handedOutSeconds() const;
    // What has been handed out since the last seek (or the start).
    double sinceSeekSeconds() const { return sinceSeek_ / audio_->sampleRate; }
    // To `seconds` into the track, after `laps` whole laps (looping).
    void seekSeconds(double seconds, double laps = 0);
    void setLoop(bool loop);
    bool finished() const { return !loop_ && position_ >= static_cast<double>(audio_->samples.size()); }
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override;

protected:
    qint64 readData(char* data, qint64 maxSize) override;
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    std::shared_ptr<const MonoAudio> audio_;
    QAudioFormat format_;
    double step_;      // track samples per output frame
    double position_ = 0;  // in track samples
    double handedOut_ = 0;  // in track samples, position_ plus the laps before it
    double sinceSeek_ = 0;  // in track samples
    bool loop_ = false;
};

class TrackPlayback : public QObject {
    Q_OBJECT
public:
    explicit TrackPlayback(std::shared_ptr<AudioFeed> feed, QObject* parent = nullptr);
    ~TrackPlayback() override;

    void setTrack(std::shared_ptr<const MonoAudio> audio);  // stopped at 0
    void clear();
    void play();
    void pause();
    void seek(double seconds);
    void setLoop(bool loop);
    // The output to play through; a null device plays silently.
    void setOutput(const QAudioDevice& device);

    bool hasTrack() const { return audio_ != nullptr; }
    bool playing() const { return playing_; }
    // Run to its end (not looping) and stopped there: play() starts it over.
    bool ended() const { return audio_ && !playing_ && pausedAt_ >= duration(); }
    bool loop() const { return loop_; }
    double duration() const { return audio_ ? audio_->seconds() : 0.0; }
    double position() const;  // seconds, what is heard now
    // Seconds heard from the start of the track, across loop wraps
    // (AudioFeed::setPlayhead: from the second lap on, the analysis goes on
    // over the seam). A seek, a pause and a new output keep the laps.
    double heard() const;
    bool audible() const { return sink_ != nullptr; }

signals:
    void stateChanged();  // playing, position jumps, track
    void outputProblem(const QString& message);

private:
    void startSink(double from, double laps);
    double lapsHeard() const;  // whole laps before what is heard, looping
    void stopSink();
    void tick();
    void report();
    double heldBySink() const;  // seconds
    bool sinkFailed() const;    // its stream died under it (the device unplugged)
    bool outputListed() const;  // the output is still among the system's devices
    QString outputGone() const;  // says it went away
    void loseFailedSink();      // plays on silently, saying so, where sinkFailed
    void awaitOutput();         // takes the output up again once back (tick)
    void playOnSilently(const QString& why);  // on the clock, from what was heard
    void holdPlace();           // stops where it is heard, the sink left as it is

    std::shared_ptr<AudioFeed> feed_;
    std::shared_ptr<const MonoAudio> audio_;
    QAudioDevice output_;
    std::unique_ptr<QAudioSink> sink_;
    std::unique_ptr<TrackReader> reader_;
    // The silent clock: position = clockStart_ + elapsed while playing.
    QElapsedTimer clock_;
    double clockStart_ = 0;
    double pausedAt_ = 0;
    double pausedLaps_ = 0;  // whole laps before pausedAt_, looping
    bool playing_ = false;
    bool awaitingOutput_ = false;  // its output went away: taken up again once listed a while (tick)
    int ticksListed_ = 0;          // ticks since it was listed again, while awaiting it
    bool loop_ = false;
    std::uint64_t failuresAtPause_ = 0;  // streamFailures() when paused
    QTimer ticker_;
};

}  // namespace mirofish::editor
