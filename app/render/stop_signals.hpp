#pragma once
// Ctrl+C, `kill` and a closed terminal (SIGINT, SIGTERM, SIGHUP) end a
// render cleanly instead of killing it mid-write: while a StopSignals lives,
// they only set a flag that the render's loop reads between frames; it then
// drops the ExportJob, whose sink removes what it began.
namespace mirofish::render {

class StopSignals {
public:
    StopSignals();   // catches the three signals
    ~StopSignals();  // puts the previous handlers back
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    // The signal that asked to stop, or 0.
    static int received();
};

// What a process ended by `signal` exits with, as a shell reports it.
constexpr int exitCodeFor(int signal) { return 128 + signal; }

// Runs `command` (argv-style, null-terminated) in a process group of its
// own and waits for it; the three signals above, sent to this process, go
// on to that whole group. Returns its exit status, 128 + the signal that
// ended it, or -1 with errno set when it could not be started. For
// xvfb-run, whose X server and program would otherwise outlive a `kill` of
// the script.
int runForwardingStopSignals(const char* program, char* const* command);

}  // namespace mirofish::render
