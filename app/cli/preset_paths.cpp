#include "cli/preset_paths.hpp"

#include <cstdlib>
#include <optional>
#include <sstream>

#include <unistd.h>

#include "io/broken_link.hpp"
#include "io/home_folder.hpp"
#include "io/whole_file.hpp"

namespace mirofish::cli {

namespace {
// A folder named in the environment: ~ the home folder (withHomeFolder; it
// named a folder "~" in the working folder), none where HOME is not set. A
// relative folder is the working folder's, said whole.
std::optional<std::filesystem::path> environmentFolder(const std::string& value) {
    const std::optional<std::string> dir = withHomeFolder(value);
    if (!dir) return std::nullopt;
    std::error_code ec;
    const std::filesystem::path whole = std::filesystem::absolute(*dir, ec);
    return ec ? std::filesystem::path(*dir) : whole;
}

std::vector<std::string> presetsVariable() {
    std::vector<std::string> folders;
    if (const char* env = std::getenv("MIROFISH_PRESETS")) {
        std::stringstream s(env);
        std::string dir;
        while (std::getline(s, dir, ':'))
            if (!dir.empty()) folders.push_back(dir);
    }
    return folders;
}

// Empty where `dir` is a folder, or why it is none.
std::string noFolder(const std::filesystem::path& dir) {
    std::error_code ec;
    if (std::filesystem::is_directory(dir, ec)) return {};
    if (const std::string link = brokenLinkOnTheWay(dir); !link.empty()) return link;
    return std::filesystem::exists(dir, ec) ? "'" + dir.string() + "' is no folder" : "'" + dir.string() + "' is not there";
}
}  // namespace

std::vector<std::filesystem::path> presetDirectories() {
    std::vector<std::filesystem::path> dirs;
    for (const std::string& dir : presetsVariable())
        if (auto folder = environmentFolder(dir)) dirs.push_back(std::move(*folder));
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) dirs.push_back(exe.parent_path().parent_path() / "share" / "mirofish" / "presets");
    dirs.emplace_back(MIROFISH_PRESET_DIR);
    return dirs;
}

std::filesystem::path userPresetDirectory() {
    if (const char* env = std::getenv("MIROFISH_USER_PRESETS"); env && *env) return environmentFolder(env).value_or("");
    std::filesystem::path data;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && std::filesystem::path(xdg).is_absolute())
        data = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        data = std::filesystem::path(home) / ".local" / "share";
    else
        return {};
    return data / "MiroFish" / "MiroFish" / "presets";
}

std::vector<std::string> presetFolderProblems() {
    std::vector<std::string> problems;
    for (const std::string& dir : presetsVariable()) {
        const auto folder = environmentFolder(dir);
        const std::string why = folder ? noFolder(*folder) : "it " + std::string(kTildeWithoutHome);
        if (!why.empty()) problems.push_back("$MIROFISH_PRESETS names '" + dir + "': " + why);
    }
    if (const char* env = std::getenv("MIROFISH_USER_PRESETS"); env && *env && !environmentFolder(env))
        problems.push_back("$MIROFISH_USER_PRESETS is '" + std::string(env) + "', which " + kTildeWithoutHome);
    // Your folder may not be there yet (nothing saved): only a link that
    // leads nowhere or a file in its place hides presets.
    if (const std::filesystem::path yours = userPresetDirectory(); !yours.empty()) {
        std::error_code ec;
        const std::string link = brokenLinkOnTheWay(yours);
        if (!link.empty())
            problems.push_back("your presets folder: " + link);
        else if (std::filesystem::exists(yours, ec) && !std::filesystem::is_directory(yours, ec))
            problems.push_back("your presets folder '" + yours.string() + "' is no folder");
    }
    return problems;
}

std::vector<std::filesystem::path> presetSearchPath() {
    auto dirs = presetDirectories();
    if (auto user = userPresetDirectory(); !user.empty()) dirs.push_back(std::move(user));
    return dirs;
}

std::string noPresetFile(const std::string& path) {
    std::error_code ec;
    const bool withJson = std::filesystem::is_regular_file(path + ".json", ec);
    if (const std::string broken = brokenLinkOnTheWay(path); !broken.empty())
        return "no preset file '" + path + "': " + broken;
    return "no preset file '" + path + "'" + (withJson ? " (there is '" + path + ".json')" : std::string());
}

std::string brokenLinkToPreset(const std::string& name) {
    std::vector<std::filesystem::path> candidates{name};
    for (const std::filesystem::path& dir : presetSearchPath()) {
        candidates.push_back(dir / (name + ".json"));
        candidates.push_back(dir / name);
    }
    // The file itself a link that leads nowhere: a preset folder that is
    // one is said by `presets` and `validate`, and a typo's message keeps its
    // list of the presets there are.
    for (const std::filesystem::path& candidate : candidates) {
        std::error_code ec;
        if (!std::filesystem::is_symlink(std::filesystem::symlink_status(candidate, ec)) ||
            std::filesystem::exists(candidate, ec))
            continue;
        if (std::string broken = brokenLinkOnTheWay(candidate); !broken.empty()) return broken;
    }
    return {};
}

std::filesystem::path presetFileByName(const std::string& nameOrFile) {
    const auto dirs = presetSearchPath();
    const auto file = resolvePreset(nameOrFile, dirs);
    if (!file) {
        if (const std::string what = notARegularFile(nameOrFile); !what.empty())
            throw PresetError(nameOrFile + ": " + what + ", not a preset file");
        if (nameOrFile.find('/') != std::string::npos) throw PresetError(noPresetFile(nameOrFile));
        if (const std::string broken = brokenLinkToPreset(nameOrFile); !broken.empty())
            throw PresetError("no preset or file named '" + nameOrFile + "': " + broken);
        std::string known;
        for (const PresetInfo& p : listPresets(dirs)) known += (known.empty() ? "" : ", ") + p.id;
        throw PresetError("no preset or file named '" + nameOrFile + "' (known presets: " + known + ")");
    }
    return *file;
}

Preset loadPresetByName(const std::string& nameOrFile) { return loadPreset(presetFileByName(nameOrFile)); }

}  // namespace mirofish::cli
