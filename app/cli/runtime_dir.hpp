#pragma once
// Qt wants $XDG_RUNTIME_DIR; where a login did not set it (root in a
// container, a script under cron) it warned on every start
// ("QStandardPaths: XDG_RUNTIME_DIR not set, defaulting to ...") before
// falling back to /tmp/runtime-USER. This makes that fallback quietly.

namespace mirofish::cli {

// Points $XDG_RUNTIME_DIR at /tmp/runtime-UID (made, private to this user)
// when it is unset or empty. Leaves it unset where that folder cannot be
// made or is not this user's alone: Qt then says so itself.
void useQuietRuntimeDir();

}  // namespace mirofish::cli
