#include "cli/args.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <sstream>
#include <unistd.h>

#include "cli/commands.hpp"
#include "io/atomic_file.hpp"
#include "io/file_names.hpp"
#include "io/home_folder.hpp"
#include "io/whole_path.hpp"
#include "io/printable_text.hpp"
#include "params/number_text.hpp"
#include "render/stop_signals.hpp"

namespace mirofish::cli {

Args::Args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs, const std::string& command)
    : command_(command) {
    const bool takesHelp = std::any_of(specs.begin(), specs.end(), [](const OptionSpec& s) { return s.name == "help"; });
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        // "--" ends the options: what follows is file names, "--x.json" too.
        if (a == "--") {
            positional_.insert(positional_.end(), argv.begin() + static_cast<std::ptrdiff_t>(i) + 1, argv.end());
            break;
        }
        // -h as at the top level ("mirofish -h"); validate took it for a file name.
        if (a == "-h" && takesHelp) {
            values_["help"] = "";
            continue;
        }
        if (a.rfind("--", 0) != 0) {
            positional_.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::optional<std::string> inlineValue;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
        if (spec == specs.end()) throw ArgError("unknown option '--" + name + "' (see 'mirofish " + command + " --help')");
        // The last one won without a word: "--out a.mp4 ... --out b" wrote b.
        if (values_.contains(name)) throw ArgError("option '--" + name + "' is given twice; give it once");
        if (spec->valueName.empty()) {
            if (inlineValue) throw ArgError("option '--" + name + "' takes no value");
            values_[name] = "";
            continue;
        }
        if (inlineValue) {
            // The shell reads ~ as the home folder in "--out ~/clips" but not
            // in "--out=~/clips", where a folder named ~ appeared in the
            // working folder: read it here as the shell would have.
            const std::optional<std::string> local = withHomeFolder(*inlineValue);
            if (!local) throw ArgError("option '--" + name + "' is '" + *inlineValue + "', which " + kTildeWithoutHome);
            values_[name] = *local;
        } else {
            // "--fish --steps 3": the next word is an option, not --fish's value.
            const auto namesOption = [&](const std::string& word) {
                if (word.rfind("--", 0) != 0) return false;
                const std::string other = word.substr(2, word.find('=') - 2);  // up to '=', or all
                return std::any_of(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == other; });
            };
            if (i + 1 >= argv.size() || namesOption(argv[i + 1]))
                throw ArgError("option '--" + name + "' needs a value (" + spec->valueName + ")");
            values_[name] = argv[++i];
        }
        if (values_[name].empty()) throw ArgError("option '--" + name + "' needs a value (" + spec->valueName + "), got ''");
    }
}

std::optional<std::string> Args::value(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

namespace {
long long parseInteger(const std::string& text, const std::string& name, long long lo, long long hi) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    // A whole number too long for 64 bits is out of range, not malformed.
    if (ec == std::errc::result_out_of_range && end == text.data() + text.size())
        throw ArgError("option '--" + name + "' is " + text + ", allowed " + std::to_string(lo) + " to " +
                       std::to_string(hi));
    if (ec != std::errc{} || end != text.data() + text.size())
        throw ArgError("option '--" + name + "' needs a whole number, got '" + text + "'");
    if (v < lo || v > hi) {
        std::ostringstream s;
        s << "option '--" << name << "' is " << v << ", allowed " << lo << " to " << hi;
        throw ArgError(s.str());
    }
    return v;
}
}  // namespace

long long Args::integer(const std::string& name, long long fallback, long long lo, long long hi) const {
    const auto v = value(name);
    return v ? parseInteger(*v, name, lo, hi) : fallback;
}

std::vector<long long> Args::integerList(const std::string& name, std::vector<long long> fallback, long long lo,
                                         long long hi) const {
    const auto v = value(name);
    if (!v) return fallback;
    // getline reads no empty last item: "1000," would pass for "1000".
    if (!v->empty() && v->back() == ',')
        throw ArgError("option '--" + name + "' needs numbers separated by commas, got '" + *v + "'");
    std::vector<long long> out;
    std::stringstream s(*v);
    std::string item;
    while (std::getline(s, item, ',')) out.push_back(parseInteger(item, name, lo, hi));
    if (out.empty()) throw ArgError("option '--" + name + "' needs at least one number");
    return out;
}

double Args::number(const std::string& name, double fallback, double lo, double hi) const {
    const auto v = value(name);
    if (!v) return fallback;
    double out = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc{} || end != v->data() + v->size() || !std::isfinite(out))
        throw ArgError("option '--" + name + "' needs a number, got '" + *v + "'");
    // As many digits as tell it from the bound: 240.0000001 is not 240.
    if (out < lo || out > hi)
        throw ArgError("option '--" + name + "' is " + numberText(out) + ", allowed " + numberText(lo) + " to " +
                       numberText(hi));
    return out;
}

