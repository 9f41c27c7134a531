// Offscreen export to PNG: deterministic frames, exactly 1/fps per frame,
// and trails that pile up and settle.
#include <QImage>
#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include "editor/fish_geometry.hpp"
#include "editor/fish_view.hpp"
#include "editor/frame_capture.hpp"
#include "editor/overlay_geometry.hpp"
#include "editor/trail_frame.hpp"
#include "render/png_file.hpp"
#include "sim/inspect.hpp"
#include "render_fixture.hpp"

using namespace mirofish;
using namespace mirofish::test;

TEST_CASE("a frame of flat water takes little room at the default PNG level, and reads back the same", "[render]") {
    QImage water(1920, 1080, QImage::Format_RGB888);
    water.fill(QColor(11, 22, 34));  // a colour whose bytes repeat every three
    for (int x = 200; x < 1700; x += 7) water.setPixelColor(x, 500 + x % 40, QColor(240, 250, 255));
    TempDir dir;
    REQUIRE(render::writePngFile(dir / "water.png", water, 1).empty());
    const auto bytes = std::filesystem::file_size(dir / "water.png");
    INFO(bytes << " bytes for " << water.sizeInBytes() << " of pixels");
    CHECK(bytes < static_cast<std::uintmax_t>(water.sizeInBytes()) / 50);
    CHECK(QImage(QString::fromStdString((dir / "water.png").string())).convertToFormat(QImage::Format_RGB888) == water);
}

