#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "io/preset.hpp"

namespace mirofish::cli {

// Where presets are looked up, in order: $MIROFISH_PRESETS (':'-separated),
// the presets/ folder installed beside the binary (../share/mirofish/presets),
// and the source tree's presets/ the binary was built from.
std::vector<std::filesystem::path> presetDirectories();

// The preset given as an id or a file; throws PresetError when not found or invalid.
Preset loadPresetByName(const std::string& nameOrFile);

inline constexpr const char* kDefaultPreset = "gentle-cruise";

}  // namespace mirofish::cli
