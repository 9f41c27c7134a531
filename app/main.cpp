// mirofish: the editor window (no command, or `edit`) and the command-line
// subcommands, which run without any display.
#include <QtQml/qqmlextensionplugin.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/runtime_dir.hpp"
#include "editor/editor_startup.hpp"
#include "io/printable_text.hpp"
#include "render/render_command.hpp"

// The editor's QML module is a static library: pull its plugin in.
Q_IMPORT_QML_PLUGIN(MiroFishPlugin)

namespace {
const char* kUsage =
    "usage: mirofish [COMMAND] [options]\n"
    "\n"
    "MiroFish simulates a school of fish (separation, alignment, cohesion, field of view,\n"
    "soft boundaries, noise). Without a command it opens the editor with the default preset.\n"
    "\n"
    "commands:\n"
    "  edit       open the editor window (the default; 'mirofish edit --help' for its options)\n"
    "  simulate   run a preset headless and print metrics as JSON lines\n"
    "  bench      measure simulation speed\n"
    "  validate   check preset files\n"
    "  presets    list presets (or parameters with --params)\n"
    "  analyze    analyse an audio file: band levels, onsets, tempo per frame\n"
    "  render     render frames or a video offscreen (PNG sequence, MP4, MOV)\n"
    "\n"
    "'mirofish COMMAND --help' (or 'mirofish help COMMAND') describes each command;\n"
    "'mirofish --version' prints the version.\n";

// A standard stream the caller closed (`>&-`) stays closed to the program: its
// number holds /dev/null opened the other way, so that writes to standard
// output or error fail (EBADF) as on a closed stream. Left free, the number
// was taken by the next file opened: render's X11 connection became standard
// output, and the finished video's path was written into it, exit 0.
void keepClosedStreamsClosed() {
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        const int opened = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
        if (opened >= 0 && opened != fd) {
            dup2(opened, fd);
            close(opened);
        }
    }
}

int runEdit(int argc, char** argv, const std::vector<std::string>& args) {
    int exitCode = 0;
    const auto startup = mirofish::editor::parseEditorArgs(args, std::cout, std::cerr, exitCode);
    if (!startup) return exitCode;
    return mirofish::editor::runEditor(argc, argv, *startup);
}
}  // namespace

int main(int argc, char** argv) {
    using namespace mirofish::cli;
    keepClosedStreamsClosed();
    useQuietRuntimeDir();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return runEdit(argc, argv, args);
    // "mirofish help render" is "mirofish render --help", whatever follows
    // (help render --fps: still render's help, not the general one).
    if (args.size() >= 2 && args.front() == "help") args = {args[1], "--help"};
    const std::string command = args.front();
    // A newcomer's first try: it was taken for an editor option, and refused as the editor's.
    const bool version = command == "--version";
    if (command == "--help" || command == "-h" || command == "help" || version) {
        errno = 0;
        std::cout << (version ? "mirofish " MIROFISH_VERSION "\n" : kUsage) << std::flush;
        if (std::cout) return kExitOk;
        std::cerr << "mirofish: could not write the output: " << (errno != 0 ? std::strerror(errno) : "it was refused")
                  << "\n";
        return kExitFailed;
    }
    // Options without a command are the editor's (mirofish --preset NAME).
    if (command.starts_with("--")) return runEdit(argc, argv, args);
    args.erase(args.begin());
    if (command == "edit") return runEdit(argc, argv, args);
    if (command == "simulate") return runSimulate(args, std::cout, std::cerr);
    if (command == "bench") return runBench(args, std::cout, std::cerr);
    if (command == "validate") return runValidate(args, std::cout, std::cerr);
    if (command == "presets") return runPresets(args, std::cout, std::cerr);
    if (command == "analyze") return runAnalyze(args, std::cout, std::cerr);
    if (command == "render") return mirofish::render::runRender(argc, argv, args, std::cout, std::cerr);
    std::cerr << "mirofish: unknown command '" << mirofish::printableText(command) << "' (see 'mirofish --help')\n";
    return kExitBadInput;
}
