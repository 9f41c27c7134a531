// mirofish: the command-line entry point. Without a subcommand it runs the
// default preset headless and prints its metrics (the editor will take over
// this role when it exists).
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/preset_paths.hpp"

namespace {
const char* kUsage =
    "usage: mirofish [COMMAND] [options]\n"
    "\n"
    "MiroFish simulates a school of fish (separation, alignment, cohesion, field of view,\n"
    "soft boundaries, noise). Without a command it runs the default preset headless.\n"
    "\n"
    "commands:\n"
    "  simulate   run a preset headless and print metrics as JSON lines\n"
    "  bench      measure simulation speed\n"
    "  validate   check preset files\n"
    "  presets    list presets (or parameters with --params)\n"
    "\n"
    "'mirofish COMMAND --help' describes each command.\n";
}

int main(int argc, char** argv) {
    using namespace mirofish::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << "mirofish: running the default preset '" << kDefaultPreset
                  << "' headless for 10 s of simulated time (see 'mirofish --help')\n";
        return runSimulate({"--preset", kDefaultPreset, "--steps", "600", "--metrics-every", "60"}, std::cout, std::cerr);
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "simulate") return runSimulate(args, std::cout, std::cerr);
    if (command == "bench") return runBench(args, std::cout, std::cerr);
    if (command == "validate") return runValidate(args, std::cout, std::cerr);
    if (command == "presets") return runPresets(args, std::cout, std::cerr);
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return kExitOk;
    }
    std::cerr << "mirofish: unknown command '" << command << "' (see 'mirofish --help')\n";
    return kExitBadInput;
}
