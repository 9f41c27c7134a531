// The editor's export dialog, trail canvas and stills, as a user drives them.
#include <QDir>
#include <QElapsedTimer>
#include <QQuickItemGrabResult>
#include <QStandardPaths>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "editor_fixture.hpp"
#include "export_controller.hpp"
#include "render/export_settings.hpp"
#include "support/cli_run.hpp"
#include "support/shell.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
QObject* exporterOf(const EditorFixture& f) {
    return f.engine->rootObjects().front()->findChild<QObject*>("exporter");
}

// Starts a PNG export of the window's school into `folder`, as the dialog does.
editor::ExportController* startPngExport(const EditorFixture& f, const std::filesystem::path& folder, int width,
                                         int height, int frames, double warmup = 0) {
    auto* exporter = qobject_cast<editor::ExportController*>(exporterOf(f));
    REQUIRE(exporter);
    REQUIRE(exporter->start({{"width", width}, {"height", height}, {"fps", 30}, {"frames", frames}, {"warmup", warmup},
                             {"output", QString::fromStdString(folder.string())}}));
    return exporter;
}

// Opens the dialog with Ctrl+E and sets it to `frames` frames of 320x180 into `output`.
QObject* openExportDialog(EditorFixture& f, int frames, const std::filesystem::path& output, int format = 0) {
    QTest::keyClick(f.window, Qt::Key_E, Qt::ControlModifier);
    QObject* dialog = f.engine->rootObjects().front()->findChild<QObject*>("exportDialog");
    REQUIRE(dialog);
    REQUIRE(EditorFixture::waitFor([&] { return dialog->property("opened").toBool(); }));
    QObject* size = f.find("exportSize");
    REQUIRE(size);
    size->setProperty("currentIndex", 5);  // custom
    f.find("exportUnit")->setProperty("currentIndex", 1);  // frames
    f.find("exportLength")->setProperty("value", frames);
    f.find("exportFormat")->setProperty("currentIndex", format);
    f.find("exportOutput")->setProperty("text", QString::fromStdString(output.string()));
    return dialog;
}

void setCustomSize(QObject* dialog, int w, int h) {
    for (QObject* box : dialog->findChildren<QObject*>())
        if (box->property("from").toInt() == 16 && box->property("to").toInt() == 16384)
            box->setProperty("value", box->property("value").toInt() == 1920 ? w : h);
}

// An MP4 export of 3 frames at 320x180 into `video`, a file already there
// ("earlier"), set up in the dialog; returns the question the dialog asks
// before replacing it.
QObject* exportOverVideo(EditorFixture& f, const std::filesystem::path& video) {
    writeText(video, "earlier");
    QObject* dialog = openExportDialog(f, 3, video, 2);
    setCustomSize(dialog, 320, 180);
    auto* confirm = dialog->findChild<QObject*>("confirmReplaceVideo");
    REQUIRE(confirm);
    return confirm;
}

int litPixels(const QImage& image, QRect area = {}) {
    if (area.isNull()) area = image.rect();
    int lit = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            const QRgb c = image.pixel(x, y);
            lit += qRed(c) + qGreen(c) + qBlue(c) > 200;
        }
    return lit;
}
}  // namespace

TEST_CASE("the export dialog's Browse opens next to the output it names, not in the working directory", "[export]") {
    EditorFixture f;
    TempDir out;
    QObject* dialog = openExportDialog(f, 10, out / "frames");
    QObject* folders = dialog->findChild<QObject*>("exportFolderDialog");
    QObject* videos = dialog->findChild<QObject*>("exportVideoDialog");
    REQUIRE(folders);
    REQUIRE(videos);
    CHECK(folders->property("currentFolder").toUrl() == QUrl::fromLocalFile(QString::fromStdString(out.path().string())));
    std::filesystem::create_directories(out / "clips");
    f.find("exportOutput")->setProperty("text", QString::fromStdString((out / "clips" / "take 1.mp4").string()));
    CHECK(videos->property("currentFolder").toUrl() ==
          QUrl::fromLocalFile(QString::fromStdString((out / "clips").string())));
    // A folder whose name holds '#' (a URL's fragment) opened the one above it.
    std::filesystem::create_directories(out / "take#1");
    f.find("exportOutput")->setProperty("text", QString::fromStdString((out / "take#1" / "clip.mp4").string()));
    CHECK(videos->property("currentFolder").toUrl() ==
          QUrl::fromLocalFile(QString::fromStdString((out / "take#1").string())));
    CHECK_FALSE(folders->property("title").toString().isEmpty());
}

TEST_CASE("the export dialog writes the frames while the window keeps running", "[export]") {
    EditorFixture f;
    TempDir out;
    // Enough frames that the export outlasts a few of the window's steps
    // (at 60 steps a second) on a fast machine too.
    QObject* dialog = openExportDialog(f, 240, out / "frames");
    setCustomSize(dialog, 320, 180);
    QObject* exporter = exporterOf(f);
    const auto stepBefore = f.step();
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 2000));
    // The window is not blocked: the simulation and the view go on during the export.
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > stepBefore + 5; }, 20'000));
    CHECK(exporter->property("running").toBool());
    CHECK(exporter->property("framesTotal").toInt() == 240);
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 60'000));
    CHECK_FALSE(exporter->property("failed").toBool());
    CHECK_THAT(exporter->property("status").toString().toStdString(), Catch::Contains("Exported 240 frames"));
    CHECK(std::filesystem::exists(out / "frames" / "frame_000239.png"));
    CHECK(QImage(QString::fromStdString((out / "frames" / "frame_000000.png").string())).size() == QSize(320, 180));
}

TEST_CASE("a one-frame export says where its frame went, even into a folder whose name holds a percent sign", "[export]") {
    EditorFixture f;
    TempDir out;
    const auto folder = out / "still 100%1";
    QObject* dialog = openExportDialog(f, 1, folder);
    setCustomSize(dialog, 320, 180);
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 60'000));
    CHECK_FALSE(exporter->property("failed").toBool());
    CHECK_THAT(exporter->property("status").toString().toStdString(),
               Catch::StartsWith("Exported 1 frame to " + folder.string() + " (") && Catch::EndsWith(" frames per second)"));
    CHECK(std::filesystem::exists(folder / "frame_000000.png"));
}

