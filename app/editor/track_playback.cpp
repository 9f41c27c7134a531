#include "track_playback.hpp"

#include "stream_failures.hpp"

#include <QMediaDevices>
#include <QMetaObject>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace mirofish::editor {

namespace {
constexpr int kTickMs = 50;  // playhead reports and the end of the track
constexpr int kSettleMs = 1000;  // an output back after a dropout, before it is taken up again
constexpr double kTrackRate = 48000;

void writeSample(char* out, QAudioFormat::SampleFormat format, float v) {
    v = std::clamp(v, -1.0f, 1.0f);
    switch (format) {
        case QAudioFormat::UInt8: {
            const auto s = static_cast<std::uint8_t>(std::lround(127.5f + v * 127.5f));
            std::memcpy(out, &s, 1);
            break;
        }
        case QAudioFormat::Int16: {
            const auto s = static_cast<std::int16_t>(std::lround(v * 32767.0f));
            std::memcpy(out, &s, 2);
            break;
        }
        case QAudioFormat::Int32: {
            const auto s = static_cast<std::int32_t>(std::lround(static_cast<double>(v) * 2147483647.0));
            std::memcpy(out, &s, 4);
            break;
        }
        default:
            std::memcpy(out, &v, 4);
    }
}
}  // namespace

TrackReader::TrackReader(std::shared_ptr<const MonoAudio> audio, const QAudioFormat& format, QObject* parent)
    : QIODevice(parent), audio_(std::move(audio)), format_(format), step_(audio_->sampleRate / format.sampleRate()) {
    // Unbuffered: QIODevice's own buffer would read 16 KB ahead of a sink
    // asking for a period, and the playhead (handed out minus what the sink
    // holds) would run up to 85 ms ahead of the sound, and a seek would play
    // that much of the old position first.
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
}

double TrackReader::positionSeconds() const { return position_ / audio_->sampleRate; }

double TrackReader::handedOutSeconds() const { return handedOut_ / audio_->sampleRate; }

void TrackReader::seekSeconds(double seconds, double laps) {
    const double size = static_cast<double>(audio_->samples.size());
    position_ = std::clamp(seconds * audio_->sampleRate, 0.0, size);
    handedOut_ = laps * size + position_;
    sinceSeek_ = 0;
}

void TrackReader::setLoop(bool loop) {
    // Off: what is handed out counts from this lap's start again, as the
    // feed, which no longer wraps, reads it; the laps before put its
    // playhead past the end, where nothing drives.
    if (loop_ && !loop) handedOut_ = position_;
    loop_ = loop;
}

qint64 TrackReader::bytesAvailable() const {
    if (loop_) return std::numeric_limits<int>::max();
    const double left = static_cast<double>(audio_->samples.size()) - position_;
    return static_cast<qint64>(std::max(0.0, left / step_)) * format_.bytesPerFrame();
}

qint64 TrackReader::readData(char* data, qint64 maxSize) {
    const std::vector<float>& s = audio_->samples;
    const int frameBytes = format_.bytesPerFrame();
    const int sampleBytes = format_.bytesPerSample();
    const double size = static_cast<double>(s.size());
    qint64 written = 0;
    while (written + frameBytes <= maxSize) {
        if (position_ >= size) {
            if (!loop_ || s.empty()) break;
            position_ -= size;
        }
        // Linear interpolation: the output may run at another rate.
        const auto i = static_cast<std::size_t>(position_);
        const double f = position_ - static_cast<double>(i);
        const float v = static_cast<float>(s[i] + (s[std::min(i + 1, s.size() - 1)] - s[i]) * f);
        for (int c = 0; c < format_.channelCount(); ++c)
            writeSample(data + written + c * sampleBytes, format_.sampleFormat(), v);
        written += frameBytes;
        position_ += step_;
        handedOut_ += step_;
        sinceSeek_ += step_;
    }
    return written;
}

TrackPlayback::TrackPlayback(std::shared_ptr<AudioFeed> feed, QObject* parent)
    : QObject(parent), feed_(std::move(feed)) {
    countStreamFailures();
    ticker_.setInterval(kTickMs);
    connect(&ticker_, &QTimer::timeout, this, &TrackPlayback::tick);
}

TrackPlayback::~TrackPlayback() { stopSink(); }

void TrackPlayback::setTrack(std::shared_ptr<const MonoAudio> audio) {
    // The ticker stopped before the sink closes: Qt 6.4's output runs events
    // as it closes, and a tick then reported the old track's place as the
    // new track's (the feed already holds it), playing, though nothing played.
    ticker_.stop();
    playing_ = false;
    awaitingOutput_ = false;
    stopSink();
    audio_ = std::move(audio);
    pausedAt_ = 0;
    pausedLaps_ = 0;
    emit stateChanged();
}

void TrackPlayback::clear() { setTrack(nullptr); }

