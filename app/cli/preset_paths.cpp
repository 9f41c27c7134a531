#include "cli/preset_paths.hpp"

#include <cstdlib>
#include <sstream>

#include <unistd.h>

#include "io/whole_file.hpp"

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

std::filesystem::path userPresetDirectory() {
    if (const char* env = std::getenv("MIROFISH_USER_PRESETS"); env && *env) {
        // Set in quotes (a launcher's Environment= line, '~/mine' in a shell),
        // ~ reached us as it is and named a folder "~" in the working folder,
        // while the messages said "~/mine". The home folder, as a shell reads
        // it; a relative folder is the working folder's, and said whole.
        std::string dir = env;
        const char* home = std::getenv("HOME");
        if ((dir == "~" || dir.starts_with("~/")) && home && *home) dir.replace(0, 1, home);
        std::error_code ec;
        const std::filesystem::path whole = std::filesystem::absolute(dir, ec);
        return ec ? std::filesystem::path(dir) : whole;
    }
    std::filesystem::path data;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && std::filesystem::path(xdg).is_absolute())
        data = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        data = std::filesystem::path(home) / ".local" / "share";
    else
        return {};
    return data / "MiroFish" / "MiroFish" / "presets";
}

std::vector<std::filesystem::path> presetSearchPath() {
    auto dirs = presetDirectories();
    if (auto user = userPresetDirectory(); !user.empty()) dirs.push_back(std::move(user));
    return dirs;
}

std::string noPresetFile(const std::string& path) {
    std::error_code ec;
    const bool withJson = std::filesystem::is_regular_file(path + ".json", ec);
    return "no preset file '" + path + "'" + (withJson ? " (there is '" + path + ".json')" : std::string());
}

std::filesystem::path presetFileByName(const std::string& nameOrFile) {
    const auto dirs = presetSearchPath();
    const auto file = resolvePreset(nameOrFile, dirs);
    if (!file) {
        if (const std::string what = notARegularFile(nameOrFile); !what.empty())
            throw PresetError(nameOrFile + ": " + what + ", not a preset file");
        if (nameOrFile.find('/') != std::string::npos) throw PresetError(noPresetFile(nameOrFile));
        std::string known;
        for (const PresetInfo& p : listPresets(dirs)) known += (known.empty() ? "" : ", ") + p.id;
        throw PresetError("no preset or file named '" + nameOrFile + "' (known presets: " + known + ")");
    }
    return *file;
}

Preset loadPresetByName(const std::string& nameOrFile) { return loadPreset(presetFileByName(nameOrFile)); }

}  // namespace mirofish::cli