TEST_CASE("an audio file emptied in the export dialog stays empty when the Audio tab opens another", "[export]") {
    // Typing kept the field's binding to the Audio tab's file, which put the
    // next file back: the silent export was driven and muxed after all.
    EditorFixture f;
    TempDir out;
    MonoAudio silence;
    silence.samples.assign(4'800, 0.0f);
    writeWav(out / "first.wav", silence);
    writeWav(out / "second.wav", silence);
    editor::AudioController* audio = f.editor->audio();
    audio->openFile(QString::fromStdString((out / "first.wav").string()));
    REQUIRE(EditorFixture::waitFor([&] { return audio->fileName() == "first.wav"; }, 10'000));
    openExportDialog(f, 1, out / "frames");
    auto* field = f.find("exportAudio");
    REQUIRE(field->property("text").toString() == audio->filePath());
    field->forceActiveFocus();
    QMetaObject::invokeMethod(field, "selectAll");
    QTest::keyClick(f.window, Qt::Key_Backspace);
    REQUIRE(field->property("text").toString().isEmpty());
    audio->openFile(QString::fromStdString((out / "second.wav").string()));
    REQUIRE(EditorFixture::waitFor([&] { return audio->fileName() == "second.wav"; }, 10'000));
    QTest::qWait(100);
    CHECK(field->property("text").toString().isEmpty());
}

TEST_CASE("the export takes the Audio tab's file: its length, and its sound through the routes", "[export]") {
    EditorFixture f;
    TempDir out;
    MonoAudio tone;
    tone.samples.assign(48'000, 0.0f);  // one second
    for (std::size_t i = 0; i < tone.samples.size(); ++i)
        tone.samples[i] = 0.5f * static_cast<float>(std::sin(2 * 3.14159265 * 60 * static_cast<double>(i) / 48'000));
    writeWav(out / "tone.wav", tone);
    f.editor->audio()->openFile(QString::fromStdString((out / "tone.wav").string()));
    REQUIRE(EditorFixture::waitFor([&] { return !f.editor->audio()->filePath().isEmpty(); }, 10'000));

    QObject* dialog = openExportDialog(f, 1, out / "frames");
    setCustomSize(dialog, 320, 180);
    CHECK(f.find("exportAudio")->property("text").toString() == f.editor->audio()->filePath());
    f.find("exportUnit")->setProperty("currentIndex", 2);  // the audio file's length
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 5000));
    // Known once the file is read again for the export (0 until then).
    CHECK(EditorFixture::waitFor(
        [&] { return exporter->property("framesTotal").toInt() == dialog->property("fps").toInt(); }, 10'000));
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 60'000));
    CHECK_FALSE(exporter->property("failed").toBool());
}

TEST_CASE("an export typed as ~/name goes into the home folder and says where it went", "[export]") {
    EditorFixture f;
    TempDir home;
    const QByteArray homeBefore = qgetenv("HOME");
    qputenv("HOME", QByteArray::fromStdString(home.path().string()));
    auto* exporter = qobject_cast<editor::ExportController*>(exporterOf(f));
    REQUIRE(exporter);
    const bool started = exporter->start({{"width", 160}, {"height", 96}, {"fps", 30}, {"frames", 3}, {"warmup", 0},
                                          {"output", QStringLiteral("~/renders")}});
    qputenv("HOME", homeBefore);
    REQUIRE(started);
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->running(); }, 60'000));
    INFO(exporter->status().toStdString());
    CHECK(std::filesystem::exists(home / "renders" / "frame_000002.png"));
    CHECK_THAT(exporter->status().toStdString(), Catch::Contains("to " + (home / "renders").string()));
}

TEST_CASE("cancelling an MP4 export from the dialog leaves no video", "[export]") {
    EditorFixture f;
    TempDir out;
    QObject* dialog = openExportDialog(f, 300, out / "clip.mp4", 2);
    setCustomSize(dialog, 320, 180);
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("framesDone").toInt() >= 3; }, 20'000));
    f.clickItem("exportCancel");
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 5000));
    CHECK_THAT(exporter->property("status").toString().toStdString(),
               Catch::Contains("cancelled after") && Catch::EndsWith("frames; no video was kept"));
    CHECK(std::filesystem::is_empty(out.path()));
}

TEST_CASE("a PNG export cancelled says as many frames as its folder keeps", "[export]") {
    EditorFixture f;
    TempDir out;
    // Large frames: the writers fall behind, and frames wait in their queue when Cancel comes.
    editor::ExportController* exporter = startPngExport(f, out / "frames", 3840, 2160, 300);
    REQUIRE(EditorFixture::waitFor([&] { return exporter->framesDone() >= 8; }, 60'000));
    exporter->cancel();
    std::size_t onDisk = 0;
    for (const auto& entry : std::filesystem::directory_iterator(out / "frames"))
        onDisk += entry.path().extension() == ".png";
    INFO(exporter->status().toStdString());
    CHECK(onDisk > 0);
    CHECK_THAT(exporter->status().toStdString(),
               Catch::Contains("after " + std::to_string(onDisk) + (onDisk == 1 ? " frame; " : " frames; ") +
                               "the frames written so far stay in " + (out / "frames").string()));
}

TEST_CASE("a PNG export cancelled in its warm-up says nothing was written, not that frames stay in a folder it removed",
          "[export]") {
    EditorFixture f;
    TempDir out;
    editor::ExportController* exporter = startPngExport(f, out / "frames", 160, 96, 3, 600);
    REQUIRE(EditorFixture::waitFor([&] { return exporter->warmingUp(); }, 10'000));
    exporter->cancel();
    INFO(exporter->status().toStdString());
    CHECK_FALSE(std::filesystem::exists(out / "frames"));
    CHECK_THAT(exporter->status().toStdString(), Catch::EndsWith("after 0 frames; nothing was written"));
}

TEST_CASE("the export dialog shows how far the warm-up has come, on its bar and in seconds", "[export]") {
    // A warm-up of up to an hour showed "Warming up…" over an empty bar.
    EditorFixture f;
    TempDir out;
    openExportDialog(f, 3, out / "frames");
    f.find("exportWarmup")->setProperty("value", 600);
    auto* exporter = qobject_cast<editor::ExportController*>(exporterOf(f));
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->warmingUp() && exporter->warmedUpSeconds() >= 1; }, 20'000));
    const QString said = f.find("exportProgressText")->property("text").toString();
    INFO(said.toStdString());
    CHECK(said.startsWith("Warming up: "));
    CHECK(said.contains(" of 600.0 s"));
    CHECK(f.find("exportProgress")->property("value").toDouble() > 0);
    CHECK(f.find("exportProgress")->property("to").toDouble() == Approx(600));
    exporter->cancel();
}

TEST_CASE("closing the window during an export asks first: Keep exporting carries on, Stop and close stops it",
          "[export]") {
    // The export goes with the window; its dialog may have been closed long before.
    EditorFixture f;
    TempDir out;
    editor::ExportController* exporter = startPngExport(f, out / "frames", 160, 96, 100'000);
    REQUIRE(EditorFixture::waitFor([&] { return exporter->framesDone() >= 2; }, 20'000));
    QObject* confirm = f.engine->rootObjects().front()->findChild<QObject*>("confirmStopExport");
    REQUIRE(confirm);

    CHECK_FALSE(f.window->close());
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("opened").toBool(); }));
    f.clickDialogButton(confirm, "Keep exporting");
    REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    CHECK(f.window->isVisible());
    CHECK(exporter->running());

    // With unsaved changes, their question comes next, and Cancel there
    // leaves the export running: nothing was stopped for nothing.
    f.editor->params()->setValue(f.editor->params()->rowOf("cohesionWeight"), 2.5);
    f.editor->params()->endGesture();
    REQUIRE(f.editor->modified());
    QObject* unsaved = f.engine->rootObjects().front()->findChild<QObject*>("confirmClose");
    REQUIRE(unsaved);
    CHECK_FALSE(f.window->close());
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("opened").toBool(); }));
    f.clickDialogButton(confirm, "Stop and close");
    REQUIRE(EditorFixture::waitFor([&] { return unsaved->property("opened").toBool(); }));
    f.clickDialogButton(unsaved, "Cancel");
    REQUIRE(EditorFixture::waitFor([&] { return !unsaved->property("visible").toBool(); }));
    CHECK(f.window->isVisible());
    CHECK(exporter->running());

    CHECK_FALSE(f.window->close());
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("opened").toBool(); }));
    f.clickDialogButton(confirm, "Stop and close");
    REQUIRE(EditorFixture::waitFor([&] { return unsaved->property("opened").toBool(); }));
    f.clickDialogButton(unsaved, "Discard");
    REQUIRE(EditorFixture::waitFor([&] { return !f.window->isVisible(); }));
    CHECK_FALSE(exporter->running());
    CHECK_THAT(exporter->status().toStdString(), Catch::Contains("the frames written so far stay in"));
}

TEST_CASE("the question on closing during an export goes away when the export ends meanwhile", "[export]") {
    EditorFixture f;
    TempDir out;
    editor::ExportController* exporter = startPngExport(f, out / "frames", 160, 96, 100'000);
    QObject* confirm = f.engine->rootObjects().front()->findChild<QObject*>("confirmStopExport");
    REQUIRE(confirm);
    CHECK_FALSE(f.window->close());
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("opened").toBool(); }));
    exporter->cancel();  // as if it had ended
    CHECK(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    CHECK(f.window->isVisible());
}

TEST_CASE("the export dialog fits the smallest window, its buttons within reach, with every row shown", "[export]") {
    EditorFixture f(cli::kDefaultPreset, 800, 500);
    TempDir out;
    QObject* dialog = openExportDialog(f, 3, out / "clip.mp4", 2);  // MP4: its quality row too
    f.find("exportSize")->setProperty("currentIndex", 5);          // custom: the width and height row
    QTest::qWait(300);
    for (const char* name : {"exportStart", "exportCancel", "exportAudio"}) {
        INFO(name);
        QQuickItem* item = f.find(name);
        REQUIRE(item);
        const QRectF shown = item->mapRectToScene(QRectF(0, 0, item->width(), item->height()));
        CHECK(shown.bottom() <= f.window->height());
        CHECK(shown.top() >= 0);
    }
    CHECK(dialog->property("y").toDouble() + dialog->property("height").toDouble() <= f.window->height());
}

TEST_CASE("the window's shortcuts work while the export dialog is open, and Escape closes it", "[export]") {
    // The dialog leaves the window usable during a long export: the keyboard too.
    EditorFixture f;
    QObject* dialog = f.engine->rootObjects().front()->findChild<QObject*>("exportDialog");
    REQUIRE(dialog);
    QTest::keyClick(f.window, Qt::Key_E, Qt::ControlModifier);
    REQUIRE(EditorFixture::waitFor([&] { return dialog->property("opened").toBool(); }));
    const bool stats = f.editor->showStats();
    QTest::keyClick(f.window, Qt::Key_T);
    CHECK(EditorFixture::waitFor([&] { return f.editor->showStats() != stats; }, 2000));
    // The keys go to its fields, which Tab walks through (it picked fish under the dialog).
    const auto inDialog = [&](QQuickItem* item) {
        for (; item; item = item->parentItem())
            if (item == dialog->property("contentItem").value<QQuickItem*>()) return true;
        return false;
    };
    QQuickItem* first = f.window->activeFocusItem();
    CHECK(inDialog(first));
    QTest::keyClick(f.window, Qt::Key_Tab);
    CHECK(f.window->activeFocusItem() != first);
    CHECK(inDialog(f.window->activeFocusItem()));
    CHECK(f.editor->selectedFish().isEmpty());
    QTest::keyClick(f.window, Qt::Key_Escape);
    CHECK(EditorFixture::waitFor([&] { return !dialog->property("visible").toBool(); }, 2000));
}

TEST_CASE("a video named in capitals is asked about and replaced, and one named like clip.avi is refused by name",
          "[export]") {
    // CLIP.MP4 was made CLIP.mp4: no question, and a second video beside the
    // camera's; clip.avi was made clip.avi.mp4 and written.
    EditorFixture f;
    TempDir out;
    QObject* confirm = exportOverVideo(f, out / "CLIP.MP4");
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    CHECK_THAT(confirm->property("file").toString().toStdString(), Catch::EndsWith("CLIP.MP4"));
    f.clickDialogButton(confirm, "No");
    REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));

    QObject* exporter = exporterOf(f);
    f.find("exportOutput")->setProperty("text", QString::fromStdString((out / "clip.avi").string()));
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("status").toString().isEmpty(); }, 5000));
    CHECK(f.find("exportOutput")->property("text").toString().endsWith("clip.avi"));
    CHECK(exporter->property("status").toString().contains("avi is not written"));
    CHECK_FALSE(std::filesystem::exists(out / "clip.avi.mp4"));
}

