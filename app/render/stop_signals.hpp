#pragma once
// Ctrl+C, `kill` and a closed terminal (SIGINT, SIGTERM, SIGHUP) end a
// render cleanly instead of killing it mid-write: while a StopSignals lives,
// they only set a flag that the render's loop reads between frames; it then
// drops the ExportJob, whose sink removes what it began.
namespace mirofish::render {

class StopSignals {
public:
    StopSignals();   // catches the three signals; SIGHUP not where it is ignored (nohup)
    ~StopSignals();  // puts the previous handlers back
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    // The signal that asked to stop, or 0. In a render run inside a wrapper
    // by runForwardingStopSignals, SIGKILL once that outer render is gone.
    static int received();
    // How many of the three signals came since.
    static int count();
    // A signal asked to stop: what a reading or a render that can be
    // stopped is given to ask.
    static bool asked() { return received() != 0; }
};

// The environment variable that gives a wrapped render the outer one's process id.
inline constexpr const char* kOuterRender = "MIROFISH_OUTER_RENDER";

// The environment variable that gives a wrapped render the file descriptor
// on which it reports its exit code to the outer one (reportToOuterRender).
inline constexpr const char* kRerunStatusFd = "MIROFISH_RERUN_STATUS_FD";

// In a render run by runForwardingStopSignals: tells the outer render the
// exit code it ends with, which the outer then exits with whatever the
// wrapper's own status. Elsewhere does nothing.
void reportToOuterRender(int exitCode);

// What a process ended by `signal` exits with, as a shell reports it.
constexpr int exitCodeFor(int signal) { return 128 + signal; }

// Runs `command` (argv-style, null-terminated): a wrapper such as xvfb-run
// that runs this executable again as its child. The wrapper gets a process
// group of its own, so a Ctrl+C reaches this process alone, and the three
// signals above, sent to this process, go on to that rerun alone: it stops
// as it would without the wrapper, and the wrapper then ends as it does
// when its command is done, taking its X server along. Signalled itself,
// xvfb-run would end without waiting for the render, and Xvfb would take a
// SIGHUP for a reset and keep running. Returns once the wrapper and all it
// started in its group (the X server too) have ended. Ctrl+Z (SIGTSTP)
// stops the wrapper's group with this process, and `fg` or `bg` continues
// both. Returns its exit status, 128 + the signal that ended it, or -1 with
// errno set when it could not be started; or the code the rerun reported,
// where it did.
int runForwardingStopSignals(const char* program, char* const* command);

}  // namespace mirofish::render
