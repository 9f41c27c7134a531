#include "stop_signals.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

namespace mirofish::render {

namespace {
constexpr std::array<int, 3> kStopSignals{SIGINT, SIGTERM, SIGHUP};

// Written from a signal handler: a lock-free atomic is async-signal-safe.
std::atomic<int> gReceived{0};
std::atomic<pid_t> gForwardTo{0};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free);

struct sigaction gPrevious[kStopSignals.size()];

void remember(int signal) { gReceived.store(signal, std::memory_order_relaxed); }

void forward(int signal) {
    if (const pid_t group = gForwardTo.load(std::memory_order_relaxed); group > 0) ::kill(-group, signal);
}

void install(void (*handler)(int)) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) ::sigaction(kStopSignals[i], &action, &gPrevious[i]);
}

void restore() {
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) ::sigaction(kStopSignals[i], &gPrevious[i], nullptr);
}
}  // namespace

StopSignals::StopSignals() {
    gReceived.store(0, std::memory_order_relaxed);
    install(remember);
}

StopSignals::~StopSignals() { restore(); }

int StopSignals::received() { return gReceived.load(std::memory_order_relaxed); }

int runForwardingStopSignals(const char* program, char* const* command) {
    const pid_t child = ::fork();
    if (child < 0) return -1;
    if (child == 0) {
        ::setpgid(0, 0);
        ::execv(program, command);
        ::_exit(127);
    }
    // Both sides set the group, so a signal cannot arrive before it exists.
    ::setpgid(child, child);
    gForwardTo.store(child, std::memory_order_relaxed);
    install(forward);
    int status = 0;
    pid_t waited;
    do {
        waited = ::waitpid(child, &status, 0);
    } while (waited < 0 && errno == EINTR);
    restore();
    gForwardTo.store(0, std::memory_order_relaxed);
    if (waited < 0) return -1;
    return WIFSIGNALED(status) ? exitCodeFor(WTERMSIG(status)) : WEXITSTATUS(status);
}

}  // namespace mirofish::render