TEST_CASE("an export whose settings no export takes says why at once, without asking to replace the video", "[export]") {
    // Asked first whether to replace it, the user said Yes, and then heard
    // that there was nothing to export: the length from an audio file, with none chosen.
    EditorFixture f;
    TempDir out;
    QObject* confirm = exportOverVideo(f, out / "clip.mp4");
    QObject* exporter = exporterOf(f);
    f.find("exportUnit")->setProperty("currentIndex", 2);  // the audio file's length, with no audio file
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("status").toString().isEmpty(); }));
    CHECK(exporter->property("status").toString() == "nothing to export: no length given, and no audio file to take one from");
    CHECK(exporter->property("failed").toBool());
    QTest::qWait(200);
    CHECK_FALSE(confirm->property("visible").toBool());
    CHECK(readText(out / "clip.mp4") == "earlier");
}

TEST_CASE("the export's quality slider is better to the right, from the keyboard too", "[export]") {
    EditorFixture f;
    TempDir out;
    openExportDialog(f, 3, out / "clip.mp4", 2);
    QQuickItem* quality = f.find("exportQuality");
    REQUIRE(quality);
    CHECK(quality->property("crf").toInt() == 18);
    quality->forceActiveFocus(Qt::TabFocusReason);
    QTest::keyClick(f.window, Qt::Key_Right);
    CHECK(quality->property("crf").toInt() == 17);  // a lower CRF: better
    CHECK(quality->property("position").toDouble() > 0.5);
    // At the right end, the best quality that plays everywhere: not CRF 0, lossless, which few players open.
    quality->setProperty("value", quality->property("to"));
    CHECK(quality->property("crf").toInt() == render::kBestCrf);
}