TEST_CASE("a PNG that cannot be written, as on a full disk, says why, and libpng prints nothing of its own", "[render]") {
    QImage water(640, 360, QImage::Format_RGB888);  // stored (level 0): far more than stdio buffers
    water.fill(QColor(11, 22, 34));
    TempDir dir;
    // stderr into a file for the call.
    std::fflush(stderr);
    const int saved = ::dup(2);
    const int log = ::open((dir / "stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE((saved >= 0 && log >= 0));
    ::dup2(log, 2);
    const std::string why = render::writePngFile("/dev/full", water, 0);
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    ::close(log);
    CHECK_THAT(why, Catch::Contains("No space left on device"));
    CHECK(fileBytes(dir / "stderr").empty());
}

TEST_CASE("30 frames at 320x180 exported twice are byte-identical PNGs", "[render]") {
    TempDir dir;
    runExport(smallExport(dir / "a"));
    runExport(smallExport(dir / "b"));
    for (int i = 0; i < 30; ++i) {
        INFO("frame " << i);
        const std::string a = fileBytes(framePath(dir / "a", i));
        REQUIRE(a.size() > 100);
        CHECK(a == fileBytes(framePath(dir / "b", i)));
    }
    CHECK_FALSE(std::filesystem::exists(framePath(dir / "a", 30)));
    // Not trivially identical: the school moves between frames.
    CHECK(fileBytes(framePath(dir / "a", 0)) != fileBytes(framePath(dir / "a", 29)));
}

TEST_CASE("the frames do not depend on the number of simulation threads", "[render]") {
    TempDir dir;
    auto one = smallExport(dir / "one", 10);
    one.preset.scene.fishCount = 3000;  // several parallel chunks
    one.threads = 1;
    auto three = one;
    three.output = dir / "three";
    three.threads = 3;
    runExport(one);
    runExport(three);
    CHECK(fileBytes(framePath(dir / "one", 9)) == fileBytes(framePath(dir / "three", 9)));
}

TEST_CASE("a different seed exports different frames", "[render]") {
    TempDir dir;
    auto other = smallExport(dir / "b", 2);
    other.preset.scene.seed += 1;
    runExport(smallExport(dir / "a", 2));
    runExport(other);
    CHECK(fileBytes(framePath(dir / "a", 1)) != fileBytes(framePath(dir / "b", 1)));
}

TEST_CASE("the school drawn at full light on a cleared canvas while paused is wiped by the first light laid down",
          "[render]") {
    // Paused, no step lays down light: the school is drawn at full light on
    // a clear canvas every frame. That stand-in stayed on the canvas once the
    // school swam, as light that faded like a stroke (with persistence 1, never).
    editor::FishView view;
    editor::TrailFrame paused{.on = true, .keep = {0.99f, 0.99f, 0.99f}, .deposit = 0.0f, .exposure = 1.5f, .seconds = 0.0f};
    editor::TrailFrame swimming = paused;
    swimming.deposit = 0.1f;
    swimming.seconds = 1.0f / 60;
    view.setTrailFrame(swimming);
    view.clearTrails();
    for (int frame = 0; frame < 3; ++frame) {
        view.setTrailFrame(paused);
        CHECK(view.trailKeep() == QVector3D(0, 0, 0));
        CHECK(view.trailDeposit() == 1.0);
    }
    view.setTrailFrame(swimming);  // the first light: on a clear canvas
    CHECK(view.trailKeep() == QVector3D(0, 0, 0));
    CHECK(view.trailDeposit() == Approx(0.1));
    view.setTrailFrame(swimming);  // then the canvas fades as it should
    CHECK(view.trailKeep() == QVector3D(0.99f, 0.99f, 0.99f));
    view.setTrailFrame(paused);  // paused again on light laid down: it stays, nothing added
    CHECK(view.trailKeep() == QVector3D(0.99f, 0.99f, 0.99f));
    CHECK(view.trailDeposit() == 0.0);
}

TEST_CASE("trail persistence is the share of light left after one second, at any frame rate", "[render]") {
    Params p;
    p.set(ParamId::Trails, 1);
    p.set(ParamId::TrailPersistence, 0.5f);
    for (const double fps : {24.0, 60.0}) {
        const auto t = editor::trailFrame(p, 1.0 / fps);
        CHECK(std::pow(t.keep[0], fps) == Approx(0.5).epsilon(1e-4));
        CHECK(t.deposit * fps == Approx(p.get(ParamId::TrailOpacity) * 60).epsilon(1e-4));
    }
    p.set(ParamId::TrailPersistence, 0);
    CHECK(editor::trailFrame(p, 1.0 / 30).keep[1] == 0.0f);
    p.set(ParamId::TrailPersistence, 1);
    CHECK(editor::trailFrame(p, 1.0 / 30).keep[1] == 1.0f);
}

namespace {
std::vector<double> litCurve(const std::filesystem::path& folder, int frames) {
    std::vector<double> lit;
    for (int i = 0; i < frames; ++i) lit.push_back(litShare(QImage(QString::fromStdString(framePath(folder, i).string()))));
    return lit;
}

render::ExportSettings trailExport(const std::filesystem::path& out, float persistence, int frames) {
    auto s = smallExport(out, static_cast<std::uint64_t>(frames));
    s.trails = true;
    s.preset.scene.params.set(ParamId::TrailPersistence, persistence);
    return s;
}
}  // namespace

TEST_CASE("with trails on, the lit area grows over the first frames, then settles at a level set by the persistence",
          "[render]") {
    TempDir dir;
    constexpr int kFrames = 150;  // 5 s at 30 fps
    runExport(trailExport(dir / "short", 0.3f, kFrames));
    runExport(trailExport(dir / "long", 0.9f, kFrames));
    const auto shortLit = litCurve(dir / "short", kFrames);
    const auto longLit = litCurve(dir / "long", kFrames);
    INFO("persistence 0.9, lit share at frames 0, 5, 15, 60, 120, 149: " << longLit[0] << " " << longLit[5] << " "
         << longLit[15] << " " << longLit[60] << " " << longLit[120] << " " << longLit[149]);
    INFO("persistence 0.3, the same frames: " << shortLit[0] << " " << shortLit[5] << " " << shortLit[15] << " "
         << shortLit[60] << " " << shortLit[120] << " " << shortLit[149]);
    // Grows: the strokes pile up.
    CHECK(longLit[15] > 2 * longLit[0]);
    // Settles: the last second varies by a few per cent at most.
    const auto [lo, hi] = std::minmax_element(longLit.begin() + 120, longLit.end());
    CHECK(*hi - *lo < 0.1 * *hi);
    // The level follows the persistence.
    CHECK(longLit[149] > 1.5 * shortLit[149]);
}

TEST_CASE("trails with persistence 0 light the same pixels as a plain render", "[render]") {
    TempDir dir;
    runExport(trailExport(dir / "trails", 0.0f, 10));
    runExport(smallExport(dir / "plain", 10));
    const QImage trails(QString::fromStdString(framePath(dir / "trails", 9).string()));
    const QImage plain(QString::fromStdString(framePath(dir / "plain", 9).string()));
    // Lit in either: compare the sets of pixels that are not water.
    long both = 0, either = 0;
    for (int y = 0; y < plain.height(); ++y)
        for (int x = 0; x < plain.width(); ++x) {
            const bool a = lit(trails.pixel(x, y)), b = lit(plain.pixel(x, y));
            both += a && b;
            either += a || b;
        }
    INFO(both << " pixels lit in both, " << either << " in either");
    REQUIRE(either > 500);
    CHECK(static_cast<double>(both) / either > 0.8);
}

TEST_CASE("a world fitted to a portrait frame takes its objects along, each where it was relative to the world",
          "[render]") {
    render::ExportSettings s;
    s.preset = loadPreset(shippedPreset("obstacle-reef"));
    s.width = 1080;
    s.height = 1920;
    const Scene before = s.preset.scene;
    REQUIRE_FALSE(before.obstacles.empty());
    render::fitWorldToFrame(s);
    const Scene& after = s.preset.scene;
    CHECK(after.width / after.height == Approx(1080.0 / 1920.0).epsilon(1e-4));
    REQUIRE(after.obstacles.size() == before.obstacles.size());
    for (std::size_t i = 0; i < after.obstacles.size(); ++i) {
        const Obstacle &a = after.obstacles[i], &b = before.obstacles[i];
        CHECK(a.centre[0] / after.width == Approx(b.centre[0] / before.width).epsilon(1e-4));
        CHECK(a.centre[1] / after.height == Approx(b.centre[1] / before.height).epsilon(1e-4));
        CHECK(a.radius == b.radius);
        // Inside the new world, as it was inside the old one.
        CHECK(a.centre[0] < after.width);
        CHECK(a.centre[1] < after.height);
    }

    s.preset = loadPreset(shippedPreset("follow-the-leader"));
    const Scene led = s.preset.scene;
    REQUIRE(led.leader);
    render::fitWorldToFrame(s);
    REQUIRE(s.preset.scene.leader);
    const auto& path = s.preset.scene.leader->path;
    REQUIRE(path.size() == led.leader->path.size());
    for (std::size_t i = 0; i < path.size(); ++i) {
        CHECK(path[i][0] / s.preset.scene.width == Approx(led.leader->path[i][0] / led.width).epsilon(1e-4));
        CHECK(path[i][1] / s.preset.scene.height == Approx(led.leader->path[i][1] / led.height).epsilon(1e-4));
    }
}

TEST_CASE("a portrait export fills the frame when the world takes its shape, else letterboxes the world", "[render]") {
    TempDir dir;
    auto fitted = smallExport(dir / "fitted", 1);
    fitted.width = 180;
    fitted.height = 320;
    fitted.fitWorld = true;
    auto boxed = fitted;
    boxed.output = dir / "boxed";
    boxed.fitWorld = false;
    runExport(fitted);
    runExport(boxed);
    const auto topRows = [](const QImage& image) { return litShare(image.copy(0, 0, image.width(), image.height() / 6)); };
    const double fittedTop = topRows(QImage(QString::fromStdString(framePath(dir / "fitted", 0).string())));
    const double boxedTop = topRows(QImage(QString::fromStdString(framePath(dir / "boxed", 0).string())));
    INFO("lit share of the top sixth: fitted " << fittedTop << ", letterboxed " << boxedTop);
    CHECK(fittedTop > 0.01);
    CHECK(boxedTop == 0.0);

    // Long fish at the wrapping world's edges: nothing of them in the letterbox.
    auto longFish = boxed;
    longFish.output = dir / "long";
    longFish.preset.scene.params.set(ParamId::FishLength, 80.0f);
    longFish.preset.scene.fishCount = 2000;
    runExport(longFish);
    const QImage frame(QString::fromStdString(framePath(dir / "long", 0).string()));
    const int bar = (frame.height() - frame.width() * 720 / 1280) / 2;
    INFO("letterbox bars of " << bar << " px");
    CHECK(litShare(frame.copy(0, 0, frame.width(), bar - 1)) == 0.0);
    CHECK(litShare(frame.copy(0, frame.height() - bar + 1, frame.width(), bar - 1)) == 0.0);
    CHECK(litShare(frame.copy(0, bar + 1, frame.width(), frame.height() - 2 * bar - 2)) > 0.05);
}

TEST_CASE("in a wrapping world a fish at an edge is drawn on the other side too, at a corner on all three", "[render]") {
    editor::FrameSnapshot frame;
    frame.worldWidth = 1000;
    frame.worldHeight = 500;
    frame.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    frame.params.set(ParamId::FishLength, 10.0f);
    frame.params.set(ParamId::SpeedStretch, 0.0f);
    const auto fish = [&](float x, float y) {
        frame.px.push_back(x), frame.py.push_back(y), frame.hx.push_back(1), frame.hy.push_back(0);
        frame.mx.push_back(1), frame.my.push_back(0);
        frame.speed.push_back(100), frame.id.push_back(static_cast<std::uint32_t>(frame.id.size()));
        frame.alarmed.push_back(0);
    };
    fish(500, 250);  // far from every edge
    fish(995, 250);  // its nose past the right edge
    fish(500, 3);    // at the top
    fish(2, 498);    // at the bottom left corner
    editor::ViewTransform view;
    std::vector<editor::SeamCopy> copies;
    editor::findSeamCopies(frame, view, 0.0f, copies);
    const auto has = [&](std::uint32_t i, float dx, float dy) {
        return std::any_of(copies.begin(), copies.end(),
                           [&](const editor::SeamCopy& c) { return c.index == i && c.dx == dx && c.dy == dy; });
    };
    CHECK(copies.size() == 5);
    CHECK(has(1, -1000, 0));
    CHECK(has(2, 0, 500));
    CHECK(has(3, 1000, 0));
    CHECK(has(3, 0, -500));
    CHECK(has(3, 1000, -500));
    // Walls keep every fish inside: nothing to draw twice.
    frame.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Soft));
    editor::findSeamCopies(frame, view, 0.0f, copies);
    CHECK(copies.empty());
}

