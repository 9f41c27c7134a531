#include "stream_failures.hpp"

#include <QString>
#include <QtGlobal>
#include <atomic>
#include <mutex>

namespace mirofish::editor {

namespace {
// Written from the sound server's thread, read on the GUI thread: nothing
// else hangs on it, so relaxed order does.
std::atomic<std::uint64_t> gFailures{0};
QtMessageHandler gPrevious = nullptr;

void countingFailures(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    // qWarning() << QString quotes it: "\"Stream error: Entity killed\"".
    if (type == QtWarningMsg && message.contains(QLatin1String("Stream error: ")))
        gFailures.fetch_add(1, std::memory_order_relaxed);
    // Qt's own where none was installed before; none yet only in the moment
    // between the install and the assignment below.
    if (gPrevious) gPrevious(type, context, message);
}
}  // namespace

void countStreamFailures() {
    static std::once_flag once;
    std::call_once(once, [] { gPrevious = qInstallMessageHandler(countingFailures); });
}

std::uint64_t streamFailures() { return gFailures.load(std::memory_order_relaxed); }

}  // namespace mirofish::editor