TEST_CASE("an export to a video that is already there asks first: No keeps the old one, Yes replaces it",
          "[export]") {
    EditorFixture f;
    TempDir out;
    QObject* confirm = exportOverVideo(f, out / "clip.mp4");
    QObject* exporter = exporterOf(f);

    // The question's Yes and No buttons, clicked as a user does.
    const auto clickAnswer = [&](const char* answer) { f.clickDialogButton(confirm, answer); };

    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    CHECK_THAT(confirm->property("file").toString().toStdString(), Catch::EndsWith("clip.mp4"));
    CHECK_FALSE(exporter->property("running").toBool());
    clickAnswer("No");
    REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    QTest::qWait(200);
    CHECK_FALSE(exporter->property("running").toBool());
    CHECK(readText(out / "clip.mp4") == "earlier");

    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    clickAnswer("Yes");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 5000));
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 60'000));
    CHECK_FALSE(exporter->property("failed").toBool());
    CHECK(std::filesystem::file_size(out / "clip.mp4") > 1000);

    // The name's extension makes it a video, as for the export itself, whatever the format box says.
    const auto askedAbout = [&](const std::filesystem::path& output) {
        f.find("exportOutput")->setProperty("text", QString::fromStdString(output.string()));
        f.clickItem("exportStart");
        const bool asked = EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }, 2000);
        const QString file = confirm->property("file").toString();
        QMetaObject::invokeMethod(confirm, "reject");
        REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
        CHECK_FALSE(exporter->property("running").toBool());
        return asked ? file.toStdString() : std::string{};
    };
    f.find("exportFormat")->setProperty("currentIndex", 0);
    CHECK(askedAbout(out / "clip.mp4") == (out / "clip.mp4").string());
    // Through a link, the question names the file the export would replace.
    std::filesystem::create_symlink(out / "clip.mp4", out / "link.mp4");
    CHECK(askedAbout(out / "link.mp4") == (out / "clip.mp4").string());

    // A new name asks nothing.
    f.find("exportFormat")->setProperty("currentIndex", 2);
    f.find("exportOutput")->setProperty("text", QString::fromStdString((out / "other.mp4").string()));
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 5000));
    CHECK_FALSE(confirm->property("visible").toBool());
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 60'000));
    CHECK(std::filesystem::exists(out / "other.mp4"));
}

TEST_CASE("the question before replacing a video takes no click of a double click, and its keys answer No", "[export]") {
    // Yes lay under Export at some window heights: a double click on Export
    // replaced the video before the question showed. After a mouse Yes, Yes
    // kept the keys unseen, and a Space meant for pause replaced the next one.
    EditorFixture f;
    TempDir out;
    QObject* confirm = exportOverVideo(f, out / "clip.mp4");
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    QQuickItem* yes = EditorFixture::dialogButton(confirm, "Yes");
    REQUIRE(yes);
    // The second click of a double click, on Yes, a moment after the first.
    QTest::mouseClick(f.window, Qt::LeftButton, {}, yes->mapToScene(QPointF(yes->width() / 2, yes->height() / 2)).toPoint());
    QTest::qWait(100);
    CHECK(confirm->property("visible").toBool());
    CHECK_FALSE(exporter->property("running").toBool());
    // Nor does a click outside it close it (the second click of a double
    // click on Export, where Yes is not under it): nothing was exported, without a word.
    f.clickItem("exportStart");
    QTest::qWait(100);
    CHECK(confirm->property("visible").toBool());
    // A Space answers No.
    QTest::qWait(QGuiApplication::styleHints()->mouseDoubleClickInterval());
    QTest::keyClick(f.window, Qt::Key_Space);
    REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    QTest::qWait(200);
    CHECK_FALSE(exporter->property("running").toBool());
    CHECK(readText(out / "clip.mp4") == "earlier");
    // Answered Yes by the mouse once, the next question's keys still answer No.
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    f.clickDialogButton(confirm, "Yes");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 5000));
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 60'000));
    writeText(out / "clip.mp4", "earlier");
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    QTest::qWait(QGuiApplication::styleHints()->mouseDoubleClickInterval() + 100);
    QTest::keyClick(f.window, Qt::Key_Space);
    REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    QTest::qWait(200);
    CHECK_FALSE(exporter->property("running").toBool());
    CHECK(readText(out / "clip.mp4") == "earlier");
}

TEST_CASE("the export's format box and output name agree: a bare name gets the video's extension, a typed "
          "extension picks the format, and a MOV has alpha only when asked",
          "[export][ffmpeg]") {
    EditorFixture f;
    TempDir out;
    QObject* exporter = exporterOf(f);
    const auto exportAndWait = [&] {
        f.clickItem("exportStart");
        REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 5000));
        REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 60'000));
        CHECK_FALSE(exporter->property("failed").toBool());
    };
    const auto pixelFormat = [](const std::filesystem::path& file) {
        return shell("ffprobe -v error -select_streams v:0 -show_entries stream=pix_fmt "
                     "-of default=noprint_wrappers=1:nokey=1 '" + file.string() + "'")
            .output;
    };

    // "ProRes 4444 MOV with alpha" and a name without an extension.
    QObject* dialog = openExportDialog(f, 3, out / "clip", 4);
    setCustomSize(dialog, 320, 180);
    QObject* format = f.find("exportFormat");
    QObject* output = f.find("exportOutput");
    exportAndWait();
    CHECK(output->property("text").toString().toStdString() == (out / "clip.mov").string());
    CHECK(pixelFormat(out / "clip.mov").find("yuva444p") != std::string::npos);

    // "ProRes 4444 MOV": opaque, the water painted in.
    format->setProperty("currentIndex", 3);
    output->setProperty("text", QString::fromStdString((out / "opaque").string()));
    exportAndWait();
    CHECK(pixelFormat(out / "opaque.mov").find("yuv444p") == 0);

    // A typed .mp4 with "PNG sequence" in the box: an MP4, and the box says so.
    format->setProperty("currentIndex", 0);
    output->setProperty("text", QString::fromStdString((out / "typed.mp4").string()));
    exportAndWait();
    CHECK(format->property("currentIndex").toInt() == 2);
    CHECK(std::filesystem::is_regular_file(out / "typed.mp4"));
    CHECK_FALSE(std::filesystem::exists(out / "clip"));

    // A typed .mov with "PNG sequence with alpha": the MOV with alpha.
    format->setProperty("currentIndex", 1);
    output->setProperty("text", QString::fromStdString((out / "see-through.mov").string()));
    exportAndWait();
    CHECK(format->property("currentIndex").toInt() == 4);
    CHECK(pixelFormat(out / "see-through.mov").find("yuva444p") != std::string::npos);

    // MP4 into a folder: a video with a name in it, not a hidden ".mp4" folder of frames.
    std::filesystem::create_directory(out / "videos");
    format->setProperty("currentIndex", 2);
    output->setProperty("text", QString::fromStdString((out / "videos").string() + "/"));
    exportAndWait();
    CHECK(std::filesystem::is_regular_file(out / "videos" / "mirofish-export.mp4"));
    CHECK_FALSE(std::filesystem::exists(out / "videos" / ".mp4"));
}

