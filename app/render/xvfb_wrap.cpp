#include "xvfb_wrap.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>
#include <xcb/xcb.h>

#include "cli/args.hpp"
#include "export_settings.hpp"
#include "stop_signals.hpp"

namespace mirofish::render {

namespace {
constexpr const char* kRerunMark = "MIROFISH_UNDER_XVFB";

bool set(const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
}

// Qt aborts when $DISPLAY names no X server (or one that refuses this
// process). The connection stays open until the process ends: an X server
// resets when its last client leaves (Xvfb has no other), and would refuse
// Qt's connection meanwhile.
bool xDisplayOpens() {
    static const std::unique_ptr<xcb_connection_t, decltype(&xcb_disconnect)> connection(xcb_connect(nullptr, nullptr),
                                                                                         xcb_disconnect);
    return xcb_connection_has_error(connection.get()) == 0;
}

}  // namespace

bool displayAvailable() { return set("DISPLAY") ? xDisplayOpens() : set("WAYLAND_DISPLAY"); }

std::string whyNoDisplay() {
    if (!set("DISPLAY")) return "none is set ($DISPLAY is empty)";
    return "the display " + std::string(std::getenv("DISPLAY")) + " cannot be opened";
}

int runUnderXvfb(int argc, char** argv, std::ostream& err) {
    if (set(kRerunMark)) throw cli::ArgError("no display even inside xvfb-run; is the package xauth installed?");
    const std::string xvfbRun = findProgram("xvfb-run");
    // xvfb-run without xauth (Debian's xvfb only recommends it) ends with
    // its own exit code 3 before the render begins.
    if (xvfbRun.empty() || findProgram("xauth").empty())
        throw cli::ArgError("rendering needs a display, and " + whyNoDisplay() +
                            "; install the packages xvfb and xauth (apt-get install --no-install-recommends xvfb xauth) "
                            "and it runs in Xvfb by itself, or set DISPLAY");
    if (set("DISPLAY")) err << "mirofish render: " << whyNoDisplay() << "; rendering in Xvfb instead\n";
    std::error_code ec;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    std::vector<std::string> words{"xvfb-run", "-a", "-s", "-screen 0 1280x720x24", ec ? std::string(argv[0]) : self};
    for (int i = 1; i < argc; ++i) words.emplace_back(argv[i]);
    std::vector<char*> cargs;
    for (std::string& w : words) cargs.push_back(w.data());
    cargs.push_back(nullptr);
    ::setenv(kRerunMark, "1", 1);
    ::setenv("QT_QPA_PLATFORM", "xcb", 1);
    const int status = runForwardingStopSignals(xvfbRun.c_str(), cargs.data());
    if (status < 0) throw cli::ArgError("could not run xvfb-run: " + std::string(std::strerror(errno)));
    return status;
}

}  // namespace mirofish::render
