#include "stop_signals.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace mirofish::render {

namespace {
constexpr std::array<int, 3> kStopSignals{SIGINT, SIGTERM, SIGHUP};

// Written from a signal handler: a lock-free atomic is async-signal-safe.
std::atomic<int> gReceived{0};
std::atomic<int> gCount{0};
static_assert(std::atomic<int>::is_always_lock_free);

struct sigaction gPrevious[kStopSignals.size()];

void remember(int signal) {
    gReceived.store(signal, std::memory_order_relaxed);
    gCount.fetch_add(1, std::memory_order_relaxed);
}

// The parent's process id from /proc/PID/stat, whose second field (the
// command's name, in parentheses) may itself hold spaces and parentheses.
pid_t parentOf(const std::filesystem::path& process) {
    std::ifstream in(process / "stat");
    std::string stat;
    std::getline(in, stat);
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return 0;
    char state = 0;
    pid_t parent = 0;
    std::istringstream(stat.substr(close + 1)) >> state >> parent;
    return parent;
}

// The child of `parent` that runs this very executable, or 0 while there is none.
pid_t rerunOf(pid_t parent) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos || parentOf(entry.path()) != parent) continue;
        if (std::filesystem::equivalent(entry.path() / "exe", "/proc/self/exe", ec)) return std::stoi(name);
    }
    return 0;
}

// xvfb-run stops its X server without waiting for it, and an X server still
// shutting down takes the next render's display number (xvfb-run -a) with
// it. This process is made the subreaper of what the wrapper leaves, so it
// can wait for all of the wrapper's group; TERM ends what a killed wrapper
// could not.
void endGroup(pid_t group) {
    ::kill(-group, SIGTERM);
    while (::waitpid(-group, nullptr, 0) > 0 || errno == EINTR) {
    }
}

int exitStatus(int status) { return WIFSIGNALED(status) ? exitCodeFor(WTERMSIG(status)) : WEXITSTATUS(status); }

// Whether the render that runs this one inside a wrapper (kOuterRender holds
// its process id) is gone. A SIGKILL cannot be caught or forwarded, and the
// rerun went on rendering to the end after it, its X server with it. The
// outer render is an ancestor of this process (the wrapper's parent, or
// further up if the wrapper wraps another) for as long as it lives: a dead
// process's children pass to another. Looked at ten times a second at most.
bool outerRenderGone() {
    static const pid_t outer = [] {
        const char* v = std::getenv(kOuterRender);
        return v ? static_cast<pid_t>(std::atol(v)) : 0;
    }();
    static bool gone = false;
    static std::chrono::steady_clock::time_point nextLook{};
    if (outer <= 0 || outer == ::getpid() || gone) return gone;
    const auto now = std::chrono::steady_clock::now();
    if (now < nextLook) return false;
    nextLook = now + std::chrono::milliseconds(100);
    for (pid_t p = ::getppid(); p > 1; p = parentOf("/proc/" + std::to_string(p)))
        if (p == outer) return false;
    gone = true;
    return gone;
}
}  // namespace

StopSignals::StopSignals() {
    gReceived.store(0, std::memory_order_relaxed);
    gCount.store(0, std::memory_order_relaxed);
    struct sigaction action {};
    action.sa_handler = remember;
    sigemptyset(&action.sa_mask);
    // SIGHUP set to be ignored stays so: nohup asks a render to outlive the
    // terminal. SIGINT, which a shell ignores for a command it starts in the
    // background, is caught all the same: a Ctrl+C there reaches ffmpeg in
    // the render's process group too, and the render had better stop cleanly
    // than fail on its ffmpeg's end.
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) {
        ::sigaction(kStopSignals[i], nullptr, &gPrevious[i]);
        if (kStopSignals[i] == SIGHUP && gPrevious[i].sa_handler == SIG_IGN) continue;
        ::sigaction(kStopSignals[i], &action, nullptr);
    }
}

StopSignals::~StopSignals() {
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) ::sigaction(kStopSignals[i], &gPrevious[i], nullptr);
}

int StopSignals::count() { return gCount.load(std::memory_order_relaxed); }

int StopSignals::received() {
    if (const int signal = gReceived.load(std::memory_order_relaxed)) return signal;
    return outerRenderGone() ? SIGKILL : 0;
}

namespace {
// The exit code the rerun reported on `from` (reportToOuterRender), if it did.
std::optional<int> reportedExitCode(int from) {
    char text[16] = {};
    const ssize_t n = ::read(from, text, sizeof text - 1);
    if (n <= 0) return std::nullopt;
    return std::atoi(text);
}
}  // namespace