TEST_CASE("while an export reads its audio file the window keeps running and Cancel stops it", "[export]") {
    EditorFixture f;
    TempDir out;
    // An ffmpeg that decodes for a long time without a word, as one reading hours of audio.
    writeProgram(out / "slow-ffmpeg", "#!/bin/sh\nexec sleep 30\n");
    const ScopedEnv ffmpeg("MIROFISH_FFMPEG", (out / "slow-ffmpeg").string());
    writeText(out / "song.mp3", "not decoded here");
    QObject* dialog = openExportDialog(f, 3, out / "frames");
    setCustomSize(dialog, 320, 180);
    f.find("exportAudio")->setProperty("text", QString::fromStdString((out / "song.mp3").string()));
    QObject* exporter = exporterOf(f);
    QElapsedTimer clock;
    clock.start();
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 2000));
    CHECK(clock.elapsed() < 2000);
    CHECK(exporter->property("readingAudio").toBool());
    CHECK(f.find("exportProgressText")->property("text").toString() == "Reading the audio file…");
    const auto stepBefore = f.step();
    CHECK(EditorFixture::waitFor([&] { return f.step() > stepBefore + 20; }, 2000));
    // Closing asks, and says what the export is doing (it said "0 of 0 frames").
    QObject* confirm = f.engine->rootObjects().front()->findChild<QObject*>("confirmStopExport");
    REQUIRE(confirm);
    CHECK_FALSE(f.window->close());
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("opened").toBool(); }));
    QObject* question = confirm->findChild<QObject*>("confirmStopExportText");
    REQUIRE(question);
    CHECK(question->property("text").toString() ==
          "An export is reading its audio file. Closing the window stops it: the frames written so far stay.");
    f.clickDialogButton(confirm, "Keep exporting");
    REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    clock.restart();
    f.clickItem("exportCancel");
    CHECK_FALSE(exporter->property("running").toBool());
    CHECK(clock.elapsed() < 5000);
    CHECK_FALSE(std::filesystem::exists(out / "frames"));
}

TEST_CASE("while ffmpeg takes no frames the window keeps running and Cancel stops the export, keeping no video",
          "[export]") {
    // An ffmpeg stuck on a stalled share held the window for a minute inside
    // a frame's write: no repaint, no Cancel, no close.
    EditorFixture f;
    TempDir out;
    writeProgram(out / "stuck-ffmpeg", "#!/bin/sh\nexec sleep 90\n");
    const ScopedEnv ffmpeg("MIROFISH_FFMPEG", (out / "stuck-ffmpeg").string());
    QObject* dialog = openExportDialog(f, 150, out / "stuck.mp4");
    setCustomSize(dialog, 640, 360);
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 5000));
    // Three frames fill ffmpeg's pipe and the queue: from then on it waits.
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("framesDone").toInt() >= 3; }, 20'000));
    QElapsedTimer clock;
    clock.start();
    QTest::qWait(500);
    const auto stepBefore = f.step();
    CHECK(EditorFixture::waitFor([&] { return f.step() > stepBefore + 20; }, 3000));
    // The keyboard is on Cancel export (the fields it was on are disabled), not
    // on the view, where Tab picked fish under the dialog; Space presses it
    // (it paused the school behind the dialog).
    CHECK(f.window->activeFocusItem() == f.find("exportCancel"));
    const bool paused = f.editor->paused();
    QTest::keyClick(f.window, Qt::Key_Space);
    CHECK(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 5000));
    CHECK(f.editor->paused() == paused);
    QTest::keyClick(f.window, Qt::Key_Tab);
    CHECK(f.editor->selectedFish().isEmpty());
    CHECK(clock.elapsed() < 15'000);  // a minute when the window waited inside the write
    CHECK_FALSE(exporter->property("failed").toBool());  // cancelled, not timed out
    CHECK_FALSE(std::filesystem::exists(out / "stuck.mp4"));
}

TEST_CASE("an export whose audio file is cut short says so, at the start and with the outcome", "[export]") {
    EditorFixture f;
    TempDir out;
    MonoAudio tone;
    tone.samples.assign(48'000, 0.25f);
    writeWav(out / "tone.wav", tone);
    std::string bytes = readText(out / "tone.wav");
    bytes.resize(bytes.size() / 2);
    writeText(out / "cut.wav", bytes);
    QObject* dialog = openExportDialog(f, 3, out / "frames");
    setCustomSize(dialog, 320, 180);
    f.find("exportAudio")->setProperty("text", QString::fromStdString((out / "cut.wav").string()));
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("running").toBool(); }, 5000));
    // Once the file is read, on a thread of its own: a moment after the export starts.
    CHECK(EditorFixture::waitFor([&] { return f.editor->message().contains("the file ends before its audio does"); }, 5000));
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 60'000));
    CHECK_FALSE(exporter->property("failed").toBool());
    CHECK_THAT(exporter->property("status").toString().toStdString(),
               Catch::Contains("Exported 3 frames") && Catch::Contains("the file ends before its audio does"));
}

TEST_CASE("while ffmpeg completes a video the dialog says so and the window keeps running", "[export][ffmpeg]") {
    EditorFixture f;
    TempDir out;
    // An ffmpeg that takes every frame, then needs two seconds to complete
    // the file, as the real one moving a long video's index to its front.
    const auto fake = out / "slow-ffmpeg";
    writeProgram(fake, "#!/bin/sh\n"
                       "for last; do :; done\n"
                       "cat > /dev/null\n"
                       "sleep 2\n"
                       "echo video > \"${last#file:}\"\n");
    const ScopedEnv ffmpeg("MIROFISH_FFMPEG", fake.string());
    QObject* dialog = openExportDialog(f, 3, out / "clip.mp4", 2);
    setCustomSize(dialog, 320, 180);
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("finishing").toBool(); }, 20'000));
    CHECK(f.find("exportProgressText")->property("text").toString() == "Finishing the video…");
    const auto stepBefore = f.step();
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > stepBefore + 20; }, 1500));
    CHECK(exporter->property("finishing").toBool());
    CHECK_FALSE(std::filesystem::exists(out / "clip.mp4"));
    REQUIRE(EditorFixture::waitFor([&] { return !exporter->property("running").toBool(); }, 20'000));
    CHECK_FALSE(exporter->property("failed").toBool());
    CHECK(readText(out / "clip.mp4") == "video\n");
}

TEST_CASE("a transparent export to an MP4 is refused before any work, since H.264 has no alpha", "[export]") {
    EditorFixture f;
    TempDir out;
    auto* exporter = qobject_cast<editor::ExportController*>(exporterOf(f));
    REQUIRE(exporter);
    CHECK_FALSE(exporter->start({{"width", 320}, {"height", 180}, {"fps", 30}, {"frames", 3}, {"alpha", true},
                                 {"output", QString::fromStdString((out / "clip.mp4").string())}}));
    CHECK(exporter->property("failed").toBool());
    CHECK_THAT(exporter->property("status").toString().toStdString(), Catch::Contains("transparent background"));
    CHECK(std::filesystem::is_empty(out.path()));
}

TEST_CASE("an export to a folder that cannot be written says so in the dialog", "[export]") {
    EditorFixture f;
    TempDir out;
    writeText(out / "a-file", "x");
    openExportDialog(f, 5, out / "a-file" / "frames");
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("failed").toBool(); }, 2000));
    CHECK_FALSE(exporter->property("running").toBool());
    CHECK_THAT(f.find("exportStatus")->property("text").toString().toStdString(),
               Catch::Contains("cannot write to the output folder"));
}

