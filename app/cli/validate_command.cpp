#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/preset_paths.hpp"
#include "io/preset.hpp"
#include "io/printable_text.hpp"

namespace mirofish::cli {

int runValidate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const CommandSpec spec{"validate", "mirofish validate FILE|ID...",
                           "Checks preset files: every key known, every value of the right type and in range. "
                           "A name that is no file here is taken as a preset's id, as the other commands take it.",
                           {}, true};
    return runCommand(spec, argv, out, err, [&](const Args& args) {
        if (args.positional().empty()) throw ArgError("name at least one preset file");
        int status = kExitOk;
        for (const std::string& given : args.positional()) {
            try {
                // The file first (validate checks files); then, for a bare
                // name, the preset of that id: "validate my-school" said only
                // that there was no such file, where `edit` opened it.
                std::filesystem::path file = given;
                std::error_code ec;
                if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec)) &&
                    given.find('/') == std::string::npos) {
                    const auto found = resolvePreset(given, presetSearchPath());
                    if (!found)
                        throw PresetError(given + ": no such file, nor a preset of that id (mirofish presets lists "
                                                  "the presets and their files)");
                    file = *found;
                }
                const Preset p = loadPreset(file);
                out << printableText(given);
                if (file != given) out << " (" << printableText(file.string()) << ")";
                out << ": ok (" << p.name << ", " << p.scene.fishCount << " fish)\n";
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
