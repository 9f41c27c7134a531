#include "export_controller.hpp"

#include <filesystem>
#include <stdexcept>

#include <QDateTime>
#include <QDir>
#include <QPainter>
#include <QQuickWindow>
#include <QQuickItem>
#include <QQuickItemGrabResult>
#include <QStandardPaths>
#include <QUrl>

#include "editor.hpp"
#include "io/atomic_file.hpp"
#include "io/home_folder.hpp"
#include "io/whole_path.hpp"
#include "render/export_job.hpp"
#include "render/frame_sink.hpp"
#include "render/png_file.hpp"

namespace mirofish::editor {

namespace {
// The longest the event loop waits in one turn for an export frame's
// simulation: 20 ms keeps the window answering at 50 Hz, and a frame of
// ordinary settings is simulated well within it, in one turn.
constexpr std::chrono::milliseconds kSimulationWait{20};

// A path typed by hand or a file: URL from a file dialog, made absolute so
// that the messages say where the export went: ~ is the home folder, as in
// a shell, and a relative path is taken from the working folder. Where that
// folder cannot be read (deleted while the editor runs), a relative path is
// refused by name (wholePath): the throw of absolute() reached QML from a
// binding and ended the editor at the first key typed.
std::filesystem::path localPath(const QVariant& value) {
    const QString text = value.toString();
    if (text.isEmpty()) return {};
    const QUrl url(text);
    const QString path = url.isLocalFile() ? url.toLocalFile() : text;
    const std::optional<std::string> local = withHomeFolder(path.toStdString());
    if (!local) throw std::runtime_error("'" + text.toStdString() + "' " + kTildeWithoutHome);
    return wholePath(*local);
}

// localPath, or none where it cannot be told: for the dialog's questions
// while a path is typed, which the export's start answers with the reason.
std::filesystem::path localPathOrNone(const QVariant& value) {
    try {
        return localPath(value);
    } catch (const std::exception&) {
        return {};
    }
}

// The user's folder of this kind (~/Movies, ~/Pictures), or none without a
// home: with HOME unset Qt names them at the root ("/Pictures"), where a
// user may not write and root should not.
QString userFolder(QStandardPaths::StandardLocation kind) {
    if (qEnvironmentVariableIsEmpty("HOME")) return {};
    const QString dir = QStandardPaths::writableLocation(kind);
    return dir.isEmpty() ? QDir::homePath() : dir;
}

}  // namespace

ExportController::ExportController(QObject* parent) : QObject(parent) {
    // One frame per turn of the event loop: input and painting go between frames.
    ticker_.setInterval(0);
    connect(&ticker_, &QTimer::timeout, this, &ExportController::step);
}

ExportController::~ExportController() = default;

int ExportController::framesDone() const { return job_ ? static_cast<int>(job_->framesDone()) : 0; }
int ExportController::framesTotal() const { return job_ ? static_cast<int>(job_->framesTotal()) : 0; }
bool ExportController::warmingUp() const { return job_ && job_->warmingUp(); }
double ExportController::warmedUpSeconds() const { return job_ ? job_->warmedUpSeconds() : 0.0; }
double ExportController::warmupSeconds() const { return job_ ? job_->warmupSeconds() : 0.0; }
bool ExportController::finishing() const { return job_ && job_->finishing(); }
bool ExportController::readingAudio() const { return job_ && job_->readingAudio(); }
bool ExportController::writingVideo() const {
    return job_ && job_->settings().kind() != render::OutputKind::PngSequence;
}
bool ExportController::ffmpegFound() const { return !render::findProgram(render::ffmpegProgram({})).empty(); }

QString ExportController::defaultOutput() const {
    const QString movies = userFolder(QStandardPaths::MoviesLocation);
    return movies.isEmpty() ? QString() : QDir(movies).filePath("mirofish-export");
}

bool ExportController::start(const QVariantMap& options) {
    if (job_) return false;
    if (!editor_) {
        finish(tr("No editor to export from"), true);
        return false;
    }
    try {
        job_ = std::make_unique<render::ExportJob>(settingsFrom(options));
    } catch (const std::exception& e) {
        finish(QString::fromStdString(e.what()), true);
        return false;
    }
    status_.clear();
    failed_ = false;
    audioWarning_.clear();
    clockStarted_ = false;
    framesPerSecond_ = secondsLeft_ = 0;
    ticker_.start();
    emit stateChanged();
    emit progressChanged();
    return true;
}

render::ExportSettings ExportController::settingsFrom(const QVariantMap& options) const {
    render::ExportSettings s;
    const SimStats stats = editor_->currentStats();
    s.width = options.value("width", 1920).toInt();
    s.height = options.value("height", 1080).toInt();
    s.fitWorld = options.value("fitWorld", false).toBool();
    s.fps = options.value("fps", 30).toDouble();
    s.frames = static_cast<std::uint64_t>(std::max(0.0, options.value("frames", 0).toDouble()));
    s.warmupSeconds = options.value("warmup", 0).toDouble();
    s.alpha = options.value("alpha", false).toBool();
    s.crf = options.value("crf", 18).toInt();
    s.output = localPath(options.value("output"));
    s.audioFile = localPath(options.value("audio")).string();
    // Spawned from what saving the preset would write now (README).
    s.preset = presetAsSaved(editor_->currentPreset());
    s.preset.scene.width = stats.worldWidth;
    s.preset.scene.height = stats.worldHeight;
    return s;
}

bool ExportController::refusesSettings(const QVariantMap& options) {
    if (job_ || !editor_) return false;  // start() says why
    try {
        render::checkSettings(settingsFrom(options));
        return false;
    } catch (const std::exception& e) {
        finish(QString::fromStdString(e.what()), true);
        return true;
    }
}

QString ExportController::videoToReplace(const QString& output) const {
    render::ExportSettings s;
    s.output = localPathOrNone(output);
    if (s.output.empty() || s.kind() == render::OutputKind::PngSequence) return {};
    const FileTarget target = fileTarget(s.output);
    std::error_code ec;
    if (!target.refusal.empty() || !std::filesystem::is_regular_file(target.path, ec)) return {};
    return QString::fromStdString(target.path.string());
}

bool ExportController::namesAnotherKind(const QString& output) const {
    const std::filesystem::path path = localPathOrNone(output);
    return !path.empty() && !render::otherKindRefusal(path).empty();
}

QUrl ExportController::folderAround(const QString& output) const {
    std::filesystem::path path = localPathOrNone(output);
    // No name, or one that cannot be placed (the working folder deleted):
    // the user's videos or home, not the working folder, which a file dialog
    // took then and showed as an endless ".. > .. > ..".
    if (path.empty()) {
        const QString movies = userFolder(QStandardPaths::MoviesLocation);
        return movies.isEmpty() ? QUrl() : QUrl::fromLocalFile(movies);
    }
    if (!path.has_filename()) path = path.parent_path();  // "frames/"
    std::filesystem::path folder = path.parent_path();
    std::error_code ec;
    while (folder.has_relative_path() && !std::filesystem::is_directory(folder, ec)) folder = folder.parent_path();
    return QUrl::fromLocalFile(QString::fromStdString(folder.string()));
}

void ExportController::cancel() {
    if (!job_) return;
    const render::ExportSettings settings = job_->settings();
    const auto handedOver = job_->framesDone();
    job_.reset();  // its PNG writers drop the frames still queued
    const auto done = render::framesWritten(settings, handedOver);
    const QString left = QString::fromStdString(render::stoppedOutputNote(settings, done));
    finish(done == 1 ? tr("Export cancelled after 1 frame; %1").arg(left)
                     : tr("Export cancelled after %1 frames; %2").arg(done).arg(left),
           false);
}

void ExportController::step() {
    try {
        // The frame's simulation runs on a thread of its own; waiting for it
        // in slices keeps the window answering when a step takes seconds.
        if (!job_->stepFor(kSimulationWait)) {
            const auto& t = job_->times();
            const QString exported =
                job_->framesTotal() == 1 ? tr("Exported 1 frame") : tr("Exported %1 frames").arg(job_->framesTotal());
            const double rate = t.total > 0 ? static_cast<double>(job_->framesTotal()) / t.total : 0.0;
            // One arg() for all three: a '%1' in the folder's name stays as it is.
            const QString done = tr("%1 to %2 (%3 frames per second)")
                                     .arg(exported, QString::fromStdString(job_->settings().output.string()),
                                          QString::number(rate, 'f', 1));
            finish(audioWarning_.isEmpty() ? done : done + '\n' + audioWarning_, false);
            return;
        }
    } catch (const std::exception& e) {
        finish(QString::fromStdString(e.what()), true);
        return;
    }
    // A file read only in part (a WAV cut short): said once it is read, where
    // it stays, and with the outcome.
    if (audioWarning_.isEmpty() && !job_->readingAudio() && !job_->audioWarning().empty()) {
        audioWarning_ = QString::fromStdString(job_->audioWarning());
        if (editor_) editor_->showMessage(audioWarning_, true);
    }
    // The rate counts written frames from the first one (the warm-up is not a frame).
    if (!clockStarted_ && job_->framesDone() > 0) {
        clock_.start();
        framesAtClock_ = job_->framesDone();
        clockStarted_ = true;
    }
    if (clockStarted_ && clock_.elapsed() > 0) {
        framesPerSecond_ = static_cast<double>(job_->framesDone() - framesAtClock_) * 1000.0 / clock_.elapsed();
        secondsLeft_ = framesPerSecond_ > 0
                           ? static_cast<double>(job_->framesTotal() - job_->framesDone()) / framesPerSecond_
                           : 0.0;
    }
    emit progressChanged();
}

void ExportController::finish(const QString& status, bool failed) {
    ticker_.stop();
    job_.reset();  // an unfinished job removes what it began
    status_ = status;
    failed_ = failed;
    if (editor_) editor_->showMessage(status, failed);
    emit stateChanged();
    emit progressChanged();
}

QString ExportController::saveStill(QQuickItem* item, int width, int height, const QString& folder) {
    if (!item) return {};
    const QString dir = folder.isEmpty() ? userFolder(QStandardPaths::PicturesLocation) : folder;
    if (dir.isEmpty()) {
        if (editor_) editor_->showMessage(tr("There is no folder for stills: set HOME; nothing was saved"), true);
        return {};
    }
    QDir().mkpath(dir);
    const QString file =
        QDir(dir).filePath("mirofish-" + QDateTime::currentDateTime().toString("yyyyMMdd-hhmmss-zzz") + ".png");
    // The view's shape, as large as fits in the size asked for: grabbed at
    // another shape the view would be stretched. Without a size, the view's
    // own in the screen's pixels (twice its size in the window's units on a
    // display scaled x2).
    const qreal ratio = item->window() ? item->window()->effectiveDevicePixelRatio() : 1.0;
    const QSize shown = (item->size() * ratio).toSize();
    QSize size = shown;
    if (width > 0 && height > 0) size.scale(width, height, Qt::KeepAspectRatio);
    // With trails on, the fish are drawn into the trail canvas, which holds
    // the view's pixels: a larger still is that canvas enlarged, and says so
    // (an artist took it for a sharp 4K picture of the trails).
    const bool enlargedCanvas = item->property("trails").toBool() && size.width() > shown.width();
    const QSharedPointer<QQuickItemGrabResult> grab = item->grabToImage(size);
    if (!grab) {
        if (editor_) editor_->showMessage(tr("Could not grab the view for a still"), true);
        return {};
    }
    // The grab holds the items alone; the water is the window's colour.
    const QColor water = item->window() ? item->window()->color() : QColor(Qt::black);
    Editor* editor = editor_;
    stillGrabs_.push_back(grab);
    QQuickItemGrabResult* result = grab.data();
    const QString note =
        enlargedCanvas ? tr(" (with trails on, the view's %1 x %2 trail canvas enlarged; an export at this size draws "
                            "the trails sharp)")
                             .arg(shown.width())
                             .arg(shown.height())
                       : QString();
    connect(result, &QQuickItemGrabResult::ready, this, [this, result, file, editor, water, note] {
        QImage still(result->image().size(), QImage::Format_RGB32);
        still.fill(water);
        QPainter(&still).drawImage(0, 0, result->image());
        const std::string why = render::savePngWhole(file.toStdString(), still, false, render::kStillPngLevel);
        if (editor)
            editor->showMessage(why.empty() ? tr("Saved the still %1").arg(file) + note
                                            : tr("Could not write the still %1: %2").arg(file, QString::fromStdString(why)),
                                !why.empty());
        // Let go once this signal has returned: the grab is its sender.
        QMetaObject::invokeMethod(this, [this, result] {
            std::erase_if(stillGrabs_, [result](const auto& g) { return g.data() == result; });
        }, Qt::QueuedConnection);
    });
    return file;
}

}  // namespace mirofish::editor
