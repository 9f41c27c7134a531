#pragma once
// Presets: one JSON file each (format "mirofish-preset", version 1) with a
// name, a description, the world size, fish count, seed, any registry
// parameters (missing ones take their defaults), the interaction objects and
// the audio modulation routes.
// Loading validates everything and refuses a bad file with a PresetError that
// names the file, the key and what is allowed.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "audio/modulation.hpp"
#include "sim/scene.hpp"

namespace mirofish {

struct PresetError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Preset {
    Preset() = default;
    Preset(std::string name_, std::string description_, Scene scene_,
           std::optional<std::vector<ModRoute>> routes_ = std::nullopt)
        : name(std::move(name_)), description(std::move(description_)), scene(std::move(scene_)),
          routes(std::move(routes_)) {}

    std::string name;
    std::string description;
    Scene scene;
    // The audio modulation routes ("audioRoutes"). nullopt when the key is
    // missing: the articles' three routes apply (presetAudioRoutes). An empty
    // list is a preset that wants no audio routes at all.
    std::optional<std::vector<ModRoute>> routes;
};

// The routes audio drives this preset with: its own, or defaultRoutes().
ModulationMatrix presetAudioRoutes(const Preset& preset);

inline constexpr int kPresetVersion = 1;
inline constexpr std::uint32_t kMaxFish = 2'000'000;
inline constexpr double kMaxWorldSize = 1e6;
// A preset file's size at most: sixteen thousand times the largest shipped
// one (1 KB), room for a leader's path of several hundred thousand points;
// beyond it, a file in a preset folder is taken for something else.
inline constexpr std::uintmax_t kLargestPresetBytes = 16u << 20;

// `source` names the file in error messages.
Preset parsePreset(std::string_view json, const std::string& source);
Preset loadPreset(const std::filesystem::path& file);
// Pretty JSON with only what a person wants to read: parameters equal to
// their defaults and empty lists are left out.
std::string presetToJson(const Preset& preset);
// Refuses (PresetError) a preset whose audio routes are invalid (validateRoute).
void savePreset(const Preset& preset, const std::filesystem::path& file);
// The preset as saving it and loading the file would give it back: what a
// running scene holds beside it (a predator's speed and next waypoint) is
// left behind. Throws PresetError where loading would refuse it.
Preset presetAsSaved(const Preset& preset);

struct PresetInfo {
    std::string id;  // file name without .json: what --preset takes
    std::string name;
    std::string description;
    std::filesystem::path file;
};

// Presets found in the directories (earlier directories win on equal ids,
// even with a file that fails to load), sorted by id. Files that fail to
// load, and those they hide, are reported in `problems`.
std::vector<PresetInfo> listPresets(const std::vector<std::filesystem::path>& dirs,
                                    std::vector<std::string>* problems = nullptr);

// A preset id (or its file name, ID.json) looked up in the directories, in
// their order, or an existing file path. A bare id (no '/', no .json) finds
// the preset before a file of that name in the current folder; anything else
// finds the file first.
std::optional<std::filesystem::path> resolvePreset(const std::string& nameOrFile,
                                                   const std::vector<std::filesystem::path>& dirs);

}  // namespace mirofish
