#pragma once
// Exports as a user makes them: ExportJob in this process (which runs under
// Xvfb, like the editor tests), or the mirofish executable as a script runs it.
#include <QImage>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/preset_paths.hpp"
#include "render/export_job.hpp"
#include "support/shell.hpp"
#include "support/sim_fixtures.hpp"

namespace mirofish::test {

inline render::ExportSettings smallExport(const std::filesystem::path& output, std::uint64_t frames = 30) {
    render::ExportSettings s;
    s.preset = cli::loadPresetByName("gentle-cruise");
    s.preset.scene.fishCount = 400;
    s.width = 320;
    s.height = 180;
    s.fps = 30;
    s.frames = frames;
    s.output = output;
    return s;
}

// Runs the whole export.
inline void runExport(const render::ExportSettings& settings) {
    render::ExportJob job(settings);
    while (job.step()) {
    }
}

inline std::string fileBytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Whether a partial copy of `file` (FILE.part, a video's FILE.part-PID) is
// left beside it.
inline bool partialLeftBeside(const std::filesystem::path& file) {
    for (const auto& e : std::filesystem::directory_iterator(file.parent_path()))
        if (e.path().filename().string().starts_with(file.filename().string() + ".part")) return true;
    return false;
}

inline std::filesystem::path framePath(const std::filesystem::path& folder, int index) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06d.png", index);
    return folder / name;
}

// A pixel clearly not the water (#0b1622): something was drawn there.
inline bool lit(QRgb c) {
    return std::abs(qRed(c) - 0x0b) + std::abs(qGreen(c) - 0x16) + std::abs(qBlue(c) - 0x22) > 24;
}

// Share of the frame's pixels that are lit.
inline double litShare(const QImage& image) {
    long count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) count += lit(image.pixel(x, y));
    return static_cast<double>(count) / (image.width() * image.height());
}

}  // namespace mirofish::test
