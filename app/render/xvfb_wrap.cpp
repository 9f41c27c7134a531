#include "xvfb_wrap.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <vector>
#include <xcb/xcb.h>

#include <QCoreApplication>
#include <QDir>

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

// Without $DISPLAY, Qt takes $WAYLAND_DISPLAY for a Wayland session, and
// aborts as it does for X where it has no Wayland plugin or nothing listens
// there (a terminal multiplexer started in a desktop, reattached over ssh).
// Empty where it can be used, else why not.
std::string waylandUnusable() {
    const std::string name = std::getenv("WAYLAND_DISPLAY");
    // Where Qt looks for platform plugins: $QT_QPA_PLATFORM_PLUGIN_PATH, and
    // "platforms" in each library path ($QT_PLUGIN_PATH, Qt's own).
    QStringList folders;
    if (set("QT_QPA_PLATFORM_PLUGIN_PATH")) folders << QString::fromLocal8Bit(std::getenv("QT_QPA_PLATFORM_PLUGIN_PATH"));
    for (const QString& folder : QCoreApplication::libraryPaths()) folders << folder + "/platforms";
    bool plugin = false;
    for (const QString& folder : folders) plugin = plugin || !QDir(folder).entryList({"libqwayland*"}, QDir::Files).isEmpty();
    if (!plugin)
        return "the Wayland display " + name + " needs Qt's Wayland plugin (package qt6-wayland), which is not installed";
    std::filesystem::path socketPath = name;
    if (socketPath.is_relative() && set("XDG_RUNTIME_DIR")) socketPath = std::getenv("XDG_RUNTIME_DIR") / socketPath;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string text = socketPath.string();
    bool listens = false;
    if (text.size() < sizeof address.sun_path) {
        std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        listens = fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
        if (fd >= 0) ::close(fd);
    }
    return listens ? std::string{} : "the Wayland display " + name + " cannot be opened";
}

}  // namespace

bool displayAvailable() {
    if (set("DISPLAY")) return xDisplayOpens();
    return set("WAYLAND_DISPLAY") && waylandUnusable().empty();
}

std::string whyNoDisplay() {
    if (set("DISPLAY")) return "the display " + std::string(std::getenv("DISPLAY")) + " cannot be opened";
    if (set("WAYLAND_DISPLAY")) return "$DISPLAY is empty, and " + waylandUnusable();
    return "none is set ($DISPLAY is empty)";
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
    // xvfb-run makes its files in $TMPDIR (mktemp), and said only mktemp's
    // "failed to create directory" where that is no folder it can write in.
    if (const char* tmp = std::getenv("TMPDIR"); tmp && *tmp) {
        std::error_code tmpError;
        if (!std::filesystem::is_directory(tmp, tmpError) || ::access(tmp, W_OK | X_OK) != 0)
            throw cli::ArgError("rendering needs a display, and " + whyNoDisplay() + "; it runs in Xvfb by itself, "
                                "whose xvfb-run makes its files in $TMPDIR, and '" + std::string(tmp) +
                                "' is no folder it can write in: set TMPDIR to one, or unset it");
    }
    if (set("DISPLAY") || set("WAYLAND_DISPLAY"))
        err << "mirofish render: " << whyNoDisplay() << "; rendering in Xvfb instead\n";
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
