#pragma once
// Running a subcommand in-process as a script would: its exit code, stdout
// and stderr, and its output split into lines or fields.
#include <sstream>
#include <string>
#include <vector>

namespace mirofish::test {

struct Run {
    int code = -1;
    std::string out, err;
};

using Command = int (*)(const std::vector<std::string>&, std::ostream&, std::ostream&);

inline Run run(Command command, const std::vector<std::string>& args) {
    std::ostringstream out, err;
    Run r;
    r.code = command(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

inline std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> out;
    std::istringstream s(text);
    for (std::string item; std::getline(s, item, separator);) out.push_back(item);
    return out;
}

inline std::vector<std::string> lines(const std::string& text) { return split(text, '\n'); }

}  // namespace mirofish::test
