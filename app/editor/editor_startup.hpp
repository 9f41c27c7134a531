#pragma once
// What `mirofish` / `mirofish edit` was asked to open, parsed from the
// command line before the window exists.
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace mirofish::editor {

// The window's smallest size (Main.qml's minimumWidth and minimumHeight):
// below it the panels' layout overlaps.
inline constexpr int kMinWindowWidth = 800, kMinWindowHeight = 500;

struct EditorStartup {
    std::string preset;                  // id or file; empty: the default preset
    std::optional<std::uint32_t> fish;   // overrides the preset's count
    int width = 1280, height = 720;      // window size
    std::optional<std::pair<float, float>> world;  // overrides the preset's world size
    bool paused = false;                 // start paused
    bool fullscreen = false;
    double quitAfterSeconds = 0;         // > 0: close after this long (measurements, smoke tests)
    bool reportFrameRate = false;        // print the view's frame rate every second on stdout
    std::string screenshot;              // with quitAfterSeconds: save a grab of the window here before closing
    // Shown at start, when given: exactly these of neighbours, forces, vision,
    // grid, stats, help (none: an empty list). Not given: the stats panel alone.
    std::optional<std::vector<std::string>> overlays;
    std::string audio;                   // an audio file to open and play as soon as it is analysed
    int panelTab = 0;                    // the side panel's tab: 0 parameters, 1 presets, 2 audio
};

// Parses `mirofish edit` options; returns nullopt after writing a one-line
// reason (or the help) to `err`/`out`. `exitCode` is set in that case.
std::optional<EditorStartup> parseEditorArgs(const std::vector<std::string>& args, std::ostream& out,
                                             std::ostream& err, int& exitCode);

// Runs the editor window until it is closed; returns the exit code.
int runEditor(int argc, char** argv, const EditorStartup& startup);

}  // namespace mirofish::editor
