#include "live_input.hpp"

#include <QMetaObject>
#include <cstring>

namespace mirofish::editor {

namespace {
constexpr qint64 kCaptureBufferMicroseconds = 10'000;

float sampleAt(const char* p, QAudioFormat::SampleFormat format) {
    switch (format) {
        case QAudioFormat::UInt8: return (static_cast<float>(static_cast<unsigned char>(*p)) - 128.0f) / 128.0f;
        case QAudioFormat::Int16: {
            std::int16_t v;
            std::memcpy(&v, p, 2);
            return static_cast<float>(v) / 32768.0f;
        }
        case QAudioFormat::Int32: {
            std::int32_t v;
            std::memcpy(&v, p, 4);
            return static_cast<float>(static_cast<double>(v) / 2147483648.0);
        }
        default: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
    }
}
}  // namespace

LiveCapture::~LiveCapture() { stop(); }

void LiveCapture::start(const QAudioDevice& device, quint64 request) {
    // The input listening until now carries on until this one has opened:
    // one that cannot be opened loses nothing, mid-set.
    // The device's own format (no conversion inside Qt); mixed to mono here
    // and analysed at the device's rate, with an FFT sized for it.
    const QAudioFormat format = device.preferredFormat();
    if (!format.isValid() || format.sampleRate() <= 0) {
        emit failed(tr("%1 reports no usable audio format").arg(device.description()), request, source_ != nullptr);
        return;
    }
    auto source = std::make_unique<QAudioSource>(device, format);
    // A 10 ms buffer: Qt's PulseAudio source then delivers every 10 ms. With
    // its default it polled every 50 ms, and a small test program using it
    // received 0.45 s of audio in 2 s through a PulseAudio null device.
    source->setBufferSize(format.bytesForDuration(kCaptureBufferMicroseconds));
    QIODevice* io = source->start();
    if (!io || source->error() != QAudio::NoError) {
        emit failed(tr("Could not open %1 for capture").arg(device.description()), request, source_ != nullptr);
        return;
    }
    stop();
    format_ = format;
    analyzer_ = std::make_unique<LiveAnalyzer>(analyzerConfigFor(format_.sampleRate()));
    source_ = std::move(source);
    io_ = io;
    connect(io_, &QIODevice::readyRead, this, &LiveCapture::readAvailable);
    // A stream that fails later (a sound server's error, a device gone while
    // still listed) is reported: "Listening to" over a school no longer
    // driven looks like silence. Stopped from the event loop, not from
    // inside the failing source's own signal.
    const QAudioSource* watched = source_.get();
    connect(source_.get(), &QAudioSource::stateChanged, this,
            [this, watched, name = device.description(), request](QAudio::State state) {
                if (state != QAudio::StoppedState || source_.get() != watched || source_->error() == QAudio::NoError)
                    return;
                QMetaObject::invokeMethod(
                    this,
                    [this, watched, name, request] {
                        if (source_.get() != watched) return;  // stopped or restarted since
                        stop();
                        emit failed(tr("%1 stopped delivering audio (the device reported an error)").arg(name), request,
                                    false);
                    },
                    Qt::QueuedConnection);
            });
    emit started(device.description(), request);
}

void LiveCapture::stop() {
    if (source_) source_->stop();
    source_.reset();
    io_ = nullptr;
}

void LiveCapture::readAvailable() {
    if (!io_) return;
    const QByteArray bytes = io_->readAll();
    const int frameBytes = format_.bytesPerFrame();
    const int sampleBytes = format_.bytesPerSample();
    const int channels = format_.channelCount();
    const qsizetype frames = bytes.size() / frameBytes;
    mono_.resize(static_cast<std::size_t>(frames));
    for (qsizetype i = 0; i < frames; ++i) {
        float sum = 0;
        for (int c = 0; c < channels; ++c)
            sum += sampleAt(bytes.constData() + i * frameBytes + c * sampleBytes, format_.sampleFormat());
        mono_[static_cast<std::size_t>(i)] = sum / static_cast<float>(channels);
    }
    const auto now = AudioFeed::Clock::now();
    const std::uint64_t endOfChunk = analyzer_->samplesSeen() + mono_.size();
    frames_.clear();
    analyzer_->push(mono_, frames_);
    // Each frame's window ended before the chunk's last sample, which is "now".
    for (const AudioFeatures& f : frames_) {
        const double before = (static_cast<double>(endOfChunk) - f.time * format_.sampleRate()) / format_.sampleRate();
        feed_->pushLive(f, now - std::chrono::duration_cast<AudioFeed::Clock::duration>(std::chrono::duration<double>(before)));
    }
}

LiveInput::LiveInput(std::shared_ptr<AudioFeed> feed, QObject* parent)
    : QObject(parent), capture_(new LiveCapture(std::move(feed))) {
    capture_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, capture_, &QObject::deleteLater);
    connect(capture_, &LiveCapture::started, this, [this](const QString& name, quint64 request) {
        if (request != request_) return;
        listening_ = request;
        answered_ = true;
        emit started(name);
    });
    // After another input failed to open (a later request), the one still
    // listening may fail too: its stream's error carries its own request.
    // While a later start is still opening, its answer says it all.
    connect(capture_, &LiveCapture::failed, this, [this](const QString& message, quint64 request, bool stillListening) {
        const bool listeningStopped = request == listening_ && !stillListening;
        if (listeningStopped) listening_ = 0;
        if (request == request_) answered_ = true;
        if (request == request_ || (listeningStopped && answered_)) emit failed(message, stillListening);
    });
    thread_.setObjectName(QStringLiteral("live audio input"));
    thread_.start();
}

LiveInput::~LiveInput() {
    stop();
    thread_.quit();
    thread_.wait();
}

void LiveInput::start(const QAudioDevice& device) {
    const quint64 request = ++request_;
    answered_ = false;
    QMetaObject::invokeMethod(capture_, [c = capture_, device, request] { c->start(device, request); },
                              Qt::QueuedConnection);
}

void LiveInput::stop() {
    ++request_;
    listening_ = 0;
    answered_ = true;
    QMetaObject::invokeMethod(capture_, [c = capture_] { c->stop(); }, Qt::QueuedConnection);
}

}  // namespace mirofish::editor
