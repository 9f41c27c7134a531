#pragma once
// A small command-line parser: "--name value", "--name=value" and flags.
// Errors are ArgError with a one-line reason; commands exit 2 on them.
#include <functional>
#include <map>
#include <ostream>
#include <optional>
#include <stdexcept>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mirofish::cli {

struct ArgError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    std::string name;  // without the leading dashes
    std::string valueName;  // empty for a flag
    std::string help;
};

class Args {
public:
    // Throws ArgError on an unknown option or a missing value.
    Args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs, const std::string& command);

    bool has(const std::string& name) const { return values_.contains(name); }
    std::optional<std::string> value(const std::string& name) const;
    const std::vector<std::string>& positional() const { return positional_; }

    // Typed getters with range checks; `fallback` when absent.
    long long integer(const std::string& name, long long fallback, long long lo, long long hi) const;
    std::vector<long long> integerList(const std::string& name, std::vector<long long> fallback, long long lo,
                                       long long hi) const;
    unsigned long long unsignedInteger(const std::string& name, unsigned long long fallback) const;
    double number(const std::string& name, double fallback, double lo, double hi) const;

private:
    std::string command_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

// The file an option names for output (`what`: "the state"), checked before
// any work rather than after a whole run: a file or nothing there, in a
// folder that exists and can be written. Returns the file to write (through
// a link, the file it leads to); ArgError "cannot write WHAT to 'FILE': ..."
// otherwise.
std::filesystem::path writableOutputFile(const std::string& file, const std::string& what);

// "WIDTHxHEIGHT" with both sides in [lo, hi]; ArgError naming `option` otherwise.
std::pair<int, int> parseSize(const std::string& option, const std::string& text, int lo, int hi);

std::string usageText(const std::string& synopsis, const std::string& about, const std::vector<OptionSpec>& specs);

struct CommandSpec {
    std::string name;      // e.g. "simulate"
    std::string synopsis;  // the usage line
    std::string about;     // what it does
    std::vector<OptionSpec> options;  // "--help" is added
    bool takesArguments = false;      // positional arguments allowed
};

// The frame every subcommand shares: parses the options, answers --help,
// refuses stray arguments, and turns any error into "mirofish NAME: reason"
// on err with exit code 2. `body` does the work and returns the exit code.
// Then flushes `out`: where it could not be written, says so on err and
// exits 1 (or with the body's own failure code).
int runCommand(const CommandSpec& spec, const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
               const std::function<int(const Args&)>& body);

// That last part alone, for a command that writes `out` outside
// runCommand (the editor's --report-fps): the exit code, 1 where `out`
// could not be written (said on err), or `code` where it is a failure itself.
int finishOutput(std::string_view command, std::ostream& out, std::ostream& err, int code);

}  // namespace mirofish::cli