TEST_CASE("a relative name typed after the working folder was deleted is refused by name, and the editor stays", "[export]") {
    // Every key typed asked where the name lay, and std::filesystem::absolute
    // threw through the dialog's binding: the editor ended, its work lost.
    EditorFixture f;
    const std::filesystem::path before = std::filesystem::current_path();
    TempDir out;
    openExportDialog(f, 5, out / "frames");
    QObject* exporter = exporterOf(f);
    {
        TempDir gone;
        std::filesystem::current_path(gone.path());
    }  // removed: the editor's working folder is no more
    f.typeInto(f.find("exportOutput"), "clip.mp4");
    f.clickItem("exportStart");
    const bool failed = EditorFixture::waitFor([&] { return exporter->property("failed").toBool(); }, 2000);
    // Browse opens in the user's videos folder, not in the one deleted.
    QUrl browseFrom;
    QMetaObject::invokeMethod(exporter, "folderAround", Q_RETURN_ARG(QUrl, browseFrom), Q_ARG(QString, "clip.mp4"));
    std::filesystem::current_path(before);
    CHECK(browseFrom.toLocalFile() == QStandardPaths::writableLocation(QStandardPaths::MoviesLocation));
    REQUIRE(failed);
    CHECK_FALSE(exporter->property("running").toBool());
    CHECK_THAT(f.find("exportStatus")->property("text").toString().toStdString(),
               Catch::Contains("give the whole path"));
}

TEST_CASE("an output starting with ~ without HOME is refused, not written at the root", "[export]") {
    // Qt's home without HOME is "/": the frames went to /NAME.
    EditorFixture f;
    TempDir out;
    openExportDialog(f, 5, out / "frames");
    QObject* exporter = exporterOf(f);
    const QByteArray home = qgetenv("HOME");
    qunsetenv("HOME");
    const std::string name = "mirofish-home-test-" + std::to_string(QCoreApplication::applicationPid());
    f.typeInto(f.find("exportOutput"), ("~/" + name).c_str());
    f.clickItem("exportStart");
    const bool failed = EditorFixture::waitFor([&] { return exporter->property("failed").toBool(); }, 2000);
    qputenv("HOME", home);
    REQUIRE(failed);
    CHECK_FALSE(exporter->property("running").toBool());
    CHECK_THAT(f.find("exportStatus")->property("text").toString().toStdString(),
               Catch::Contains("HOME is not set: give the whole path"));
    CHECK_FALSE(std::filesystem::exists("/" + name));
}

TEST_CASE("an export to a folder holding an earlier export's frames says so in the dialog and deletes nothing",
          "[export]") {
    EditorFixture f;
    TempDir out;
    std::filesystem::create_directory(out / "frames");
    writeText(out / "frames" / "frame_000000.png", "earlier");
    openExportDialog(f, 5, out / "frames");
    QObject* exporter = exporterOf(f);
    f.clickItem("exportStart");
    REQUIRE(EditorFixture::waitFor([&] { return exporter->property("failed").toBool(); }, 2000));
    CHECK_FALSE(exporter->property("running").toBool());
    CHECK_THAT(f.find("exportStatus")->property("text").toString().toStdString(),
               Catch::Contains("already holds frames") && Catch::Contains("choose an empty folder"));
    CHECK(readText(out / "frames" / "frame_000000.png") == "earlier");
}

namespace {
// Trails on that never fade, the stats and the pointer out of the way; the view.
QQuickItem* withLastingTrails(EditorFixture& f) {
    f.editor->setShowStats(false);
    f.editor->params()->setValue(f.editor->params()->rowOf("trails"), 1);
    f.editor->params()->setValue(f.editor->params()->rowOf("trailPersistence"), 1);  // never fades
    QQuickItem* view = f.find("fishView");
    QTest::mouseMove(f.window, view->mapToScene(QPointF(5, 5)).toPoint());
    return view;
}

}  // namespace

TEST_CASE("loading a preset clears the trails of the school it replaces", "[export]") {
    EditorFixture f;
    const QQuickItem* view = withLastingTrails(f);
    REQUIRE(f.editor->savePresetAs("Trails forever"));
    QTest::qWait(2000);
    const QRect area = view->mapRectToScene(QRectF(0, 0, view->width(), view->height())).toAlignedRect();
    const int before = litPixels(f.grab(), area);
    f.editor->setPaused(true);
    auto* presets = f.editor->presets();
    int row = -1;
    for (int r = 0; r < presets->rowCount(); ++r)
        if (presets->data(presets->index(r), editor::PresetListModel::NameRole).toString() == "Trails forever") row = r;
    REQUIRE(f.editor->loadPreset(row));
    f.editor->setPaused(true);
    f.editor->stepOnce();
    QTest::qWait(300);
    const int after = litPixels(f.grab(), area);
    INFO(before << " lit pixels before, " << after << " after");
    CHECK(after < before / 4);
}

TEST_CASE("C clears the trail canvas", "[export]") {
    EditorFixture f;
    const QQuickItem* view = withLastingTrails(f);
    QTest::qWait(2000);
    const QRect area = view->mapRectToScene(QRectF(0, 0, view->width(), view->height())).toAlignedRect();
    const int before = litPixels(f.grab(), area);
    f.editor->setPaused(true);
    QTest::keyClick(f.window, Qt::Key_C);
    f.editor->stepOnce();
    QTest::qWait(300);
    const int after = litPixels(f.grab(), area);
    INFO(before << " lit pixels before, " << after << " after");
    CHECK(after < before / 4);
}