std::pair<int, int> parseSize(const std::string& option, const std::string& text, int lo, int hi) {
    int w = 0, h = 0;
    char x = 0;
    std::istringstream in(text);
    if (!(in >> w >> x >> h) || x != 'x' || !in.eof() || w < lo || h < lo || w > hi || h > hi)
        throw ArgError(option + " wants WIDTHxHEIGHT, each side from " + std::to_string(lo) + " to " +
                       std::to_string(hi) + ", got '" + text + "'");
    return {w, h};
}

unsigned long long Args::unsignedInteger(const std::string& name, unsigned long long fallback) const {
    const auto v = value(name);
    if (!v) return fallback;
    unsigned long long out = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc{} || end != v->data() + v->size())
        throw ArgError("option '--" + name + "' needs a whole number from 0 to 18446744073709551615, got '" + *v + "'");
    return out;
}

std::string usageText(const std::string& synopsis, const std::string& about, const std::vector<OptionSpec>& specs) {
    std::ostringstream s;
    s << "usage: " << synopsis << "\n\n" << about << "\n";
    if (!specs.empty()) s << "\noptions:\n";
    for (const OptionSpec& o : specs) {
        std::string left = "  --" + o.name + (o.valueName.empty() ? "" : " " + o.valueName);
        if (left.size() < 26) left.resize(26, ' ');
        else left += "  ";
        s << left << o.help << "\n";
    }
    return s.str();
}

namespace {

// How a command takes a stray word that names a file of a kind it reads
// ("analyze song.mp3", "simulate mine.json"), for the refusal to say; empty
// for any other word (a value given to a switch, a number too many).
std::string fileOptionHint(const std::string& word, const std::vector<OptionSpec>& options) {
    const std::string extension = lowerExtension(word);
    const auto takes = [&](const char* name) {
        return std::any_of(options.begin(), options.end(), [&](const OptionSpec& o) { return o.name == name; });
    };
    if (extension == ".json" && takes("preset")) return " (give a preset as --preset FILE)";
    if ((extension == ".mp4" || extension == ".mov") && takes("out")) return " (give the output as --out FILE)";
    for (const char* audio : {".wav", ".bwf", ".mp3", ".flac", ".ogg", ".opus", ".m4a", ".aac", ".aif", ".aiff", ".wma", ".mka"})
        if (extension == audio && takes("audio")) return " (give an audio file as --audio FILE)";
    return {};
}

int runBody(const CommandSpec& spec, const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
            const std::function<int(const Args&)>& body) {
    std::vector<OptionSpec> options = spec.options;
    options.push_back({"help", "", "show this help"});
    try {
        const Args args(argv, options, spec.name);
        if (args.has("help")) {
            out << usageText(spec.synopsis, spec.about, options);
            return kExitOk;
        }
        if (!spec.takesArguments && !args.positional().empty())
            throw ArgError("unexpected argument '" + args.positional().front() + "'" +
                           fileOptionHint(args.positional().front(), spec.options));
        return body(args);
    } catch (const std::exception& e) {
        // A message may quote a file's text (a preset's key) or a file's name.
        err << "mirofish " << spec.name << ": " << printableText(e.what()) << "\n";
        return kExitBadInput;
    }
}

}  // namespace

std::filesystem::path writableOutputFile(const std::string& file, const std::string& what) {
    const FileTarget target = fileTarget(file);
    if (!target.refusal.empty())
        throw ArgError("cannot write " + what + " to '" + file + "': " + target.refusal + "; name another file");
    const auto dir = wholePath(target.path).parent_path();
    if (std::error_code ec; !std::filesystem::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0)
        throw ArgError("cannot write " + what + " to '" + file + "': folder '" + dir.string() +
                       "' does not exist or is not writable");
    return target.path;
}

// Output that could not be written (a full disk, a closed pipe) shows at the
// latest when the rest is flushed. After an earlier failure the flush is
// tried once more, for its reason; stdio may have dropped what failed, and
// with it the reason.
// A write that a stop cut short (it waited for a reader that did not read)
// is said by the command's own stop message.
int finishOutput(std::string_view command, std::ostream& out, std::ostream& err, int code) {
    const bool failedBefore = !out;
    if (failedBefore && render::StopSignals::received()) return code;
    out.clear();
    errno = 0;
    out.flush();
    if (out && !failedBefore) return code;
    const int why = errno;
    err << "mirofish " << command << ": could not write the output: "
        << (why != 0 ? std::strerror(why) : "part of it was refused (a full disk, or a closed pipe?)") << "\n";
    return code == kExitOk ? kExitFailed : code;
}

int runCommand(const CommandSpec& spec, const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
               const std::function<int(const Args&)>& body) {
    return finishOutput(spec.name, out, err, runBody(spec, argv, out, err, body));
}

}  // namespace mirofish::cli
