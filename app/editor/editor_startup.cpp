#include "editor_startup.hpp"

#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>
#include <algorithm>
#include <array>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/preset_paths.hpp"
#include "audio_controller.hpp"
#include "editor.hpp"
#include "io/file_names.hpp"
#include "io/printable_text.hpp"
#include "render/png_file.hpp"
#include "render/stop_signals.hpp"
#include "render/xvfb_wrap.hpp"

namespace mirofish::editor {

std::optional<EditorStartup> parseEditorArgs(const std::vector<std::string>& args, std::ostream& out,
                                             std::ostream& err, int& exitCode) {
    const cli::CommandSpec spec{
        "edit",
        "mirofish [edit] [--preset NAME|FILE] [--fish N] [--world WxH] [--size WxH] [--paused] [--fullscreen] "
        "[--overlays LIST] [--audio FILE] [--panel TAB]",
        "Opens the editor window with a preset (default: " + std::string(cli::kDefaultPreset) + ").",
        {{"preset", "NAME|FILE", "preset id or JSON file to open"},
         {"fish", "N", "fish count (1 to 200000), overriding the preset's (a change to it, not saved)"},
         {"size", "WxH", "window size in pixels (default 1280x720, at least 800x500)"},
         {"world", "WxH", "world size in px, overriding the preset's (a change to it, not saved; keep the density when adding fish)"},
         {"paused", "", "start paused"},
         {"fullscreen", "", "start in fullscreen"},
         {"overlays", "LIST", "the overlays shown at start, comma-separated: neighbours,forces,vision,grid,stats,help, "
                              "or none (default: stats)"},
         {"audio", "FILE", "open this audio file (wav, flac, mp3, ogg) and play it; its routes drive the school"},
         {"panel", "TAB", "the side panel's tab at start: params, presets or audio"},
         {"quit-after", "SECONDS", "close the window after this long (measurements, smoke tests)"},
         {"screenshot", "FILE.png", "with --quit-after: save a grab of the window just before closing"},
         {"report-fps", "", "print the view's frame rate and the step time four times a second"}},
    };
    std::optional<EditorStartup> result;
    exitCode = cli::runCommand(spec, args, out, err, [&](const cli::Args& a) {
        EditorStartup s;
        s.preset = a.value("preset").value_or("");
        if (a.has("fish")) s.fish = static_cast<std::uint32_t>(a.integer("fish", 0, 1, Editor::kMaxFish));
        if (auto size = a.value("size")) {
            // One message with both limits: a size refused as malformed named
            // 1 as the least, and 1x1 was then refused as too small.
            const cli::ArgError wanted("--size wants WIDTHxHEIGHT from " + std::to_string(kMinWindowWidth) + "x" +
                                       std::to_string(kMinWindowHeight) +
                                       " (the window's smallest size) to 16384x16384, got '" + *size + "'");
            try {
                std::tie(s.width, s.height) = cli::parseSize("--size", *size, 1, 16384);
            } catch (const cli::ArgError&) {
                throw wanted;
            }
            if (s.width < kMinWindowWidth || s.height < kMinWindowHeight) throw wanted;
        }
        if (auto world = a.value("world")) {
            const auto [w, h] = cli::parseSize("--world", *world, 1, static_cast<int>(kMaxWorldSize));
            s.world = std::pair<float, float>(static_cast<float>(w), static_cast<float>(h));
        }
        s.paused = a.has("paused");
        s.fullscreen = a.has("fullscreen");
        if (auto list = a.value("overlays")) {
            s.overlays.emplace();
            std::istringstream in(*list == "none" ? std::string() : *list);
            for (std::string item; std::getline(in, item, ',');) {
                static const std::vector<std::string> known{"neighbours", "forces", "vision", "grid", "stats", "help"};
                if (item == "none")
                    throw cli::ArgError("--overlays: 'none' stands alone (--overlays none), not in a list with others");
                if (std::find(known.begin(), known.end(), item) == known.end())
                    throw cli::ArgError("--overlays: unknown overlay '" + item +
                                        "' (neighbours, forces, vision, grid, stats, help, or none alone)");
                s.overlays->push_back(item);
            }
        }
        // At most a day: the timer takes milliseconds in an int.
        s.quitAfterSeconds = a.number("quit-after", 0, 0.001, 86400);
        s.screenshot = a.value("screenshot").value_or("");
        if (!s.screenshot.empty() && s.quitAfterSeconds <= 0)
            throw cli::ArgError("--screenshot needs --quit-after (when to take it)");
        // A PNG under another image's name would open as that kind, or not at all.
        if (!s.screenshot.empty() && lowerExtension(s.screenshot) != ".png")
            throw cli::ArgError("--screenshot writes a PNG: name it FILE.png, not '" + s.screenshot + "'");
        // Into a folder that is not there, it failed only at the end, the whole --quit-after later.
        if (!s.screenshot.empty()) cli::writableOutputFile(s.screenshot, "the screenshot");
        s.reportFrameRate = a.has("report-fps");
        s.audio = a.value("audio").value_or("");
        if (!s.audio.empty()) s.panelTab = 2;
        if (auto panel = a.value("panel")) {
            static const std::vector<std::string> tabs{"params", "presets", "audio"};
            const auto it = std::find(tabs.begin(), tabs.end(), *panel);
            if (it == tabs.end()) throw cli::ArgError("--panel: unknown tab '" + *panel + "' (params, presets, audio)");
            s.panelTab = static_cast<int>(it - tabs.begin());
        }
        result = s;
        return cli::kExitOk;
    });
    return result;
}

namespace {
// An --audio file that cannot be read is said on stderr too, as a --preset
// that cannot be (the window says it as well; before, a script saw nothing).
// Only until that file has loaded or failed.
void sayStartupAudioProblem(AudioController* audio) {
    auto connections = std::make_shared<std::array<QMetaObject::Connection, 2>>();
    const auto done = [connections] {
        for (const QMetaObject::Connection& c : *connections) QObject::disconnect(c);
    };
    (*connections)[0] = QObject::connect(audio, &AudioController::problem, audio, [done](const QString& message) {
        std::cerr << "mirofish: " << printableText(message.toStdString()) << "\n";
        done();
    });
    (*connections)[1] = QObject::connect(audio, &AudioController::trackChanged, audio, done);
}

// Qt Multimedia says "PulseAudioService: pa_context_connect() failed" on
// every start where no sound server runs; the editor runs without one and
// the audio panel says so ("no output device"). Every other message passes.
QtMessageHandler gQtMessages = nullptr;
void withoutSoundServerNoise(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.startsWith(QLatin1String("PulseAudioService: pa_context_connect() failed"))) return;
    if (gQtMessages) gQtMessages(type, context, message);
}
}  // namespace

