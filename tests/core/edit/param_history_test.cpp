// Undo and redo of parameter edits as the editor makes them: slider drags,
// single changes and whole-preset loads.
#include <catch2/catch.hpp>

#include "edit/param_history.hpp"

using namespace mirofish;

namespace {
// Noise edited from 0.04 to 0.1, then undone (Redo offers it again): the
// parameters after the undo.
Params noiseEditedAndUndone(ParamHistory& h) {
    Params p;
    h.record(ParamId::Noise, 0.04f, 0.1f);
    p.set(ParamId::Noise, 0.1f);
    return h.undo(p)->params;
}
}  // namespace

TEST_CASE("one slider drag is one undo step", "[edit]") {
    ParamHistory h;
    Params p;
    p.set(ParamId::MaxSpeed, 160.0f);
    // The drag passes through 170 and 180 and ends at 200.
    h.record(ParamId::MaxSpeed, 160.0f, 170.0f);
    h.record(ParamId::MaxSpeed, 170.0f, 180.0f);
    h.record(ParamId::MaxSpeed, 180.0f, 200.0f);
    h.closeGroup();
    p.set(ParamId::MaxSpeed, 200.0f);

    REQUIRE(h.undoText() == "Undo Max speed");
    const auto undone = h.undo(p);
    REQUIRE(undone);
    REQUIRE(undone->params.get(ParamId::MaxSpeed) == 160.0f);
    REQUIRE_FALSE(h.canUndo());

    REQUIRE(h.redoText() == "Redo Max speed");
    const auto redone = h.redo(undone->params);
    REQUIRE(redone);
    REQUIRE(redone->params.get(ParamId::MaxSpeed) == 200.0f);
    REQUIRE_FALSE(h.canRedo());
}

TEST_CASE("releasing the slider and dragging again makes a second undo step", "[edit]") {
    ParamHistory h;
    Params p;
    h.record(ParamId::Noise, 0.04f, 0.1f);
    h.closeGroup();
    h.record(ParamId::Noise, 0.1f, 0.2f);
    p.set(ParamId::Noise, 0.2f);

    p = h.undo(p)->params;
    REQUIRE(p.get(ParamId::Noise) == 0.1f);
    p = h.undo(p)->params;
    REQUIRE(p.get(ParamId::Noise) == 0.04f);
    REQUIRE_FALSE(h.undo(p));
}

TEST_CASE("touching another parameter ends the drag even without closeGroup", "[edit]") {
    ParamHistory h;
    Params p;
    h.record(ParamId::Noise, 0.04f, 0.1f);
    h.record(ParamId::Jitter, 0.02f, 0.5f);
    h.record(ParamId::Noise, 0.1f, 0.3f);
    p.set(ParamId::Noise, 0.3f);
    p.set(ParamId::Jitter, 0.5f);

    p = h.undo(p)->params;
    REQUIRE(p.get(ParamId::Noise) == 0.1f);
    REQUIRE(h.undoText() == "Undo Jitter");
    p = h.undo(p)->params;
    REQUIRE(p.get(ParamId::Jitter) == 0.02f);
    REQUIRE(p.get(ParamId::Noise) == 0.1f);
    p = h.undo(p)->params;
    REQUIRE(p.get(ParamId::Noise) == 0.04f);
}

TEST_CASE("a drag that ends where it started leaves nothing to undo", "[edit]") {
    ParamHistory h;
    h.record(ParamId::MaxSpeed, 160.0f, 300.0f);
    h.record(ParamId::MaxSpeed, 300.0f, 160.0f);
    REQUIRE_FALSE(h.canUndo());
    h.record(ParamId::Noise, 0.5f, 0.5f);
    REQUIRE_FALSE(h.canUndo());
    REQUIRE(h.undoText() == "Undo");
}

TEST_CASE("undo after loading a preset restores every parameter", "[edit]") {
    Params before;
    before.set(ParamId::MaxSpeed, 123.0f);
    before.set(ParamId::Noise, 0.07f);
    Params after;  // the preset: defaults except these
    after.set(ParamId::SeparationWeight, 3.5f);
    after.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));

    ParamHistory h;
    h.record(ParamId::MaxSpeed, 160.0f, 123.0f);
    h.recordAll(before, after, "Load preset");
    REQUIRE(h.undoText() == "Undo Load preset");

    const auto undone = h.undo(after);
    REQUIRE(undone);
    REQUIRE(undone->params == before);
    REQUIRE(h.undoText() == "Undo Max speed");
    REQUIRE(h.redo(undone->params)->params == after);
}

TEST_CASE("a load is one undo step that hands back the whole preset open before it, even with the same parameters", "[edit]") {
    OpenPreset mine, theirs;
    mine.running.name = mine.loaded.name = "Mine";
    mine.running.scene.fishCount = 321;  // an unsaved edit
    mine.running.scene.obstacles.push_back(Obstacle{Vec2{{100, 100}}, 40});
    mine.file = "/home/me/mine.json";
    mine.user = true;
    theirs.running.name = theirs.loaded.name = "Theirs";
    const Params same;

    ParamHistory h;
    h.recordAll(same, same, "Load Theirs", std::nullopt, PresetSwitch{mine, theirs});
    REQUIRE(h.undoText() == "Undo Load Theirs");
    const auto undone = h.undo(same);
    REQUIRE((undone && undone->preset));
    CHECK(undone->preset->running.scene.fishCount == 321);
    CHECK(undone->preset->running.scene.obstacles.size() == 1);
    CHECK(undone->preset->loaded.name == "Mine");
    CHECK(undone->preset->file == mine.file);
    CHECK(undone->preset->user);
    const auto redone = h.redo(same);
    REQUIRE((redone && redone->preset));
    CHECK(redone->preset->running.name == "Theirs");
    CHECK_FALSE(redone->preset->user);
    // A parameter edit carries no preset.
    h.record(ParamId::MaxSpeed, 160.0f, 170.0f);
    CHECK_FALSE(h.undo(same)->preset);
}