namespace {
// One fish at (500, 250) of a 1000 x 500 world with trails, swimming right
// at `speed` px/s, `length` px long (not stretched by speed), drawn heading
// `heading`.
editor::FrameSnapshot oneFishWithTrails(float length, float speed, Vec2 heading = Vec2{{1, 0}}) {
    editor::FrameSnapshot frame;
    frame.worldWidth = 1000;
    frame.worldHeight = 500;
    frame.params.set(ParamId::Trails, 1);
    frame.params.set(ParamId::FishLength, length);
    frame.params.set(ParamId::SpeedStretch, 0.0f);
    frame.px = {500}, frame.py = {250}, frame.hx = {heading[0]}, frame.hy = {heading[1]};
    frame.speed = {speed}, frame.id = {0}, frame.alarmed = {0};
    frame.mx = {1}, frame.my = {0};
    return frame;
}
}  // namespace

TEST_CASE("with trails a fish too fast for its stamps' number draws them longer, overlapping, not as dashes", "[render]") {
    // 2 px long at 1500 px/s and 24 fps: 62.5 px a frame, which would take
    // 63 stamps; 8 of them, each 2 px long, were dashes with gaps between.
    editor::FrameSnapshot frame = oneFishWithTrails(2.0f, 1500.0f);
    const editor::ViewTransform view;
    std::vector<editor::SeamCopy> stamps;
    editor::addTrailStamps(frame, view, 1.0f / 24, stamps);
    REQUIRE(stamps.size() >= 2);
    const float between = -stamps[0].dx;
    std::vector<QSGGeometry::ColoredPoint2D> all(3 * (stamps.size() + 1));
    editor::writeFishTriangles(frame, view, 1.0f / 24, 0, 1, all.data());
    editor::writeSeamCopies(frame, view, 1.0f / 24, stamps, 0, stamps.size(), all.data() + 3);
    for (std::size_t k = 0; k < all.size(); k += 3) {
        const float length = all[k].x - all[k + 1].x;  // nose to tail, along x
        INFO("stamp " << k / 3 << ": " << length << " px long, " << between << " px apart");
        CHECK(length >= 2 * between - 1e-3f);
    }
    // Evenly along the whole way it swam in the frame.
    CHECK(-stamps.back().dx + between == Approx(1500.0f / 24));
    // Near a wrapping world's edge, the fish's own longer stamp shows across
    // it too (its copy was looked for within its plain length alone).
    frame.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    frame.px = {995};
    std::vector<editor::SeamCopy> copies;
    editor::findSeamCopies(frame, view, 1.0f / 24, copies);
    CHECK(std::any_of(copies.begin(), copies.end(), [](const editor::SeamCopy& c) { return c.dx == -1000.0f; }));
    frame.px = {500};
    frame.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Soft));
    // As much light as one fish drawn once, whatever the rate: longer at 24
    // fps, the stamps were five times as bright as at 120. Light here is a
    // stamp's colour over its area, which grows with its length (within the
    // rounding of faint colours to whole levels).
    std::vector<QSGGeometry::ColoredPoint2D> one(3);
    editor::writeFishTriangles(frame, view, 0.0f, 0, 1, one.data());
    const auto level = [](const QSGGeometry::ColoredPoint2D& v) { return double(v.r) + v.g + v.b; };
    double light = 0;
    for (std::size_t k = 0; k < all.size(); k += 3) light += level(all[k]) * (all[k].x - all[k + 1].x);
    CHECK(light == Approx(level(one[0]) * (one[0].x - one[1].x)).epsilon(0.15));
}

