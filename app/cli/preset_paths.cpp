#include "cli/preset_paths.hpp"

#include <cstdlib>
#include <sstream>

#include <unistd.h>

namespace mirofish::cli {

std::vector<std::filesystem::path> presetDirectories() {
    std::vector<std::filesystem::path> dirs;
    if (const char* env = std::getenv("MIROFISH_PRESETS")) {
        std::stringstream s(env);
        std::string dir;
        while (std::getline(s, dir, ':'))
            if (!dir.empty()) dirs.emplace_back(dir);
    }
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) dirs.push_back(exe.parent_path().parent_path() / "share" / "mirofish" / "presets");
    dirs.emplace_back(MIROFISH_PRESET_DIR);
    return dirs;
}

Preset loadPresetByName(const std::string& nameOrFile) {
    const auto dirs = presetDirectories();
    const auto file = resolvePreset(nameOrFile, dirs);
    if (!file) {
        std::string known;
        for (const PresetInfo& p : listPresets(dirs)) known += (known.empty() ? "" : ", ") + p.id;
        throw PresetError("no preset or file named '" + nameOrFile + "' (known presets: " + known + ")");
    }
    return loadPreset(*file);
}

}  // namespace mirofish::cli
