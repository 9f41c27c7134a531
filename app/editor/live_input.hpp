#pragma once
// Live input: captures an input device continuously and analyses it on its
// own thread (never the GUI's or the simulation's), pushing each analysis
// frame into the audio feed, stamped with the time its window ended.
#include <QAudioDevice>
#include <QAudioSource>
#include <QObject>
#include <QThread>
#include <memory>
#include <vector>

#include "audio/audio_feed.hpp"
#include "audio/live_analyzer.hpp"

namespace mirofish::editor {

// The worker; lives on LiveInput's thread.
class LiveCapture : public QObject {
    Q_OBJECT
public:
    explicit LiveCapture(std::shared_ptr<AudioFeed> feed) : feed_(std::move(feed)) {}
    ~LiveCapture() override;

public slots:
    // `request`: LiveInput's number for this start, given back with its outcome.
    void start(const QAudioDevice& device, quint64 request);
    void stop();

signals:
    void started(const QString& deviceName, quint64 request);
    // stillListening: the input that listened before a start that failed
    // to open carries on.
    void failed(const QString& message, quint64 request, bool stillListening);

private:
    void readAvailable();

    std::shared_ptr<AudioFeed> feed_;
    std::unique_ptr<QAudioSource> source_;
    QIODevice* io_ = nullptr;
    QAudioFormat format_;
    std::unique_ptr<LiveAnalyzer> analyzer_;
    std::vector<float> mono_;
    std::vector<AudioFeatures> frames_;
};

// Owns the capture thread; the GUI thread's handle.
class LiveInput : public QObject {
    Q_OBJECT
public:
    explicit LiveInput(std::shared_ptr<AudioFeed> feed, QObject* parent = nullptr);
    ~LiveInput() override;
    void start(const QAudioDevice& device);
    void stop();

signals:
    // The outcome of the latest start() only: one that a later start() or a
    // stop() overtook is not reported (it arrives queued from the capture
    // thread, and would name a device no longer chosen).
    void started(const QString& deviceName);
    // stillListening: a start that could not open its device left the input
    // listening until then as it was. Also, whatever started since, the
    // failure of that input listening, which nothing else would report.
    void failed(const QString& message, bool stillListening);

private:
    QThread thread_;
    LiveCapture* capture_;
    quint64 request_ = 0;    // counts start() and stop() calls
    quint64 listening_ = 0;  // the request whose input is listening, 0 for none
    bool answered_ = true;   // the latest start() has been answered (started or failed)
};

}  // namespace mirofish::editor