int runEditor(int argc, char** argv, const EditorStartup& startup) {
    // Without a display Qt aborts (exit 134) with "Could not load the Qt
    // platform plugin xcb ... Reinstalling the application may fix this".
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    const bool windowed = !platform || !*platform || std::string_view(platform).starts_with("xcb") ||
                          std::string_view(platform).starts_with("wayland");
    if (windowed && !render::displayAvailable()) {
        std::cerr << "mirofish: the editor needs a display, and " << render::whyNoDisplay()
                  << "; open it in a desktop session (or under xvfb-run), or render without one: mirofish render\n";
        return cli::kExitBadInput;
    }
    gQtMessages = qInstallMessageHandler(withoutSoundServerNoise);
    // A pipe closed under --report-fps (`| head`, or the terminal's `| tee`
    // gone with it) fails the lines' writes instead of ending the editor on
    // the spot, its unsaved changes lost without a question; the failed
    // output is reported as the editor ends (finishOutput), unless a signal
    // ended it, whose exit code says so.
    std::signal(SIGPIPE, SIG_IGN);
    QGuiApplication app(argc, argv);
    // Before the window and the editor, so that it outlives them: a Ctrl+C
    // while they close (an export's ffmpeg stopped, its file removed) must
    // not end the editor half-way.
    const render::StopSignals stopSignals;
    QGuiApplication::setOrganizationName("MiroFish");
    QGuiApplication::setApplicationName("MiroFish");
    QQuickStyle::setStyle("Fusion");

    const auto dirs = cli::presetDirectories();
    const std::string wanted = startup.preset.empty() ? cli::kDefaultPreset : startup.preset;
    Preset preset;
    std::filesystem::path file;
    QString startupError;
    try {
        const auto resolved = resolvePreset(wanted, cli::presetSearchPath());
        if (!resolved) {
            // A path, a folder of that name here, or a link to a drive not
            // mounted: why, as the other commands say it.
            std::error_code ec;
            if (wanted.find('/') != std::string::npos ||
                std::filesystem::exists(std::filesystem::symlink_status(wanted, ec)) ||
                !cli::brokenLinkToPreset(wanted).empty())
                cli::presetFileByName(wanted);
            throw PresetError("no preset named '" + wanted + "' (see 'mirofish presets')");
        }
        file = *resolved;
        preset = loadPreset(file);
    } catch (const std::exception& e) {
        startupError = QString::fromStdString(e.what());
        // The reason may quote the file's text (a key holding an escape sequence).
        std::cerr << "mirofish: " << printableText(e.what()) << "; opening the default preset instead\n";
        try {
            file = resolvePreset(cli::kDefaultPreset, dirs).value_or(std::filesystem::path{});
            preset = loadPreset(file);
        } catch (const std::exception&) {
            preset = Preset{"Untitled", "", Scene{}};
            file.clear();
        }
    }
    const Preset asSaved = preset;
    if (startup.fish) preset.scene.fishCount = *startup.fish;
    if (startup.world) std::tie(preset.scene.width, preset.scene.height) = *startup.world;

    // Paused from the first step on: set later, the school had taken a few
    // steps, a different number each run.
    Editor editor(preset, file, false, dirs, cli::userPresetDirectory(), startup.paused);
    Editor::setInstance(&editor);
    // --fish and --world change the preset opened; a save writes them.
    if (startup.fish || startup.world) editor.setPresetAsSaved(asSaved);
    if (!startupError.isEmpty()) editor.showErrorAbove(startupError);
    const auto shown = [&](const char* overlay) {
        if (!startup.overlays) return std::string_view(overlay) == "stats";
        return std::find(startup.overlays->begin(), startup.overlays->end(), overlay) != startup.overlays->end();
    };
    editor.setShowNeighbours(shown("neighbours"));
    editor.setShowForces(shown("forces"));
    editor.setShowVision(shown("vision"));
    editor.setShowGrid(shown("grid"));
    editor.setShowStats(shown("stats"));

    QQmlApplicationEngine engine;
    engine.load(QUrl(QStringLiteral("qrc:/MiroFish/Main.qml")));
    if (engine.rootObjects().isEmpty()) {
        std::cerr << "mirofish: the editor's interface failed to load (see the messages above)\n";
        return 1;
    }
    auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().front());
    window->resize(startup.width, startup.height);
    window->setProperty("helpVisible", shown("help"));
    window->setProperty("panelTab", startup.panelTab);
    if (!startup.audio.empty()) {
        sayStartupAudioProblem(editor.audio());
        editor.audio()->openFile(QString::fromStdString(startup.audio), true);
    }
    if (startup.fullscreen) window->showFullScreen();
    else window->show();

    if (startup.reportFrameRate) {
        QObject::connect(&editor, &Editor::statsChanged, &editor, [&editor] {
            const QVariantMap s = editor.stats();
            std::cout << "fps " << s["fps"].toDouble() << " step_ms " << s["stepMs"].toDouble() << " fish "
                      << s["fish"].toULongLong() << " real_time " << s["realTime"].toDouble() << std::endl;
        });
    }
    if (startup.quitAfterSeconds > 0) {
        QTimer::singleShot(static_cast<int>(startup.quitAfterSeconds * 1000), &app, [&] {
            const std::string why =
                startup.screenshot.empty()
                    ? std::string()
                    : render::savePngWhole(startup.screenshot, window->grabWindow(), false, render::kStillPngLevel);
            if (!why.empty()) {
                std::cerr << "mirofish: could not write the screenshot " << printableText(startup.screenshot + ": " + why)
                          << "\n";
                QGuiApplication::exit(cli::kExitFailed);
                return;
            }
            // exit, not quit: Qt 6's quit closes the window, which asks
            // first when the preset has unsaved changes.
            QGuiApplication::exit(0);
        });
    }
    // Ctrl+C, `kill` or a closed terminal is the window's close, which asks
    // first about unsaved changes or an export running; another while that
    // question is open ends the editor at once, its export cancelled (the
    // unfinished file removed). Cancel answers the question, and the editor
    // goes on as before. Not caught, they ended it on the spot: the changes
    // lost without a question, an export's .part file left behind.
    int signalsSeen = 0;
    bool closingForSignal = false;  // a signal's close under way: its question open, or the window closing
    // Looked up once: the watch runs ten times a second on the GUI thread.
    QObject* const stopExportQuestion = window->findChild<QObject*>("confirmStopExport");
    QObject* const unsavedQuestion = window->findChild<QObject*>("confirmClose");
    QObject* const exporter = window->findChild<QObject*>("exporter");
    const QObject* askedLast = nullptr;  // the question open at the last look
    const auto questionOpen = [&]() -> const QObject* {
        for (const QObject* dialog : {unsavedQuestion, stopExportQuestion})
            if (dialog && dialog->property("visible").toBool()) return dialog;
        return nullptr;
    };
    QTimer signalWatch;
    signalWatch.setInterval(100);
    QObject::connect(&signalWatch, &QTimer::timeout, &app, [&] {
        const int count = render::StopSignals::count();
        if (!closingForSignal && count == signalsSeen) return;  // nothing asked
        const QObject* asking = questionOpen();
        if (closingForSignal && !asking && window->isVisible()) {
            // The export ended while asking whether to stop it (its question
            // then goes by itself): the close asked for goes on. Otherwise
            // the question was answered Cancel.
            if (askedLast == stopExportQuestion && !(exporter && exporter->property("running").toBool()))
                window->close();
            else
                closingForSignal = false;
        }
        askedLast = asking;
        if (count == signalsSeen) return;
        // Signals that come together (a closed terminal sends SIGHUP twice,
        // from the shell and from the kernel) are one request; one that comes
        // while the question is open is the second.
        signalsSeen = count;
        if (closingForSignal && asking) {
            QGuiApplication::exit(render::exitCodeFor(render::StopSignals::received()));
            return;
        }
        closingForSignal = true;
        window->close();
    });
    signalWatch.start();
    int code = QGuiApplication::exec();
    // Closed by a signal, it ends as one: 128 + the signal, as a shell says.
    if (closingForSignal && code == 0) code = render::exitCodeFor(render::StopSignals::received());
    // The frame-rate lines, like any command's output: unwritten (a full
    // disk), the run failed.
    return cli::finishOutput("edit", std::cout, std::cerr, code);
}

}  // namespace mirofish::editor
