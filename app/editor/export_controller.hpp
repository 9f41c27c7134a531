#pragma once
// The editor's export: takes the window's current preset (parameters,
// objects, fish, seed, world) and runs an ExportJob one frame per turn of
// the event loop, so the window stays usable; progress, cancel, and the
// outcome as text. Also saves stills of the view.
#include <QElapsedTimer>
#include <QObject>
#include <QQuickItem>
#include <QQuickItemGrabResult>
#include <QSharedPointer>
#include <QString>
#include <QTimer>
#include <QUrl>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>
#include <memory>
#include <vector>

#include "render/export_settings.hpp"

namespace mirofish::render {
class ExportJob;
}

namespace mirofish::editor {

class Editor;

class ExportController : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(mirofish::editor::Editor* editor MEMBER editor_ NOTIFY editorChanged)
    Q_PROPERTY(bool running READ running NOTIFY stateChanged)
    Q_PROPERTY(int framesDone READ framesDone NOTIFY progressChanged)
    Q_PROPERTY(int framesTotal READ framesTotal NOTIFY progressChanged)
    Q_PROPERTY(double framesPerSecond READ framesPerSecond NOTIFY progressChanged)
    Q_PROPERTY(double secondsLeft READ secondsLeft NOTIFY progressChanged)
    Q_PROPERTY(bool warmingUp READ warmingUp NOTIFY progressChanged)
    // Seconds of the warm-up simulated so far, of warmupSeconds.
    Q_PROPERTY(double warmedUpSeconds READ warmedUpSeconds NOTIFY progressChanged)
    Q_PROPERTY(double warmupSeconds READ warmupSeconds NOTIFY progressChanged)
    // Every frame is written; the output is being completed.
    Q_PROPERTY(bool finishing READ finishing NOTIFY progressChanged)
    // The audio file is being read and analysed, before the first frame.
    Q_PROPERTY(bool readingAudio READ readingAudio NOTIFY progressChanged)
    // The running export writes a video (MP4 or MOV), not PNG frames.
    Q_PROPERTY(bool writingVideo READ writingVideo NOTIFY stateChanged)
    // The last export's outcome (or why it could not start), and whether it failed.
    Q_PROPERTY(QString status READ status NOTIFY stateChanged)
    Q_PROPERTY(bool failed READ failed NOTIFY stateChanged)
    // MP4 and MOV need the ffmpeg program.
    Q_PROPERTY(bool ffmpegFound READ ffmpegFound CONSTANT)
    // A folder under the user's Movies folder.
    Q_PROPERTY(QString defaultOutput READ defaultOutput CONSTANT)

public:
    explicit ExportController(QObject* parent = nullptr);
    ~ExportController() override;

    bool running() const { return job_ != nullptr; }
    int framesDone() const;
    int framesTotal() const;
    double framesPerSecond() const { return framesPerSecond_; }
    double secondsLeft() const { return secondsLeft_; }
    bool warmingUp() const;
    double warmedUpSeconds() const;
    double warmupSeconds() const;
    bool finishing() const;
    bool readingAudio() const;
    bool writingVideo() const;
    QString status() const { return status_; }
    bool failed() const { return failed_; }
    bool ffmpegFound() const;
    QString defaultOutput() const;

    // options: width, height, fitWorld, fps, frames (0 with audio: the audio's length),
    // warmup (s), output (a folder, or a .mp4 / .mov file; a file: URL is
    // accepted), alpha, crf, audio (a file, or empty). Returns false, with
    // the reason in `status`, when it cannot start.
    Q_INVOKABLE bool start(const QVariantMap& options);
    // Whether the settings in `options` are refused by any export (a size,
    // no length): then true, with the reason in `status`, as start() says
    // it. The dialog asks this before it asks to replace a video.
    Q_INVOKABLE bool refusesSettings(const QVariantMap& options);
    Q_INVOKABLE void cancel();
    // The video file an export to `output` (a path or a file: URL) would
    // replace, as a local path: where `output` names an MP4 or MOV (by its
    // extension, as the export decides) and a file is already there, or at
    // the end of a link there. Empty otherwise, and where the export will
    // refuse the output anyway. The dialog asks before it starts such an export.
    Q_INVOKABLE QString videoToReplace(const QString& output) const;
    // Whether `output` is named like something the export refuses to write
    // (render::otherKindRefusal: clip.avi, still.png): the dialog leaves such
    // a name as typed, for the export to say so, not made clip.avi.mp4.
    Q_INVOKABLE bool namesAnotherKind(const QString& output) const;
    // Where the browse dialogs open, as a file: URL: the folder holding
    // `output` (a path or a file: URL), or the nearest one above it that is
    // there. A folder name with '#' or '?' opened the one above it.
    Q_INVOKABLE QUrl folderAround(const QString& output) const;

    // Saves `item` as a PNG, width x height pixels at most in its shape;
    // 0: at its size as the screen shows it, in the screen's pixels. Returns
    // the file written (in `folder`, or the Pictures folder), or empty with
    // the reason shown in the editor's message line.
    Q_INVOKABLE QString saveStill(QQuickItem* item, int width, int height, const QString& folder = {});
    // Stills grabbed and not written yet.
    int stillsPending() const { return static_cast<int>(stillGrabs_.size()); }

signals:
    void editorChanged();
    void stateChanged();
    void progressChanged();

private:
    // The settings `options` give (see start()), of the preset as saving it would write now.
    render::ExportSettings settingsFrom(const QVariantMap& options) const;
    void step();
    void finish(const QString& status, bool failed);
    QString audioWarning_;  // the running export's audio file was read only in part (ExportJob::audioWarning)

    Editor* editor_ = nullptr;
    std::unique_ptr<render::ExportJob> job_;
    QTimer ticker_;
    QElapsedTimer clock_;
    std::uint64_t framesAtClock_ = 0;
    bool clockStarted_ = false;
    double framesPerSecond_ = 0, secondsLeft_ = 0;
    QString status_;
    bool failed_ = false;
    // Each still's grab until its image is written: held here, not by the
    // handler of its own signal, which would keep it and its image for good.
    std::vector<QSharedPointer<QQuickItemGrabResult>> stillGrabs_;
};

}  // namespace mirofish::editor