TEST_CASE("with trails the stamps follow the way a fish swam, not its drawn heading, which turns more slowly", "[render]") {
    // After a bounce the drawn heading lagged the way swum by up to half a
    // turn, and the stamps lay across the path: a comb of dashes.
    // Swimming right, drawn still turning from down.
    editor::FrameSnapshot frame = oneFishWithTrails(10.0f, 300.0f, Vec2{{0, 1}});
    const editor::ViewTransform view;
    std::vector<editor::SeamCopy> stamps;
    editor::addTrailStamps(frame, view, 1.0f / 24, stamps);
    REQUIRE_FALSE(stamps.empty());
    for (const editor::SeamCopy& s : stamps) {
        CHECK(s.dx < 0.0f);  // behind it, where it swam from
        CHECK(s.dy == 0.0f);
    }
}

TEST_CASE("with trails a fish lays its light along the way it swam in the frame, not as a dash at 24 fps", "[render]") {
    // A cruising fish moved most of a body length between two frames of a
    // film's rate, and its stroke was a row of dashes.
    editor::FrameSnapshot frame = oneFishWithTrails(10.0f, 300.0f);
    const editor::ViewTransform view;  // world px = view px
    std::vector<editor::SeamCopy> stamps;
    const float swum = 300.0f / 24;  // 12.5 px in the frame
    editor::addTrailStamps(frame, view, 1.0f / 24, stamps);
    REQUIRE(stamps.size() == 2);  // and the fish itself: three, at most half its length (5 px) apart
    float last = 0;
    for (const editor::SeamCopy& s : stamps) {
        CHECK(s.index == 0);
        CHECK(s.dy == 0.0f);
        CHECK(last - s.dx <= 5.0f);
        last = s.dx;
    }
    CHECK(-last == Approx(swum * 2 / 3));  // the next frame's first stamp follows on
    // As much light as one fish without stamps.
    std::vector<QSGGeometry::ColoredPoint2D> one(3), all(3 * (stamps.size() + 1));
    editor::writeFishTriangles(frame, view, 0.0f, 0, 1, one.data());
    editor::writeFishTriangles(frame, view, 1.0f / 24, 0, 1, all.data());
    editor::writeSeamCopies(frame, view, 1.0f / 24, stamps, 0, stamps.size(), all.data() + 3);
    int sum[3] = {0, 0, 0};
    for (std::size_t k = 0; k < all.size(); k += 3) sum[0] += all[k].r, sum[1] += all[k].g, sum[2] += all[k].b;
    CHECK(std::abs(sum[0] - one[0].r) <= 2);
    CHECK(std::abs(sum[1] - one[0].g) <= 2);
    CHECK(std::abs(sum[2] - one[0].b) <= 2);
    // Just across a wrapping world's seam, the stamps behind the fish show
    // at the far edge, where it swam.
    frame.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    frame.px = {3};
    stamps.clear();
    editor::addTrailStamps(frame, view, 1.0f / 24, stamps);
    for (const float back : {swum / 3, swum * 2 / 3}) {
        INFO(back << " px back");
        CHECK(std::any_of(stamps.begin(), stamps.end(), [&](const editor::SeamCopy& s) {
            return s.dy == 0.0f && s.dx == Approx(1000 - back);
        }));
    }
    frame.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Soft));
    frame.px = {500};
    // At the window's 60 fps a cruising fish moves less than half its length: one stamp, as before.
    frame.speed = {144};
    stamps.clear();
    editor::addTrailStamps(frame, view, 1.0f / 60, stamps);
    CHECK(stamps.empty());
    // Without trails, the fish is drawn once, where it is.
    frame.params.set(ParamId::Trails, 0);
    editor::addTrailStamps(frame, view, 1.0f / 24, stamps);
    CHECK(stamps.empty());
}

