#pragma once
// The audio panel's controller: the source (a file or an input device), the
// file's background decoding and analysis, its transport, the latency offset
// and the meters. It writes the audio feed the simulation thread reads; it
// never touches the simulation itself. Works without any audio device: a
// file then plays silently and still drives the school.
#include <QMediaDevices>
#include <QObject>
#include <QStringList>
#include <QThread>
#include <QTimer>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>
#include <atomic>
#include <memory>

#include "audio/audio_feed.hpp"
#include "audio/modulation.hpp"
#include "cli/audio_track.hpp"
#include "live_input.hpp"
#include "track_playback.hpp"

namespace mirofish::editor {

class AudioController : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by Editor")

    Q_PROPERTY(int source READ source NOTIFY sourceChanged)
    Q_PROPERTY(QStringList inputDevices READ inputDevices NOTIFY devicesChanged)
    Q_PROPERTY(int inputDevice READ inputDevice NOTIFY sourceChanged)
    Q_PROPERTY(bool hasOutput READ hasOutput NOTIFY devicesChanged)
    Q_PROPERTY(QString outputName READ outputName NOTIFY devicesChanged)
    Q_PROPERTY(QString deviceNote READ deviceNote NOTIFY devicesChanged)
    Q_PROPERTY(QString status READ status NOTIFY statusChanged)
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(double loadProgress READ loadProgress NOTIFY loadingChanged)
    Q_PROPERTY(QString fileName READ fileName NOTIFY trackChanged)
    Q_PROPERTY(QString filePath READ filePath NOTIFY trackChanged)
    Q_PROPERTY(double duration READ duration NOTIFY trackChanged)
    Q_PROPERTY(double position READ position NOTIFY positionChanged)
    Q_PROPERTY(bool playing READ playing NOTIFY transportChanged)
    Q_PROPERTY(bool loop READ loop WRITE setLoop NOTIFY transportChanged)
    Q_PROPERTY(int latencyMs READ latencyMs WRITE setLatencyMs NOTIFY latencyChanged)
    Q_PROPERTY(int maxLatencyMs READ maxLatencyMs CONSTANT)
    // The meters: the analysis frame driving the school now (all zero when nothing drives).
    Q_PROPERTY(bool driving READ driving NOTIFY metersChanged)
    Q_PROPERTY(QVariantList named READ named NOTIFY metersChanged)  // low, mid, high, 0..1
    Q_PROPERTY(QVariantList bands READ bands NOTIFY metersChanged)  // log-spaced, 0..1
    Q_PROPERTY(QStringList bandLabels READ bandLabels CONSTANT)
    Q_PROPERTY(double level READ level NOTIFY metersChanged)
    Q_PROPERTY(double beat READ beat NOTIFY metersChanged)  // 1 on an onset, fading to 0
    Q_PROPERTY(double bpm READ bpm NOTIFY metersChanged)
    Q_PROPERTY(double tempoConfidence READ tempoConfidence NOTIFY metersChanged)

public:
    enum Source { NoSource = 0, FileSource, InputSource };
    Q_ENUM(Source)
    static constexpr double kFrameRate = 60;  // analysis frames per second: one per simulation step
    static constexpr int kMaxLatencyMs = 1000;

    explicit AudioController(std::shared_ptr<AudioFeed> feed, QObject* parent = nullptr);
    ~AudioController() override;

    int source() const { return source_; }
    QStringList inputDevices() const;
    int inputDevice() const { return inputIndex_; }
    bool hasOutput() const { return !output_.isNull(); }
    QString outputName() const { return output_.description(); }
    QString deviceNote() const;
    QString status() const { return status_; }
    bool loading() const { return loading_; }
    double loadProgress() const { return loadProgress_; }
    QString fileName() const;
    QString filePath() const { return trackPath_; }
    double duration() const { return playback_.duration(); }
    double position() const { return playback_.position(); }
    bool playing() const { return playback_.playing(); }
    bool audible() const { return playback_.audible(); }  // heard through an output, not on the clock alone
    bool loop() const { return playback_.loop(); }
    void setLoop(bool loop);
    int latencyMs() const { return latencyMs_; }
    void setLatencyMs(int ms);
    int maxLatencyMs() const { return kMaxLatencyMs; }
    bool driving() const { return driving_; }
    QVariantList named() const { return named_; }
    QVariantList bands() const { return bands_; }
    QStringList bandLabels() const { return bandLabels_; }
    double level() const { return level_; }
    double beat() const { return beat_; }
    double bpm() const { return bpm_; }
    double tempoConfidence() const { return tempoConfidence_; }