void TrackPlayback::setOutput(const QAudioDevice& device) {
    awaitingOutput_ = false;
    const bool wasPlaying = playing_;
    // The stream goes, unsuspended: its device may have gone with it (sinkFailed).
    if (playing_) holdPlace();
    stopSink();
    output_ = device;
    if (wasPlaying) play();
}

double TrackPlayback::heldBySink() const {
    // What the sink holds has been handed out but not heard yet (nothing,
    // once its stream has failed: sinkFailed).
    const qsizetype size = sink_->bufferSize(), free = sink_->bytesFree();
    const qsizetype held = free < 0 || free > size ? 0 : size - free;
    return static_cast<double>(held) / sink_->format().bytesPerFrame() / sink_->format().sampleRate();
}

bool TrackPlayback::sinkFailed() const {
    // Qt 6.4's PulseAudio sink keeps its state when its stream fails (the
    // device unplugged), and a suspend or resume of the dead stream aborts
    // inside libpulse. The stream's writable size, (size_t)-1 once it has
    // failed, then reads as -1 free bytes (or, were it cast otherwise, more
    // than the whole buffer).
    if (!sink_ || (sink_->state() != QAudio::ActiveState && sink_->state() != QAudio::IdleState)) return false;
    const qsizetype free = sink_->bytesFree();
    return free < 0 || free > sink_->bufferSize();
}

void TrackPlayback::playOnSilently(const QString& why) {
    if (playing_) {
        clockStart_ = heard();
        clock_.start();
    }
    stopSink();
    emit outputProblem(why);
}

void TrackPlayback::loseFailedSink() {
    if (!sinkFailed()) return;
    playOnSilently(outputGone());
    awaitOutput();
}

void TrackPlayback::awaitOutput() {
    awaitingOutput_ = true;
    ticksListed_ = 0;
}

double TrackPlayback::position() const {
    if (!audio_) return 0;
    if (!playing_) return pausedAt_;
    if (sink_ && reader_) {
        // Just after a seek the sink still plays what it held of the old
        // place: the playhead stays on the place sought meanwhile (near the
        // start of a looping track it showed the end, and a pause then kept that).
        double p = reader_->positionSeconds() - std::min(heldBySink(), reader_->sinceSeekSeconds());
        if (p < 0) p = loop_ ? p + duration() : 0;
        return p;
    }
    const double p = clockStart_ + static_cast<double>(clock_.nsecsElapsed()) * 1e-9;
    return loop_ && duration() > 0 ? std::fmod(p, duration()) : std::min(p, duration());
}

double TrackPlayback::heard() const {
    if (!audio_) return 0;
    if (!playing_) return (loop_ ? pausedLaps_ : 0) * duration() + pausedAt_;
    // As position(): just after a seek, the seek's place (the laps kept).
    if (sink_ && reader_)
        return std::max(0.0, reader_->handedOutSeconds() - std::min(heldBySink(), reader_->sinceSeekSeconds()));
    return clockStart_ + static_cast<double>(clock_.nsecsElapsed()) * 1e-9;
}

double TrackPlayback::lapsHeard() const {
    if (!loop_ || duration() <= 0) return 0;
    if (!playing_) return pausedLaps_;
    return std::floor(heard() / duration());
}

QString TrackPlayback::outputGone() const {
    return tr("%1 went away (unplugged?); playing silently").arg(output_.description());
}

bool TrackPlayback::outputListed() const { return QMediaDevices::audioOutputs().contains(output_); }

void TrackPlayback::startSink(double from, double laps) {
    stopSink();
    if (output_.isNull()) return;
    if (!outputListed()) {
        // Unplugged since the last look at the devices: Qt 6.4 waits for
        // ever on a stream to a device that has gone.
        emit outputProblem(outputGone());
        awaitOutput();
        return;
    }
    QAudioFormat format = output_.preferredFormat();
    format.setSampleRate(static_cast<int>(kTrackRate));
    format.setSampleFormat(QAudioFormat::Float);
    if (!output_.isFormatSupported(format)) format = output_.preferredFormat();
    reader_ = std::make_unique<TrackReader>(audio_, format);
    reader_->setLoop(loop_);
    reader_->seekSeconds(from, laps);
    sink_ = std::make_unique<QAudioSink>(output_, format);
    sink_->start(reader_.get());
    // Started or refused, its output is no longer awaited: a device listed
    // but refusing is not tried again every second.
    awaitingOutput_ = false;
    if (sink_->error() != QAudio::NoError || sink_->state() == QAudio::StoppedState) {
        stopSink();
        emit outputProblem(tr("Could not play through %1; playing silently").arg(output_.description()));
        return;
    }
    // A stream that fails later (its sound server restarted) takes no more
    // audio, and the playhead, counted from what it took, stood still: the
    // school froze on one frame, Pause still shown. It plays on silently,
    // on the clock, from where it was heard, as when the device cannot be
    // opened. Handled from the event loop, not inside the sink's own signal.
    const QAudioSink* watched = sink_.get();
    connect(sink_.get(), &QAudioSink::stateChanged, this, [this, watched](QAudio::State state) {
        if (state != QAudio::StoppedState || sink_.get() != watched || sink_->error() == QAudio::NoError) return;
        QMetaObject::invokeMethod(
            this,
            [this, watched] {
                if (sink_.get() != watched) return;  // stopped or restarted since
                playOnSilently(tr("%1 stopped playing (the device reported an error); playing silently")
                                   .arg(output_.description()));
            },
            Qt::QueuedConnection);
    });
}

