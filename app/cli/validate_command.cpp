#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "io/preset.hpp"
#include "io/printable_text.hpp"

namespace mirofish::cli {

int runValidate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const CommandSpec spec{"validate", "mirofish validate FILE...",
                           "Checks preset files: every key known, every value of the right type and in range.",
                           {}, true};
    return runCommand(spec, argv, out, err, [&](const Args& args) {
        if (args.positional().empty()) throw ArgError("name at least one preset file");
        int status = kExitOk;
        for (const std::string& file : args.positional()) {
            try {
                const Preset p = loadPreset(file);
                out << printableText(file) << ": ok (" << p.name << ", " << p.scene.fishCount << " fish)\n";
            } catch (const PresetError& e) {
                // It may quote the file's text: a key holding an escape sequence cleared the terminal.
                err << "mirofish validate: " << printableText(e.what()) << "\n";
                status = kExitBadInput;
            }
        }
        return status;
    });
}

}  // namespace mirofish::cli
