#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "io/preset.hpp"

namespace mirofish::cli {

// The folders of presets the editor does not write to, in order:
// $MIROFISH_PRESETS (':'-separated), the presets/ folder installed beside the
// binary (../share/mirofish/presets), and the source tree's presets/ the
// binary was built from.
std::vector<std::filesystem::path> presetDirectories();

// Where the editor saves your presets: $MIROFISH_USER_PRESETS (~ the home
// folder; empty where it starts with ~ and HOME is not set), else
// MiroFish/MiroFish/presets in $XDG_DATA_HOME or ~/.local/share (Qt's
// application data folder of the editor, without Qt).
std::filesystem::path userPresetDirectory();

// Why presets that were meant to be found are not: a folder of
// $MIROFISH_PRESETS that is not there, a ~ without HOME, your presets folder
// a link that leads nowhere or a file. Empty where nothing is amiss.
std::vector<std::string> presetFolderProblems();

// Where a preset id is looked up: presetDirectories(), then your presets (a
// shipped id always means the shipped preset).
std::vector<std::filesystem::path> presetSearchPath();

// Why a preset given as a path (a name with a '/') is not there: "no preset
// file './mine'", naming './mine.json' where that is there.
std::string noPresetFile(const std::string& path);

// Where a bare name finds no preset because a file it would find (NAME
// here, NAME.json or NAME in a preset folder) is itself a link that leads
// nowhere (a drive not mounted): that link (the last of a chain), in
// brokenLinkOnTheWay's words; else empty.
std::string brokenLinkToPreset(const std::string& name);

// The file of the preset given as an id (presetSearchPath) or a file; throws PresetError when not found.
std::filesystem::path presetFileByName(const std::string& nameOrFile);

// The preset given as an id (presetSearchPath) or a file; throws PresetError when not found or invalid.
Preset loadPresetByName(const std::string& nameOrFile);

inline constexpr const char* kDefaultPreset = "gentle-cruise";

}  // namespace mirofish::cli