TEST_CASE("a paused window with trails on keeps its trails without drawing every frame, after C and a resize too",
          "[export]") {
    // The trail canvas is drawn from itself: it was drawn again every frame,
    // paused or not, as fast as the machine could (most of two cores here);
    // at first it stopped only when paused running, not after C, a resize or
    // a start paused, where the canvas shows the school at full light.
    EditorFixture f;
    QQuickItem* view = withLastingTrails(f);
    QTest::qWait(2000);
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    QTest::qWait(500);
    const auto area = [&] { return view->mapRectToScene(QRectF(0, 0, view->width(), view->height())).toAlignedRect(); };
    const auto framesIn2s = [&] {
        int frames = 0;
        const QMetaObject::Connection counting =
            QObject::connect(f.window, &QQuickWindow::frameSwapped, f.window, [&] { ++frames; });
        QTest::qWait(2000);
        QObject::disconnect(counting);
        return frames;
    };
    const QImage pausedShot = f.grab();
    const int paused = framesIn2s();
    const QImage later = f.grab();
    CHECK(later == pausedShot);

    QTest::keyClick(f.window, Qt::Key_C);
    QTest::qWait(500);
    const int trailed = litPixels(pausedShot, area());
    const int cleared = litPixels(f.grab(), area());
    const int afterC = framesIn2s();
    CHECK(cleared < trailed / 4);
    CHECK(cleared > 100);
    // More fish on the cleared canvas, still paused: drawn, though held.
    f.editor->setFishCount(3 * f.editor->fishCount());
    QTest::qWait(500);
    const int more = litPixels(f.grab(), area());
    INFO(cleared << " lit pixels after C, " << more << " with three times the fish");
    CHECK(more > cleared + 500);  // about 2000 more; not drawn, not one

    // A canvas of a new size starts empty: paused, it showed empty water.
    f.editor->stepOnce();  // light laid down: the canvas kept whole again
    QTest::qWait(300);
    f.window->resize(1000, 600);
    REQUIRE(EditorFixture::waitFor([&] { return f.window->width() == 1000; }));
    QTest::qWait(500);
    const int resized = litPixels(f.grab(), area());
    const int afterResize = framesIn2s();
    INFO(paused << " frames in 2 s paused, " << afterC << " after C, " << afterResize << " after a resize; " << trailed
              << " lit pixels with the trails, " << cleared << " after C, " << resized << " after a resize");
    CHECK(paused < 40);
    CHECK(afterC < 40);
    CHECK(afterResize < 40);
    CHECK(resized > 100);
}

TEST_CASE("paused, the school stays in view when trails are turned on and when C clears them", "[export]") {
    // Paused, no step lays down light: the canvas was left empty, a dark view until Play.
    EditorFixture f;
    f.editor->setShowStats(false);
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    QQuickItem* view = f.find("fishView");
    // The fish alone, as trails show them: no world frame, no tooltip of a slider under the pointer.
    view->setProperty("guides", false);
    QTest::mouseMove(f.window, view->mapToScene(QPointF(5, 5)).toPoint());
    QTest::qWait(300);
    const QRect area = view->mapRectToScene(QRectF(0, 0, view->width(), view->height())).toAlignedRect();
    const int plain = litPixels(f.grab(), area);
    REQUIRE(plain > 100);

    f.editor->params()->setValue(f.editor->params()->rowOf("trails"), 1);
    QTest::qWait(300);
    const int turnedOn = litPixels(f.grab(), area);
    QTest::keyClick(f.window, Qt::Key_C);
    QTest::qWait(300);
    const int cleared = litPixels(f.grab(), area);
    INFO(plain << " lit pixels without trails, " << turnedOn << " with them turned on, " << cleared << " after C");
    CHECK(turnedOn > plain / 2);
    CHECK(cleared > plain / 2);
}

TEST_CASE("R clears the trails of the school it replaces and, paused, shows the new one", "[export]") {
    EditorFixture f;
    QQuickItem* view = withLastingTrails(f);
    QTest::qWait(2000);
    const QRect area = view->mapRectToScene(QRectF(0, 0, view->width(), view->height())).toAlignedRect();
    const int before = litPixels(f.grab(), area);
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    QTest::keyClick(f.window, Qt::Key_R);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().step == 0; }));
    QTest::qWait(300);
    const int after = litPixels(f.grab(), area);
    INFO(before << " lit pixels before, " << after << " after");
    CHECK(after < before / 4);
    CHECK(after > 100);
}

TEST_CASE("a still is the view at its size, or larger on request, in the view's shape and on its water", "[export]") {
    EditorFixture f;
    TempDir out;
    auto* exporter = qobject_cast<editor::ExportController*>(exporterOf(f));
    REQUIRE(exporter);
    QQuickItem* canvas = f.find("fishView")->parentItem()->parentItem();
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > 10; }));
    // In the screen's pixels (2 of them a unit on a display scaled x2).
    const QSize shown = (canvas->size() * f.window->effectiveDevicePixelRatio()).toSize();
    const QString atSize = exporter->saveStill(canvas, 0, 0, QString::fromStdString(out.path().string()));
    REQUIRE(EditorFixture::waitFor([&] { return QFile::exists(atSize); }));
    const QString twice = exporter->saveStill(canvas, 2 * shown.width(), 2 * shown.height(),
                                              QString::fromStdString(out.path().string()));
    REQUIRE(EditorFixture::waitFor([&] { return QFile::exists(twice); }));
    const QString fourK = exporter->saveStill(canvas, 3840, 2160, QString::fromStdString(out.path().string()));
    REQUIRE(EditorFixture::waitFor([&] { return QFile::exists(fourK); }));
    const QImage small(atSize), large(twice), fitted(fourK);

    CHECK(small.size() == shown);
    CHECK(large.size() == 2 * shown);
    CHECK(litPixels(large) > litPixels(small));
    // The largest size of the view's shape within 3840 x 2160, not stretched to it.
    CHECK((fitted.width() == 3840 || fitted.height() == 2160));
    CHECK(fitted.width() <= 3840);
    CHECK(fitted.height() <= 2160);
    CHECK(static_cast<double>(fitted.width()) / fitted.height() == Approx(canvas->width() / canvas->height()).epsilon(0.01));
    // Opaque, the window's water where no fish is (a transparent still looks
    // washed out on any light background).
    CHECK_FALSE(small.hasAlphaChannel());
    CHECK(small.pixelColor(1, 1) == f.window->color());
    CHECK_THAT(f.editor->message().toStdString(), Catch::Contains("Saved the still"));
    // Nothing of a still is kept once it is written (each grab held a full image).
    CHECK(EditorFixture::waitFor([&] { return exporter->stillsPending() == 0; }));
}

TEST_CASE("a larger still with trails on says it is the view's trail canvas enlarged", "[export]") {
    // The trail canvas holds the view's pixels: a 4K still of it is blocks of
    // them, which an artist took for a sharp picture of the trails.
    EditorFixture f;
    TempDir out;
    auto* exporter = qobject_cast<editor::ExportController*>(exporterOf(f));
    REQUIRE(exporter);
    QQuickItem* canvas = f.find("fishView")->parentItem()->parentItem();
    const QSize shown = (canvas->size() * f.window->effectiveDevicePixelRatio()).toSize();
    const QString folder = QString::fromStdString(out.path().string());
    const auto saved = [&](int factor) {
        const QString file = exporter->saveStill(canvas, factor * shown.width(), factor * shown.height(), folder);
        REQUIRE(EditorFixture::waitFor([&] { return QFile::exists(file); }));
        return f.editor->message().toStdString();
    };
    CHECK_THAT(saved(2), !Catch::Contains("enlarged"));
    f.editor->params()->setValue(f.editor->params()->rowOf("trails"), 1);
    REQUIRE(EditorFixture::waitFor([&] { return canvas->property("trails").toBool(); }));
    CHECK_THAT(saved(1), !Catch::Contains("enlarged"));
    CHECK_THAT(saved(2), Catch::Contains(QString("with trails on, the view's %1 x %2 trail canvas enlarged")
                                             .arg(shown.width())
                                             .arg(shown.height())
                                             .toStdString()));
}