void TrackPlayback::stopSink() {
    if (sink_) sink_->stop();
    sink_.reset();
    reader_.reset();
}

void TrackPlayback::play() {
    if (!audio_ || playing_) return;
    if (ended()) {  // play at the end starts over, in a fresh stream
        pausedAt_ = 0;
        pausedLaps_ = 0;
        stopSink();
    }
    const double laps = loop_ ? pausedLaps_ : 0;
    // One stream per track and output: pausing suspends it, so a device
    // need not be opened again (a stream can take a second to start). A
    // suspended stream whose device has gone since is not resumed: that
    // aborts inside libpulse (sinkFailed), nor one that failed while paused
    // and whose device is back, under the same name, by now.
    if (sink_ && reader_ && outputListed() && streamFailures() == failuresAtPause_) {
        // The suspended sink still holds what came after the pause: resumed
        // as it is, it plays on from there (a seek while paused dropped it).
        sink_->resume();
    } else {
        startSink(pausedAt_, laps);
    }
    clockStart_ = laps * duration() + pausedAt_;
    clock_.start();
    playing_ = true;
    ticker_.start();
    report();
    emit stateChanged();
}

void TrackPlayback::holdPlace() {
    pausedAt_ = position();
    pausedLaps_ = lapsHeard();
    playing_ = false;
    ticker_.stop();
}

void TrackPlayback::pause() {
    if (!playing_) return;
    loseFailedSink();
    holdPlace();
    failuresAtPause_ = streamFailures();
    if (sink_) sink_->suspend();
    report();
    emit stateChanged();
}

void TrackPlayback::seek(double seconds) {
    if (!audio_) return;
    // A looping track wraps ([ and ] near either end land on the next lap,
    // or the one before: from the second lap on, the analysis goes on over
    // the seam, and back in the first it started from silence, its tempo
    // unknown for seconds).
    double laps = 0;
    if (loop_ && duration() > 0) {
        laps = std::max(0.0, lapsHeard() + std::floor(seconds / duration()));
        seconds = std::fmod(std::fmod(seconds, duration()) + duration(), duration());
    }
    seconds = std::clamp(seconds, 0.0, duration());
    if (playing_) {
        if (reader_) reader_->seekSeconds(seconds, laps);
        clockStart_ = laps * duration() + seconds;
        clock_.start();
        // The sink's buffer still holds a moment of the old position; the
        // next tick reports the truth.
    } else {
        // A suspended sink still holds what followed the pause, which Play
        // would let be heard before the place sought: a cue starts a fresh stream.
        stopSink();
    }
    pausedAt_ = seconds;
    pausedLaps_ = laps;
    report();
    emit stateChanged();
}

void TrackPlayback::setLoop(bool loop) {
    if (loop_ == loop) return;
    if (!loop) pausedLaps_ = 0;
    if (playing_ && !reader_) {
        clockStart_ = position();
        clock_.start();
    }
    loop_ = loop;
    if (reader_) reader_->setLoop(loop);
    feed_->setLoop(loop);
    if (playing_) report();
    emit stateChanged();
}

void TrackPlayback::tick() {
    loseFailedSink();
    const bool ended = reader_ ? reader_->finished() && sink_->state() == QAudio::IdleState
                               : !loop_ && position() >= duration();
    if (ended) {
        pause();
        pausedAt_ = duration();
        // The visuals may still be behind the end (the latency offset).
        feed_->setEnded();
        emit stateChanged();
        return;
    }
    // Gone for a moment (a USB interface reconnecting) and back under the
    // same name: the device poll sees no change, so it is taken up here,
    // once it has stayed back for a second. A stream started on a device
    // that goes again before it connects waits for ever in Qt 6.4: taken
    // up at once, a loose cable froze the editor within tens of dropouts.
    if (awaitingOutput_ && !sink_) {
        ticksListed_ = outputListed() ? ticksListed_ + 1 : 0;
        if (ticksListed_ * kTickMs >= kSettleMs) {
            awaitingOutput_ = false;
            holdPlace();
            play();
            return;
        }
    }
    report();
}

void TrackPlayback::report() { feed_->setPlayhead(heard(), playing_); }

}  // namespace mirofish::editor
