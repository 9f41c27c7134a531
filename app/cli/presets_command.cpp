#include <filesystem>
#include <iomanip>
#include <map>
#include <sstream>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/preset_paths.hpp"
#include "io/printable_text.hpp"

namespace mirofish::cli {

namespace {
const std::vector<OptionSpec> kOptions = {
    {"params", "", "list the parameters instead (name, unit, range, default, description)"},
    {"markdown", "", "with --params: print a Markdown table (used for the README)"},
};

void printParams(std::ostream& out, bool markdown) {
    if (markdown) {
        out << "| group | key | unit | range | default | scale | description |\n|---|---|---|---|---|---|---|\n";
    }
    for (const ParamDef& d : paramRegistry()) {
        std::string def;
        if (d.isChoice())
            def = std::string(d.choiceLabels().at(static_cast<std::size_t>(d.defaultValue)));
        else {
            std::ostringstream s;
            s << d.defaultValue;
            def = s.str();
        }
        const std::string scale = d.isChoice()                           ? "choice"
                                  : d.scale == ParamScale::Log           ? "log"
                                  : d.scale == ParamScale::LogFromZero   ? "log from 0"
                                                                         : "linear";
        if (markdown) {
            out << "| " << d.group << " | `" << d.key << "` | " << d.unit << " | " << d.rangeText() << " | " << def
                << " | " << scale << " | " << d.description << " |\n";
        } else {
            out << std::left << std::setw(20) << d.key << std::setw(28) << d.rangeText() << " default " << def << "\n    "
                << d.description << "\n";
        }
    }
}
}  // namespace

int runPresets(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const CommandSpec spec{"presets", "mirofish presets [--params [--markdown]]",
                           "Lists the presets (id, name and description), or the parameters.", kOptions};
    return runCommand(spec, argv, out, err, [&](const Args& args) {
        if (args.has("markdown") && !args.has("params"))
            throw ArgError("--markdown goes with --params: it prints the parameter table in Markdown");
        if (args.has("params")) {
            printParams(out, args.has("markdown"));
            return kExitOk;
        }
        std::vector<std::string> problems;
        const std::filesystem::path yours = userPresetDirectory();
        std::map<std::string, std::filesystem::path> listed;
        for (const PresetInfo& p : listPresets(presetSearchPath(), &problems)) {
            std::error_code ec;
            const bool mine = std::filesystem::equivalent(p.file.parent_path(), yours, ec);
            // The id is a file's name, which may hold anything but a slash.
            out << printableText(p.id) << "  (" << p.name << ")" << (mine ? "  yours" : "") << "\n";
            // Every line of a description indented: one at the margin looked like a preset's id.
            std::istringstream lines(p.description);
            for (std::string line; std::getline(lines, line);) out << (line.empty() ? "" : "    ") << line << "\n";
            if (p.description.empty()) out << "\n";
            listed[p.id] = p.file;
        }
        for (const std::string& problem : problems)
            err << "mirofish presets: skipped " << printableText(problem) << "\n";
        for (const std::string& problem : presetFolderProblems())
            err << "mirofish presets: " << printableText(problem) << "\n";
        // A preset of yours whose id a folder searched earlier already has
        // (a shipped one) never opens by that id: say so, or it seems lost.
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(yours, ec)) {
            const auto other = listed.find(entry.path().stem().string());
            if (entry.path().extension() != ".json" || other == listed.end()) continue;
            std::error_code same;
            if (std::filesystem::equivalent(other->second, entry.path(), same)) continue;
            err << "mirofish presets: skipped "
                << printableText(entry.path().string() + ": " + other->second.string() + " has the same id '" +
                                 other->first + "' and comes first; rename the file to open it")
                << "\n";
        }
        return kExitOk;
    });
}

}  // namespace mirofish::cli
