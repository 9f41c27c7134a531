#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/preset_paths.hpp"
#include "io/preset.hpp"
#include "io/printable_text.hpp"

namespace mirofish::cli {

int runValidate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const CommandSpec spec{"validate", "mirofish validate FILE|ID...",
                           "Checks preset files: every key known, every value of the right type and in range. "
                           "Each is found as --preset finds it: a bare name is a preset's id first, a path the file.",
                           {}, true};
    return runCommand(spec, argv, out, err, [&](const Args& args) {
        if (args.positional().empty()) throw ArgError("name at least one preset file");
        int status = kExitOk;
        for (const std::string& given : args.positional()) {
            try {
                // As --preset finds it: a bare name is the preset of that id
                // before anything of that name here (a folder of frames
                // rendered from it, a state saved as it), a path the file.
                // "validate my-school" said only that there was no such file,
                // where `edit --preset my-school` opened it.
                std::filesystem::path file = given;
                if (const auto found = resolvePreset(given, presetSearchPath())) {
                    file = *found;
                } else if (std::error_code ec; !std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
                    // `presets` lists ids, not files: where your own are read from is what a
                    // preset put in the wrong folder needs.
                    const std::filesystem::path yours = userPresetDirectory();
                    std::string folders;
                    for (const std::string& problem : presetFolderProblems()) folders += "; " + problem;
                    const std::string broken = brokenLinkToPreset(given);
                    throw PresetError(given.find('/') != std::string::npos ? noPresetFile(given)
                                      : !broken.empty()                    ? given + ": " + broken
                                                                           : given +
                                                ": no such file, nor a preset of that id (mirofish presets lists "
                                                    "the ids" +
                                                (yours.empty() ? std::string()
                                                               : "; your own presets are read from " + yours.string()) +
                                                folders + ")");
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
