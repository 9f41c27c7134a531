#pragma once
// Running a subcommand in-process as a script would: its exit code, stdout
// and stderr, and its output split into lines or fields.
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

namespace mirofish::test {

// An environment variable set for a scope, as it was again after it.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        if (const char* before = std::getenv(name)) before_ = before;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (before_)
            ::setenv(name_, before_->c_str(), 1);
        else
            ::unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> before_;
};

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

// Standard output on a full disk (as when it is /dev/full): the stream takes
// no byte, and every write and flush fails with ENOSPC.
class FullDiskBuffer : public std::streambuf {
protected:
    int_type overflow(int_type) override { return fail(traits_type::eof()); }
    std::streamsize xsputn(const char*, std::streamsize) override { return fail(0); }
    int sync() override { return fail(-1); }

private:
    template <typename T>
    static T fail(T result) {
        errno = ENOSPC;
        return result;
    }
};

// The command with its stdout on a full disk: its exit code and stderr.
inline Run runToFullDisk(Command command, const std::vector<std::string>& args) {
    FullDiskBuffer full;
    std::ostream out(&full);
    std::ostringstream err;
    Run r;
    r.code = command(args, out, err);
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
