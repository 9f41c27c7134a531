// Undo and redo of parameter edits as the editor makes them: slider drags,
// single changes and whole-preset loads.
#include <catch2/catch.hpp>

#include "edit/param_history.hpp"

using namespace mirofish;

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
    REQUIRE(undone->get(ParamId::MaxSpeed) == 160.0f);
    REQUIRE_FALSE(h.canUndo());

    REQUIRE(h.redoText() == "Redo Max speed");
    const auto redone = h.redo(*undone);
    REQUIRE(redone);
    REQUIRE(redone->get(ParamId::MaxSpeed) == 200.0f);
    REQUIRE_FALSE(h.canRedo());
}

TEST_CASE("releasing the slider and dragging again makes a second undo step", "[edit]") {
    ParamHistory h;
    Params p;
    h.record(ParamId::Noise, 0.04f, 0.1f);
    h.closeGroup();
    h.record(ParamId::Noise, 0.1f, 0.2f);
    p.set(ParamId::Noise, 0.2f);

    p = *h.undo(p);
    REQUIRE(p.get(ParamId::Noise) == 0.1f);
    p = *h.undo(p);
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

    p = *h.undo(p);
    REQUIRE(p.get(ParamId::Noise) == 0.1f);
    REQUIRE(h.undoText() == "Undo Jitter");
    p = *h.undo(p);
    REQUIRE(p.get(ParamId::Jitter) == 0.02f);
    REQUIRE(p.get(ParamId::Noise) == 0.1f);
    p = *h.undo(p);
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
    REQUIRE(*undone == before);
    REQUIRE(h.undoText() == "Undo Max speed");
    REQUIRE(*h.redo(*undone) == after);
}

TEST_CASE("a new edit after undo discards the redo steps", "[edit]") {
    ParamHistory h;
    Params p;
    h.record(ParamId::Noise, 0.04f, 0.1f);
    p.set(ParamId::Noise, 0.1f);
    p = *h.undo(p);
    REQUIRE(h.canRedo());
    h.record(ParamId::Jitter, 0.02f, 0.3f);
    REQUIRE_FALSE(h.canRedo());
    REQUIRE_FALSE(h.redo(p));
    REQUIRE(h.redoText() == "Redo");
}

TEST_CASE("a drag after a redo does not merge into the redone step", "[edit]") {
    ParamHistory h;
    Params p;
    h.record(ParamId::Noise, 0.04f, 0.1f);
    p.set(ParamId::Noise, 0.1f);
    p = *h.undo(p);
    p = *h.redo(p);
    h.record(ParamId::Noise, 0.1f, 0.2f);
    p.set(ParamId::Noise, 0.2f);
    p = *h.undo(p);
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
        p = *undone;
        ++steps;
    }
    REQUIRE(steps == 500);
    REQUIRE(p.get(ParamId::MaxSpeed) == 200.0f);  // the oldest 100 steps are gone

    h.clear();
    REQUIRE_FALSE(h.canUndo());
    REQUIRE_FALSE(h.canRedo());
}
