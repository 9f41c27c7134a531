#pragma once
// `mirofish render`: the export from the command line, the same renderer and
// output as the editor's export dialog. Without a display it runs itself
// inside Xvfb (xvfb-run).
#include <ostream>
#include <string>
#include <vector>

namespace mirofish::render {

int runRender(int argc, char** argv, const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace mirofish::render