TEST_CASE("in a wrapping world an obstacle across the seam is drawn on the other side too, and with walls once only", "[render]") {
    // It pushes fish on both sides: drawn once, fish swerved round empty water.
    editor::FrameSnapshot frame;
    frame.worldWidth = 1000;
    frame.worldHeight = 500;
    frame.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    frame.obstacles = {Obstacle{Vec2{{20, 250}}, 60}, Obstacle{Vec2{{500, 250}}, 60}};
    const editor::ViewTransform view;  // world px = view px
    editor::LineList out, wrapped;
    editor::buildOverlayLines(frame, view, out, wrapped);
    // Vertices between x0 and x1 at the rocks' height (not the world's edges, at y 0 and 500).
    const auto reaches = [](const editor::LineList& list, double x0, double x1) {
        return std::count_if(list.vertices().begin(), list.vertices().end(), [&](const QSGGeometry::ColoredPoint2D& v) {
            return v.x >= x0 && v.x <= x1 && v.y > 150 && v.y < 350;
        });
    };
    CHECK(reaches(wrapped, 940, 1000) > 0);  // the copy of the rock at x 20, from x 960 on
    CHECK(reaches(wrapped, 440, 560) > 0);   // the rock in the middle, once
    CHECK(reaches(wrapped, 1000, 1100) > 0);  // the copy's far side, which the view clips
    CHECK(reaches(out, 400, 600) == 0);      // objects are all in the clipped list
    frame.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Bounce));
    editor::buildOverlayLines(frame, view, out, wrapped);
    CHECK(wrapped.vertices().empty());
    CHECK(reaches(out, 940, 1100) == 0);  // no copy
    CHECK(reaches(out, 440, 560) > 0);
}