void reportToOuterRender(int exitCode) {
    const char* fd = std::getenv(kRerunStatusFd);
    if (!fd || !*fd) return;
    const std::string text = std::to_string(exitCode) + "\n";
    [[maybe_unused]] const ssize_t written = ::write(std::atoi(fd), text.data(), text.size());
}

namespace {
std::atomic<bool> gSuspendAsked{false};
void askSuspend(int) { gSuspendAsked.store(true, std::memory_order_relaxed); }

// Ctrl+Z stops the terminal's foreground group, which is this process's
// alone: the render in the wrapper's group went on, its job shown as
// stopped, its progress over the shell's prompt. While one lives, SIGTSTP
// stops the wrapper's group with this process, and continues it with it.
class SuspendsWith {
public:
    SuspendsWith() {
        struct sigaction action {};
        action.sa_handler = askSuspend;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGTSTP, nullptr, &previous_);
        if (previous_.sa_handler != SIG_IGN) ::sigaction(SIGTSTP, &action, nullptr);
    }
    ~SuspendsWith() { ::sigaction(SIGTSTP, &previous_, nullptr); }
    SuspendsWith(const SuspendsWith&) = delete;
    SuspendsWith& operator=(const SuspendsWith&) = delete;

    // Where a SIGTSTP came: stops `group`, then this process until the
    // shell continues it (fg, bg), then continues `group`. This process
    // stops by SIGTSTP's own default action, which the shell reports as
    // Ctrl+Z and which does not stop an orphaned process group (no shell
    // left to continue it).
    static void followAsked(pid_t group) {
        if (!gSuspendAsked.exchange(false, std::memory_order_relaxed)) return;
        ::kill(-group, SIGSTOP);
        struct sigaction byDefault {}, mine {};
        byDefault.sa_handler = SIG_DFL;
        sigemptyset(&byDefault.sa_mask);
        ::sigaction(SIGTSTP, &byDefault, &mine);
        ::raise(SIGTSTP);
        ::sigaction(SIGTSTP, &mine, nullptr);
        ::kill(-group, SIGCONT);
    }

private:
    struct sigaction previous_ {};
};
}  // namespace

int runForwardingStopSignals(const char* program, char* const* command) {
    const StopSignals stopSignals;
    const SuspendsWith suspends;
    // The rerun writes its exit code here; only it holds the pipe open.
    int status[2];
    if (::pipe2(status, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    ::fcntl(status[1], F_SETFD, 0);  // inherited through the wrapper
    ::setenv(kRerunStatusFd, std::to_string(status[1]).c_str(), 1);
    ::setenv(kOuterRender, std::to_string(::getpid()).c_str(), 1);  // for the rerun (outerRenderGone)
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    const pid_t wrapper = ::fork();
    if (wrapper == 0) {
        ::setpgid(0, 0);
        // Out of the terminal's foreground group, a write to the terminal
        // stopped the whole group under `stty tostop`, the render and its X
        // server with it, for good. An ignored SIGTTOU lets it write.
        ::signal(SIGTTOU, SIG_IGN);
        ::execv(program, command);
        ::_exit(127);
    }
    ::close(status[1]);
    ::unsetenv(kRerunStatusFd);  // this process reports to nobody
    if (wrapper < 0) {
        ::close(status[0]);
        return -1;
    }
    // Both sides set the group, so a signal cannot arrive before it exists.
    ::setpgid(wrapper, wrapper);
    // The rerun is found by polling: it starts only once the wrapper's X
    // server is up, and /proc cannot be read in a signal handler.
    int forwarded = 0;
    pid_t rerun = 0;
    for (;;) {
        int wrapperStatus = 0;
        const pid_t waited = ::waitpid(wrapper, &wrapperStatus, WNOHANG);
        if (waited == wrapper) {
            endGroup(wrapper);
            // The rerun's own code where it gave one: xvfb-run exits 5 when
            // its cleanup fails ("problem while cleaning up temporary
            // directory"), after a render that went well.
            const std::optional<int> reported = reportedExitCode(status[0]);
            ::close(status[0]);
            return reported ? *reported : exitStatus(wrapperStatus);
        }
        if (waited < 0 && errno != EINTR) {
            ::close(status[0]);
            return -1;
        }
        SuspendsWith::followAsked(wrapper);
        if (const int signal = StopSignals::received(); signal != forwarded) {
            if (rerun == 0) rerun = rerunOf(wrapper);
            if (rerun > 0 && ::kill(rerun, signal) == 0) forwarded = signal;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace mirofish::render
