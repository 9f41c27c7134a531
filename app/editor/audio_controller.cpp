#include "audio_controller.hpp"

#include <QFileInfo>
#include <QUrl>
#include <algorithm>
#include <cmath>

namespace mirofish::editor {

namespace {
constexpr int kMeterIntervalMs = 33;
constexpr int kDevicePollMs = 1000;

QString hzText(double hz) {
    return hz >= 1000 ? QStringLiteral("%1k").arg(hz / 1000, 0, 'f', hz >= 10000 ? 0 : 1)
                      : QString::number(std::lround(hz));
}

QVariantList zeros(std::size_t n) { return QVariantList(static_cast<qsizetype>(n), 0.0); }
}  // namespace

AudioController::AudioController(std::shared_ptr<AudioFeed> feed, QObject* parent)
    : QObject(parent), feed_(feed), playback_(feed), live_(feed) {
    const AudioAnalyzer reference;
    for (const BandRange& b : reference.bandRanges()) bandLabels_ << hzText(b.lowHz);
    clearMeters();

    connect(&playback_, &TrackPlayback::stateChanged, this, [this] {
        emit transportChanged();
        emit positionChanged();
    });
    connect(&playback_, &TrackPlayback::outputProblem, this, &AudioController::problem);
    connect(&live_, &LiveInput::started, this, &AudioController::switchToInput);
    connect(&live_, &LiveInput::failed, this, [this](const QString& message, bool stillListening) {
        if (stillListening && source_ == InputSource) {
            // Another input that could not be opened: the one listening goes on.
            inputIndex_ = indexOfInput(listening_.id());
            emit sourceChanged();
            setSourceStatus(tr("%1; still listening to %2").arg(message, listening_.description()));
            emit problem(message);
            return;
        }
        inputIndex_ = -1;  // the input box shows no device chosen
        setSource(track_ ? FileSource : NoSource);  // a file keeps playing
        setSourceStatus(message);
        emit problem(message);
    });
    connect(&devices_, &QMediaDevices::audioInputsChanged, this, &AudioController::refreshDevices);
    connect(&devices_, &QMediaDevices::audioOutputsChanged, this, &AudioController::refreshDevices);
    // Qt 6.4's PulseAudio backend keeps its lists of devices up to date but
    // never sends the two signals above (later releases do): an input
    // unplugged went on "listening" to whatever the server moved its stream
    // to, and one plugged in could not be chosen. A look once a second finds both.
    devicePoll_.setInterval(kDevicePollMs);
    connect(&devicePoll_, &QTimer::timeout, this, [this] {
        if (devicesDiffer()) refreshDevices();
    });
    devicePoll_.start();
    refreshDevices();

    meterTimer_.setInterval(kMeterIntervalMs);
    connect(&meterTimer_, &QTimer::timeout, this, &AudioController::updateMeters);
    setStatus(tr("No audio source: open a file or choose an input"));
}

AudioController::~AudioController() {
    cancelLoad();
    feed_->clear();
}

QStringList AudioController::inputDevices() const {
    QStringList out;
    for (const QAudioDevice& d : inputs_) out << d.description();
    return out;
}

QString AudioController::deviceNote() const {
    QStringList notes;
    if (output_.isNull())
        notes << tr("No audio output device: a file plays silently, and still drives the school and the export.");
    if (inputs_.isEmpty()) notes << tr("No audio input device found.");
    return notes.join(QLatin1Char(' '));
}

QString AudioController::fileName() const { return trackPath_.isEmpty() ? QString() : QFileInfo(trackPath_).fileName(); }

int AudioController::indexOfInput(const QByteArray& id) const {
    if (id.isEmpty()) return -1;
    for (qsizetype i = 0; i < inputs_.size(); ++i)
        if (inputs_[i].id() == id) return static_cast<int>(i);
    return -1;
}

bool AudioController::devicesDiffer() const {
    const QList<QAudioDevice> inputs = QMediaDevices::audioInputs();
    const QAudioDevice output = QMediaDevices::defaultAudioOutput();
    const auto id = [](const QAudioDevice& d) { return d.id(); };
    return output.id() != output_.id() || output.isNull() != output_.isNull() ||
           !std::ranges::equal(inputs, inputs_, {}, id, id);
}

void AudioController::refreshDevices() {
    const QByteArray currentInput = inputIndex_ >= 0 && inputIndex_ < inputs_.size() ? inputs_[inputIndex_].id() : QByteArray();
    inputs_ = QMediaDevices::audioInputs();
    inputIndex_ = indexOfInput(currentInput);
    if (source_ == InputSource && inputIndex_ < 0) {
        live_.stop();
        feed_->clear();
        setSource(NoSource);
        setSourceStatus(tr("The audio input device went away: choose another input, or open a file"));
        emit problem(tr("The audio input device went away"));
    }
    const QAudioDevice output = QMediaDevices::defaultAudioOutput();
    if (output.id() != output_.id() || output.isNull() != output_.isNull()) {
        // Heard until now, and no output left: said once (sinkFailed in
        // track_playback.cpp may have said it first, and made it silent).
        if (output.isNull() && playback_.audible())
            emit problem(tr("The audio output device went away; the file plays on silently"));
        output_ = output;
        playback_.setOutput(output_);
    }
    emit devicesChanged();
    emit sourceChanged();
}

void AudioController::setStatus(const QString& status) {
    if (status == status_) return;
    status_ = status;
    emit statusChanged();
}

void AudioController::setSourceStatus(const QString& status) {
    if (loading_) statusBeforeLoad_ = status;
    else setStatus(status);
}

void AudioController::setSource(Source source) {
    source_ = source;
    if (source == NoSource) {
        meterTimer_.stop();
        clearMeters();
    } else {
        meterTimer_.start();
    }
    emit sourceChanged();
}

void AudioController::cancelLoad() {
    if (!loader_) return;
    // A loader that finished before it saw the flag may have queued its
    // result already: a new generation makes finishLoad drop it.
    ++loadGeneration_;
    loadCancelled_->store(true);
    loader_->wait();
    loader_.reset();
    if (loading_) {
        loading_ = false;
        emit loadingChanged();
    }
}

void AudioController::openFile(const QString& pathOrUrl, bool play) {
    const QUrl url(pathOrUrl);
    const QString path = url.isLocalFile() ? url.toLocalFile() : pathOrUrl;
    if (path.isEmpty()) return;
    // What to say again if this file cannot be read (before any earlier load's "Reading").
    if (!loading_) statusBeforeLoad_ = status_;
    // A file opened in place of one still being read inherits its playing
    // once read, though the file that played may have ended since.
    const bool playingHandedOn = (loading_ && playWhenLoaded_) || (source_ == FileSource && playback_.playing());
    cancelLoad();
    const std::uint64_t generation = ++loadGeneration_;
    loadCancelled_ = std::make_shared<std::atomic<bool>>(false);
    loadingPath_ = QFileInfo(path).absoluteFilePath();
    // A file playing now hands its playing on to this one, even if it ends
    // before this one is read (a performer opens the next song near the end
    // of this one); Play and Pause while it is read say otherwise.
    playWhenLoaded_ = play || playingHandedOn;
    loading_ = true;
    loadProgress_ = 0;
    emit loadingChanged();
    setStatus(tr("Reading %1…").arg(QFileInfo(path).fileName()));

    auto cancelled = loadCancelled_;
    const std::string file = path.toStdString();
    loader_.reset(QThread::create([this, generation, cancelled, file] {
        cli::DecodeProgress progress;
        progress.cancelled = [cancelled] { return cancelled->load(); };
        progress.report = [this, generation](double f) {
            QMetaObject::invokeMethod(this, [this, generation, f] {
                if (generation != loadGeneration_ || !loading_) return;
                loadProgress_ = f;
                emit loadingChanged();
            }, Qt::QueuedConnection);
        };
        std::shared_ptr<cli::AnalysedTrack> track;
        QString error;
        try {
            AudioAnalyzerConfig config;
            config.frameRate = kFrameRate;
            track = std::make_shared<cli::AnalysedTrack>(cli::analyseAudioFile(file, config, progress));
            config.sampleRate = track->audio.sampleRate;
            track->lapStart = analyzeLapStart(config, track->audio.samples);
        } catch (const cli::DecodeCancelled&) {
            return;
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(this, [this, generation, track, error] { finishLoad(generation, track, error); },
                                  Qt::QueuedConnection);
    }));
    loader_->setObjectName(QStringLiteral("audio file loader"));
    loader_->start();
}

void AudioController::finishLoad(std::uint64_t generation, std::shared_ptr<cli::AnalysedTrack> track,
                                 const QString& error) {
    if (generation != loadGeneration_) return;
    loader_->wait();
    loader_.reset();
    loading_ = false;
    emit loadingChanged();
    if (!track) {
        // The previous source, if any, carries on.
        setStatus(source_ == NoSource ? tr("Could not open the audio file: %1").arg(error) : statusBeforeLoad_);
        emit problem(error);
        return;
    }
    // The next track opened while an input listens takes over playing (as
    // an input takes over once started), as does one opened while a file
    // played (playWhenLoaded_): it was left paused at 0:00, the school no
    // longer driven, the moment it was read.
    const bool listening = source_ == InputSource;
    // An input listening, or still opening, gives way to the file.
    if (source_ == InputSource || inputIndex_ >= 0) {
        live_.stop();
        inputIndex_ = -1;
    }
    track_ = track;
    trackPath_ = loadingPath_;
    auto frames = std::shared_ptr<const std::vector<AudioFeatures>>(track, &track->frames);
    auto audio = std::shared_ptr<const MonoAudio>(track, &track->audio);
    feed_->setTrack(frames, track->frameRate, track->audio.seconds());
    feed_->setLapStart(std::shared_ptr<const std::vector<AudioFeatures>>(track, &track->lapStart));
    playback_.setTrack(audio);
    setSource(FileSource);
    // A file cut short plays what it holds, and says so.
    if (!track->audio.warning.empty()) emit problem(QString::fromStdString(track->audio.warning));
    emit trackChanged();
    setStatus(tr("%1 s, analysed at %2 frames per second").arg(duration(), 0, 'f', 1).arg(kFrameRate));
    if (playWhenLoaded_ || listening) play();
}

void AudioController::planPlayWhenLoaded(bool play) {
    // An input listening hands over to the file playing, whatever is planned.
    if (!loading_ || source_ == InputSource) return;
    playWhenLoaded_ = play;
    const QString name = QFileInfo(loadingPath_).fileName();
    setStatus(play ? tr("Reading %1… it plays once read (M: stay paused)").arg(name)
                   : tr("Reading %1… it stays paused once read (M: play)").arg(name));
}

bool AudioController::nothingToPlayWhileLoading() const {
    return loading_ && (source_ == NoSource || (source_ == FileSource && playback_.ended()));
}

void AudioController::play() {
    planPlayWhenLoaded(true);
    // A track run to its end would start over until the next is read.
    if (source_ != FileSource || nothingToPlayWhileLoading()) return;
    playback_.play();
}

void AudioController::pause() {
    planPlayWhenLoaded(false);
    playback_.pause();
}

void AudioController::togglePlay() {
    // A file being read with nothing playing (none yet, as with `--audio`,
    // or the last one run to its end): M says whether it plays once read,
    // and the status says which. It played whatever M was pressed.
    if (nothingToPlayWhileLoading()) {
        planPlayWhenLoaded(!playWhenLoaded_);
        return;
    }
    playing() ? pause() : play();
}

void AudioController::seek(double seconds) { playback_.seek(seconds); }

void AudioController::setLoop(bool loop) { playback_.setLoop(loop); }

void AudioController::setLatencyMs(int ms) {
    ms = std::clamp(ms, -kMaxLatencyMs, kMaxLatencyMs);
    if (ms == latencyMs_) return;
    latencyMs_ = ms;
    feed_->setLatency(ms / 1000.0);
    emit latencyChanged();
}

void AudioController::useInput(int index) {
    if (index < 0 || index >= inputs_.size()) return;
    // The input already listening, chosen again: restarting it would empty
    // the feed and start the gain and the tempo over, mid-set.
    if (source_ == InputSource && index == inputIndex_) return;
    cancelLoad();
    inputIndex_ = index;
    emit sourceChanged();  // the input chosen, still opening: the cross can stop it
    setStatus(tr("Opening %1…").arg(inputs_[index].description()));
    // A file playing until then carries on until the input has started
    // (switchToInput): one that cannot be opened loses nothing.
    live_.start(inputs_[index]);
}

void AudioController::switchToInput(const QString& name) {
    if (inputIndex_ >= 0 && inputIndex_ < inputs_.size()) listening_ = inputs_[inputIndex_];
    playback_.clear();
    track_.reset();
    trackPath_.clear();
    emit trackChanged();
    feed_->useLive();
    setSource(InputSource);
    setSourceStatus(tr("Listening to %1").arg(name));
}

void AudioController::closeSource() {
    cancelLoad();
    live_.stop();
    playback_.clear();
    feed_->clear();
    track_.reset();
    trackPath_.clear();
    inputIndex_ = -1;
    emit trackChanged();
    setSource(NoSource);
    setStatus(tr("No audio source: open a file or choose an input"));
}

void AudioController::clearMeters() {
    driving_ = false;
    named_ = zeros(3);
    bands_ = zeros(static_cast<std::size_t>(bandLabels_.size()));
    level_ = beat_ = bpm_ = tempoConfidence_ = 0;
    emit metersChanged();
}

void AudioController::updateMeters() {
    const auto now = AudioFeed::Clock::now();
    driving_ = feed_->current(frame_, now);
    if (!driving_) {
        clearMeters();
    } else {
        named_ = {frame_.named[0], frame_.named[1], frame_.named[2]};
        bands_.clear();
        for (float b : frame_.bands) bands_ << b;
        level_ = frame_.level;
        bpm_ = frame_.bpm;
        tempoConfidence_ = frame_.tempoConfidence;
        beat_ = std::max(0.0, 1.0 - feed_->onsetAge(now) / kOnsetDecaySeconds);
        emit metersChanged();
    }
    emit positionChanged();
}

}  // namespace mirofish::editor