    // A file path or a file:// URL; decoded and analysed in the background.
    // The current source keeps playing until the new one is ready; a file
    // that cannot be read leaves it untouched and reports why. play: start
    // playing as soon as it is ready.
    Q_INVOKABLE void openFile(const QString& pathOrUrl, bool play = false);
    Q_INVOKABLE void play();
    Q_INVOKABLE void pause();
    Q_INVOKABLE void togglePlay();
    Q_INVOKABLE void seek(double seconds);
    Q_INVOKABLE void seekBy(double seconds) { seek(position() + seconds); }
    Q_INVOKABLE void useInput(int index);
    Q_INVOKABLE void closeSource();
    Q_INVOKABLE void refreshDevices();

    // The loaded file's analysis (null without one), for the export.
    std::shared_ptr<const cli::AnalysedTrack> track() const { return track_; }

signals:
    void sourceChanged();
    void devicesChanged();
    void statusChanged();
    void loadingChanged();
    void trackChanged();
    void positionChanged();
    void transportChanged();
    void latencyChanged();
    void metersChanged();  // 30 times a second while a source is set
    void problem(const QString& message);

private:
    // The input chosen has started: it replaces the file or input before.
    void switchToInput(const QString& name);
    void finishLoad(std::uint64_t generation, std::shared_ptr<cli::AnalysedTrack> track, const QString& error);
    void cancelLoad();
    // While a file is read: whether it plays once read, said in the status.
    void planPlayWhenLoaded(bool play);
    // A file is read and there is nothing to play meanwhile: no file yet,
    // or the last one run to its end.
    bool nothingToPlayWhileLoading() const;
    void setStatus(const QString& status);
    // A status about the source itself (an input started, failed or gone):
    // while a file loads, "Reading…" stays shown and this one comes back
    // should the load fail.
    void setSourceStatus(const QString& status);
    void setSource(Source source);
    void updateMeters();
    void clearMeters();

    std::shared_ptr<AudioFeed> feed_;
    TrackPlayback playback_;
    LiveInput live_;
    QMediaDevices devices_;
    QList<QAudioDevice> inputs_;
    QAudioDevice output_;
    // The input's place in inputs_, or -1 (none, or an empty id).
    int indexOfInput(const QByteArray& id) const;
    // Whether the system's inputs or default output differ from those known.
    bool devicesDiffer() const;
    QTimer devicePoll_;

    int inputIndex_ = -1;      // the input chosen (opening, or listening)
    QAudioDevice listening_;  // the input that listens, while another opens
    Source source_ = NoSource;
    QString status_;

    std::shared_ptr<const cli::AnalysedTrack> track_;
    QString trackPath_;
    QString loadingPath_;
    std::unique_ptr<QThread> loader_;
    std::shared_ptr<std::atomic<bool>> loadCancelled_;
    std::uint64_t loadGeneration_ = 0;
    bool loading_ = false;
    bool playWhenLoaded_ = false;  // the file being read plays once read
    double loadProgress_ = 0;
    int latencyMs_ = 0;

    QTimer meterTimer_;
    bool driving_ = false;
    QVariantList named_, bands_;
    QStringList bandLabels_;
    double level_ = 0, beat_ = 0, bpm_ = 0, tempoConfidence_ = 0;
    QString statusBeforeLoad_;
    AudioFeatures frame_;
};

}  // namespace mirofish::editor
