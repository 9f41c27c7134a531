#include "export_settings.hpp"

#include <QFileInfo>
#include <QStandardPaths>

#include "io/file_names.hpp"

namespace mirofish::render {

OutputKind ExportSettings::kind() const {
    const std::string ext = lowerExtension(output);
    if (ext == ".mp4") return OutputKind::Mp4;
    if (ext == ".mov") return OutputKind::ProRes;
    return OutputKind::PngSequence;
}

std::string ffmpegProgram(const ExportSettings& settings) { return ffmpegProgramNamed(settings.ffmpeg); }

std::string findProgram(const std::string& program) {
    const QString name = QString::fromStdString(program);
    if (name.contains('/')) {
        const QFileInfo info(name);
        return info.isFile() && info.isExecutable() ? info.absoluteFilePath().toStdString() : std::string{};
    }
    return QStandardPaths::findExecutable(name).toStdString();
}

std::string stoppedOutputNote(const ExportSettings& settings, std::uint64_t framesWritten) {
    if (settings.kind() != OutputKind::PngSequence) return "no video was kept";
    // Stopped before the first frame, the folders the export made are gone.
    if (framesWritten == 0) return "nothing was written";
    return "the frames written so far stay in " + settings.output.string();
}

}  // namespace mirofish::render