TEST_CASE("the export's browse dialogs open in the folder holding the output, whatever its name holds", "[export]") {
    // A folder named "take#1" opened the one above it ('#' began a fragment),
    // and a '%' typed into a file: URL stopped the dialogs opening there at all.
    EditorFixture f;
    auto* exporter = qobject_cast<editor::ExportController*>(exporterOf(f));
    REQUIRE(exporter);
    TempDir dir;
    for (const char* name : {"take#1", "what?", "100%", "a b", "été"}) {
        const std::filesystem::path folder = dir / name;
        std::filesystem::create_directories(folder);
        const QString clip = QString::fromStdString((folder / "clip.mp4").string());
        INFO(name);
        CHECK(exporter->folderAround(clip).toLocalFile().toStdString() == folder.string());
        CHECK(exporter->folderAround(QUrl::fromLocalFile(clip).toString()).toLocalFile().toStdString() == folder.string());
        // The PNG frames' folder "frames/": the folder holding it.
        CHECK(exporter->folderAround(QString::fromStdString((folder / "frames/").string())).toLocalFile().toStdString() ==
              folder.string());
    }
    CHECK(exporter->folderAround(QString::fromStdString("file://" + (dir / "100%" / "clip.mp4").string()))
              .toLocalFile()
              .toStdString() == (dir / "100%").string());  // a "%" typed into a file: URL
    // A folder not made yet: the nearest one above it that is there.
    CHECK(exporter->folderAround(QString::fromStdString((dir / "new" / "deeper" / "clip.mp4").string()))
              .toLocalFile()
              .toStdString() == dir.path().string());
    // No name: the user's videos folder, not the working folder.
    CHECK(exporter->folderAround("").toLocalFile() == QStandardPaths::writableLocation(QStandardPaths::MoviesLocation));
}

TEST_CASE("without a home folder a still is refused with the reason, and the export has no default output", "[export]") {
    // With HOME unset Qt names the folders at the root: F12 wrote /Pictures/...
    EditorFixture f;
    auto* exporter = qobject_cast<editor::ExportController*>(exporterOf(f));
    REQUIRE(exporter);
    QQuickItem* canvas = f.find("fishView")->parentItem()->parentItem();
    const QByteArray home = qgetenv("HOME");
    qunsetenv("HOME");
    const QString still = exporter->saveStill(canvas, 0, 0, {});
    const QString output = exporter->defaultOutput();
    qputenv("HOME", home);
    CHECK(still.isEmpty());
    CHECK(output.isEmpty());
    CHECK(f.editor->messageIsError());
    CHECK_THAT(f.editor->message().toStdString(), Catch::Contains("no folder for stills: set HOME"));
}

// Run by the test below in a process of its own, at a display scale of 1 and 2
// (QT_SCALE_FACTOR is read as the application starts), HOME a folder of its own.
TEST_CASE("F12 and Shift+F12 save the view with the pixels the screen shows, and twice as many", "[.stills-at-scale]") {
    EditorFixture f(cli::kDefaultPreset, 800, 500);
    QQuickItem* canvas = f.find("fishView")->parentItem()->parentItem();
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > 10; }));
    const QDir pictures(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation));
    const auto stills = [&] { return pictures.entryList({"mirofish-*.png"}, QDir::Files, QDir::Name); };
    const QSize shown = (canvas->size() * f.window->devicePixelRatio()).toSize();
    INFO("device pixel ratio " << f.window->devicePixelRatio());
    QTest::keyClick(f.window, Qt::Key_F12);
    REQUIRE(EditorFixture::waitFor([&] { return stills().size() == 1 && f.editor->message().contains("Saved"); }));
    QTest::qWait(20);  // distinct millisecond stamps in the names
    QTest::keyClick(f.window, Qt::Key_F12, Qt::ShiftModifier);
    REQUIRE(EditorFixture::waitFor([&] { return stills().size() == 2; }));
    REQUIRE(EditorFixture::waitFor([&] { return QImage(pictures.filePath(stills()[1])).size() == 2 * shown; }));
    CHECK(QImage(pictures.filePath(stills()[0])).size() == shown);
    CHECK(QImage(pictures.filePath(stills()[1])).size() == 2 * shown);
}

TEST_CASE("on a display scaled x2 a still at the view's size has the pixels the screen shows, not half", "[export]") {
    // F12 grabbed the view's size in the window's units: 910 x 693 of the
    // 1820 x 1386 pixels shown, and Shift+F12 ("twice") only what was shown.
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    for (const char* scale : {"1", "1.5", "2"}) {
        TempDir home;
        const Shell r = shell("HOME='" + home.path().string() + "' XDG_CONFIG_HOME='" + home.path().string() +
                              "' QT_SCALE_FACTOR=" + scale + " '" + self + "' '[.stills-at-scale]'");
        INFO("QT_SCALE_FACTOR=" << scale << "\n" << r.output);
        CHECK(r.code == 0);
        CHECK_THAT(r.output, Catch::Contains("All tests passed"));
    }
}

TEST_CASE("an export at settings that take seconds a step keeps the window answering, and Cancel ends it at once",
          "[export]") {
    // 70 000 fish that all see one another (perception 2000 px): seconds a
    // step, two steps a frame at 30 fps. The window's own school is paused.
    EditorFixture f;
    f.editor->setPaused(true);
    f.editor->params()->setValue(f.editor->params()->rowOf("perceptionRadius"), 2000.0);
    f.editor->setFishCount(70'000);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().fishCount == 70'000; }, 10'000));
    TempDir out;
    editor::ExportController* exporter = startPngExport(f, out / "frames", 320, 180, 3);
    // The event loop turns while the first frame is simulated: the wait ends
    // with no frame done. (How long it took is no measure on a loaded
    // machine, where the export's two threads take both CPUs: 300 ms took
    // up to 1.6 s there.)
    QElapsedTimer turn;
    turn.start();
    QTest::qWait(300);
    const qint64 answered = turn.elapsed();
    CHECK(exporter->running());
    CHECK(exporter->framesDone() == 0);

    QElapsedTimer cancelling;
    cancelling.start();
    exporter->cancel();
    const qint64 cancelled = cancelling.elapsed();
    INFO("300 ms of the event loop took " << answered << " ms; Cancel took " << cancelled << " ms");
    CHECK(cancelled < 500);
    CHECK_FALSE(exporter->running());
    CHECK_THAT(exporter->status().toStdString(), Catch::Contains("cancelled"));
    CHECK_FALSE(std::filesystem::exists(out / "frames" / "frame_000000.png"));
}
