// The editor tests need a GUI application (xcb under Xvfb: see
// run-under-xvfb.sh) and the editor's static QML module.
#define CATCH_CONFIG_RUNNER
#include <QGuiApplication>
#include <QQuickStyle>
#include <QtQml/qqmlextensionplugin.h>
#include <catch2/catch.hpp>

#include "cli/runtime_dir.hpp"

Q_IMPORT_QML_PLUGIN(MiroFishPlugin)

int main(int argc, char** argv) {
    Catch::Session session;
    if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
    // Listing the tests (ctest's discovery) needs no window system.
    if (session.configData().listTests || session.configData().listTestNamesOnly) return session.run();
    mirofish::cli::useQuietRuntimeDir();  // as the mirofish executable does
    QGuiApplication app(argc, argv);
    // A test that closes its window does not end the application for the tests after it.
    app.setQuitOnLastWindowClosed(false);
    QQuickStyle::setStyle("Fusion");
    return session.run();
}