TEST_CASE("fish that a predator placed since the last step reaches are drawn alarmed at once, as the inspector says them",
          "[render]") {
    // Paused, they stayed blue until the next step, while a click on one said "alarmed".
    SerialScheduler serial;
    Params p;
    p.set(ParamId::PredatorSpeed, 0.0f);
    Simulation sim(sceneWith(p, 2000, 1000.0f, 1000.0f, 3), serial);
    sim.step();
    sim.setPredators({Predator{Vec2{{500, 500}}, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0}});
    editor::FrameSnapshot frame;
    editor::captureDrawable(sim, sim.params(), frame);
    std::size_t alarmed = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) {
        const auto inspected = inspectFish(sim, frame.id[i]);
        REQUIRE(inspected);
        INFO("fish " << frame.id[i]);
        CHECK((frame.alarmed[i] == 1) == inspected->alarmed);
        alarmed += frame.alarmed[i];
    }
    CHECK(alarmed > 50);
}

TEST_CASE("fish within a predator's reach are drawn alarmed, also when an alarm outlasts it by 0 s", "[render]") {
    // The reference: the plain distance to the predator against its range
    // (the world is 1000 px wide, the predator far from its edges).
    for (const float alarmSeconds : {0.0f, 1.5f}) {
        SerialScheduler serial;
        Params p;
        p.set(ParamId::AlarmDuration, alarmSeconds);
        p.set(ParamId::PredatorSpeed, 0.0f);
        Simulation sim(sceneWith(p, 2000, 1000.0f, 1000.0f, 3), serial);
        const Vec2 at{{500, 500}};
        sim.setPredators({Predator{at, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0}});
        sim.step();
        editor::FrameSnapshot frame;
        editor::captureDrawable(sim, sim.params(), frame);
        const double reach = p.get(ParamId::PredatorRadius);
        std::size_t near = 0;
        for (std::size_t i = 0; i < sim.fishCount(); ++i) {
            const double d = std::hypot(double(frame.px[i]) - at[0], double(frame.py[i]) - at[1]);
            INFO("alarm " << alarmSeconds << " s, fish " << frame.id[i] << " at " << d << " px");
            // With alarm time, a fish is alarmed from the step that scared it:
            // one that swam into reach during the last step (a few px) is not yet.
            const double inside = alarmSeconds == 0.0f ? reach * (1 - 1e-4) : reach - 10;
            if (d < inside) {
                CHECK(frame.alarmed[i] == 1);
                ++near;
            } else if (alarmSeconds == 0.0f && d > reach * (1 + 1e-4)) {
                CHECK(frame.alarmed[i] == 0);
            }
        }
        CHECK(near > 50);
    }
}
