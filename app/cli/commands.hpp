#pragma once
// The subcommands of the mirofish executable. Each takes the arguments after
// its name and returns the exit code: 0 success, 1 a check the command makes
// failed, 2 bad arguments or input (with a one-line reason on `err`).
#include <ostream>
#include <string>
#include <vector>

namespace mirofish::cli {

int runSimulate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runBench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runValidate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runPresets(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runAnalyze(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitBadInput = 2;

}  // namespace mirofish::cli
