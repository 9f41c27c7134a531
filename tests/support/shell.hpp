#pragma once
// Runs a shell command as a test's script would: ffprobe on an export, a tool
// the test needs.
#include <cstdio>
#include <string>

#include <sys/wait.h>

namespace mirofish::test {

// Its exit code and what it printed (stdout and stderr).
struct Shell {
    int code = -1;
    std::string output;
};
inline Shell shell(const std::string& command) {
    Shell r;
    FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (!p) return r;
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, p)) r.output.append(buffer, n);
    const int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The whole seconds a script's run took, from its line "rc=CODE after N s"; -1 without one.
inline int secondsAfter(const std::string& output, const std::string& rc) {
    const std::string mark = "rc=" + rc + " after ";
    const auto at = output.find(mark);
    return at == std::string::npos ? -1 : std::stoi(output.substr(at + mark.size()));
}

}  // namespace mirofish::test