TEST_CASE("a drag that ends where it started keeps the redo steps, and one that changes something discards them", "[edit]") {
    ParamHistory h;
    Params p = noiseEditedAndUndone(h);
    h.record(ParamId::MaxSpeed, 160.0f, 300.0f);
    h.record(ParamId::MaxSpeed, 300.0f, 160.0f);
    h.closeGroup();
    REQUIRE(h.redoText() == "Redo Current noise");
    const std::vector<ModRoute> three = defaultRoutes().routes;
    std::vector<ModRoute> moved = three;
    moved.front().amount = 0.5;
    h.recordRoutes({three, moved}, "Audio route amount", true);
    h.recordRoutes({moved, three}, "Audio route amount", true);
    h.closeGroup();
    REQUIRE(h.redoText() == "Redo Current noise");
    CHECK(h.redo(p)->params.get(ParamId::Noise) == 0.1f);

    p = h.undo(p)->params;
    h.record(ParamId::MaxSpeed, 160.0f, 300.0f);
    h.closeGroup();
    CHECK_FALSE(h.canRedo());
}

TEST_CASE("route edits other than a slider's drag are one undo step each, even two of a kind in a row", "[edit]") {
    ParamHistory h;
    const std::vector<ModRoute> three = defaultRoutes().routes;
    std::vector<ModRoute> four = three, five = three;
    four.push_back(ModRoute{});
    five = four;
    five.push_back(ModRoute{});
    h.recordRoutes({three, four}, "Add audio route", false);
    h.recordRoutes({four, five}, "Add audio route", false);
    auto step = h.undo(Params{});
    CHECK(step->routes == four);
    step = h.undo(Params{});
    CHECK(step->routes == three);
    CHECK_FALSE(h.canUndo());
}

TEST_CASE("a new edit after undo discards the redo steps", "[edit]") {
    ParamHistory h;
    Params p = noiseEditedAndUndone(h);
    REQUIRE(h.canRedo());
    h.record(ParamId::Jitter, 0.02f, 0.3f);
    REQUIRE_FALSE(h.canRedo());
    REQUIRE_FALSE(h.redo(p));
    REQUIRE(h.redoText() == "Redo");
}

TEST_CASE("a drag after a redo does not merge into the redone step", "[edit]") {
    ParamHistory h;
    Params p = noiseEditedAndUndone(h);
    p = h.redo(p)->params;
    h.record(ParamId::Noise, 0.1f, 0.2f);
    p.set(ParamId::Noise, 0.2f);
    p = h.undo(p)->params;
    REQUIRE(p.get(ParamId::Noise) == 0.1f);
}

TEST_CASE("the history keeps the last 500 steps", "[edit]") {
    ParamHistory h;
    Params p;
    for (int i = 0; i < 600; ++i) {
        h.record(ParamId::MaxSpeed, static_cast<float>(100 + i), static_cast<float>(101 + i));
        h.closeGroup();
    }
    p.set(ParamId::MaxSpeed, 700.0f);
    int steps = 0;
    while (auto undone = h.undo(p)) {
        p = undone->params;
        ++steps;
    }
    REQUIRE(steps == 500);
    REQUIRE(p.get(ParamId::MaxSpeed) == 200.0f);  // the oldest 100 steps are gone

    h.clear();
    REQUIRE_FALSE(h.canUndo());
    REQUIRE_FALSE(h.canRedo());
}

TEST_CASE("route table edits undo and redo in turn with parameter edits, an amount drag as one step", "[edit]") {
    ParamHistory h;
    Params p;
    const std::vector<ModRoute> three = defaultRoutes().routes;
    std::vector<ModRoute> four = three;
    four.push_back(ModRoute{});
    h.recordRoutes({three, four}, "Add audio route", false);
    h.record(ParamId::Noise, 0.04f, 0.1f);
    p.set(ParamId::Noise, 0.1f);
    // An amount drag: many records, one step.
    std::vector<ModRoute> dragged = four;
    for (double a : {0.9, 0.7, 0.5}) {
        std::vector<ModRoute> before = dragged;
        dragged.back().amount = a;
        h.recordRoutes({before, dragged}, "Audio route amount", true);
    }
    REQUIRE(h.undoText() == "Undo Audio route amount");
    auto step = h.undo(p);
    REQUIRE(step->routes == four);
    CHECK(step->params == p);
    step = h.undo(p);
    CHECK_FALSE(step->routes);
    CHECK(step->params.get(ParamId::Noise) == 0.04f);
    step = h.undo(step->params);
    REQUIRE(step->routes == three);
    CHECK_FALSE(h.canUndo());
    step = h.redo(step->params);
    CHECK(step->routes == four);

    // Loading a preset is one step for its parameters and its routes.
    ParamHistory load;
    Params other;
    other.set(ParamId::MaxSpeed, 300.0f);
    load.recordAll(Params{}, other, "Load X", RouteChange{three, {}});
    step = load.undo(other);
    CHECK(step->params == Params{});
    CHECK(step->routes == three);
    // Routes alone differing still make an entry; nothing differing makes none.
    load.clear();
    load.recordAll(p, p, "Load Y", RouteChange{three, three});
    CHECK_FALSE(load.canUndo());
    load.recordAll(p, p, "Load Y", RouteChange{three, four});
    CHECK(load.canUndo());
}
