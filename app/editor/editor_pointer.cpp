// The pointer in the view: the school tool (left drag attracts, right drag
// repels, a fast swipe scares, a click selects a fish) and the tools that
// place, move and remove predators, obstacles and force fields.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "editor.hpp"
#include "sim/inspect.hpp"

namespace mirofish::editor {

namespace {
Vec2 toVec(QPointF p) { return Vec2{{static_cast<float>(p.x()), static_cast<float>(p.y())}}; }

// The school tool's fields, in world px and maxSpeed units (see ForceField).
constexpr float kAttractRadius = 260.0f, kAttractStrength = 1.2f;
constexpr float kRepelRadius = 180.0f, kRepelStrength = 3.0f;
// A swipe's scare: a short, strong repulsion a little ahead of the pointer.
constexpr float kScareRadius = 200.0f, kScareStrength = 14.0f, kScareLead = 40.0f;
constexpr std::uint64_t kScareSteps = 24;  // 0.4 s
// A click selects the nearest fish within this many view px.
constexpr float kSelectPixels = 40.0f;
// Placed objects: grabbed within this many view px of their centre (or
// anywhere on an obstacle larger than that).
constexpr float kGrabPixels = 30.0f;

// Objects are placed and dragged within the world: one outside it would act
// unseen (in a wrapping world, at its wrapped place) and could not be clicked.
Vec2 insideWorld(Vec2 p, Vec2 world) {
    return Vec2{{std::clamp(p[0], 0.0f, world[0]), std::clamp(p[1], 0.0f, world[1])}};
}

// Where a point beyond a wrapping world's edge lies in it: as a fish
// crossing the seam.
Vec2 wrappedIntoWorld(Vec2 p, Vec2 world) {
    const auto wrap = [](float x, float size) { return std::clamp(x - std::floor(x / size) * size, 0.0f, size); };
    return Vec2{{wrap(p[0], world[0]), wrap(p[1], world[1])}};
}

ForceField placedField(int tool, Vec2 at) {
    ForceField f;
    f.position = at;
    switch (tool) {
    case Editor::PlaceAttract: f.kind = FieldKind::Attract; f.radius = 250.0f; f.strength = 1.0f; break;
    case Editor::PlaceRepel: f.kind = FieldKind::Repel; f.radius = 200.0f; f.strength = 2.0f; break;
    default: f.kind = FieldKind::Vortex; f.radius = 300.0f; f.strength = 1.0f; break;
    }
    return f;
}
// An object as the window last saw it: where, how many of its kind there
// were, and the reach of the click that found it.
struct SeenObject {
    Vec2 at;
    std::size_t count;
    float reach;

    // How far from `at` the object may be now, with `now` of its kind: any
    // distance while the list is as the window saw it (a predator swims on),
    // else only within the click's reach. The list changed: a removal just
    // sent went first, and a second right click on the same predator, before
    // the window saw it go, took the nearest other one anywhere in the world.
    float within(std::size_t now) const { return now == count ? std::numeric_limits<float>::infinity() : reach; }
};

// The index of the item whose place is nearest to `seen`, if within `limit`.
template <typename T, typename Place>
std::optional<std::size_t> nearestTo(const std::vector<T>& list, Vec2 seen, Place place, float limit) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < list.size(); ++i)
        if (length(place(list[i]) - seen) <= limit &&
            (!best || length(place(list[i]) - seen) < length(place(list[*best]) - seen)))
            best = i;
    return best;
}

Vec2 predatorPlace(const Predator& p) { return p.position; }
Vec2 obstaclePlace(const Obstacle& o) { return o.centre; }

// Removes a predator, obstacle or field. Runs on the simulation thread. A
// field is named by its id; a predator or obstacle by where the window last
// saw it: the one nearest to that now. Its list index could be stale (the
// window's copy of the lists lags a removal just sent, so a second quick
// right click took the object after the one clicked).
void removeObject(SimHost::Context& c, ObjectKind kind, std::uint32_t fieldId, const SeenObject& seen) {
    const Scene& s = c.sim.scene();
    if (kind == ObjectKind::Predator) {
        if (const auto i = nearestTo(s.predators, seen.at, predatorPlace, seen.within(s.predators.size())))
            c.sim.removePredator(*i);
    } else if (kind == ObjectKind::Obstacle) {
        auto list = s.obstacles;
        const auto i = nearestTo(list, seen.at, obstaclePlace, seen.within(list.size()));
        if (!i) return;
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(*i));
        c.sim.setObstacles(std::move(list));
    } else if (kind == ObjectKind::Field) {
        c.sim.removeForceField(fieldId);
    }
}

// Moves the object a drag holds: a field by its id, a predator or obstacle
// as its press found it (Context::dragged; none when it was gone by then:
// found again at each move as the nearest, another was taken, anywhere).
void moveObject(SimHost::Context& c, ObjectKind kind, std::uint32_t fieldId, Vec2 to) {
    const Scene& s = c.sim.scene();
    if (kind == ObjectKind::Predator) {
        if (c.dragged && *c.dragged < s.predators.size()) c.sim.movePredator(*c.dragged, to);
    } else if (kind == ObjectKind::Obstacle) {
        if (!c.dragged || *c.dragged >= s.obstacles.size()) return;
        auto list = s.obstacles;
        list[*c.dragged].centre = to;
        c.sim.setObstacles(std::move(list));
    } else if (kind == ObjectKind::Field) {
        for (ForceField f : s.fields)
            if (f.id == fieldId) {
                f.position = to;
                c.sim.updateForceField(f);
            }
    }
}
}  // namespace

void Editor::pointerPressed(QPointF world, QPointF viewPosition, Qt::MouseButton button, double viewScale) {
    // A second button pressed while one is held changes nothing: a right
    // press during a drag removed the object dragged, and the drag went on
    // with another.
    if (dragged_ != ObjectKind::None || pointerFieldActive_) return;
    if (tool_ != School) {
        objectToolPress(world, button, viewScale);
        return;
    }
    if (button != Qt::LeftButton && button != Qt::RightButton) return;
    gesture_.begin(toVec(viewPosition), gestureClock_.elapsed() / 1000.0);
    ForceField f;
    f.position = toVec(world);
    const bool attract = button == Qt::LeftButton;
    f.kind = attract ? FieldKind::Attract : FieldKind::Repel;
    f.radius = attract ? kAttractRadius : kRepelRadius;
    f.strength = attract ? kAttractStrength : kRepelStrength;
    pointerFieldActive_ = true;
    host_->post([f](SimHost::Context& c) {
        if (c.pointerField) c.sim.removeForceField(*c.pointerField);
        c.pointerField = c.sim.addForceField(f);
        c.transient.push_back({*c.pointerField, 0});
    });
}

void Editor::pointerMoved(QPointF world, QPointF viewPosition) {
    const Vec2 at = toVec(world);
    if (dragged_ != ObjectKind::None) {
        const ObjectKind kind = dragged_;
        // Inside the world as it is now: W, P or F11 may have resized it since
        // the press. As asked for, not a copy of the stats per pointer move.
        // A wrapping world's object crosses the seam: one grabbed at its copy
        // across the seam was held at the edge, away from the pointer.
        const QSizeF world = worldAsked();
        const Vec2 worldSize{{static_cast<float>(world.width()), static_cast<float>(world.height())}};
        const Vec2 to =
            dragWraps_ ? wrappedIntoWorld(at + grabOffset_, worldSize) : insideWorld(at + grabOffset_, worldSize);
        const std::uint32_t fieldId = draggedFieldId_;
        host_->post([kind, fieldId, to](SimHost::Context& c) { moveObject(c, kind, fieldId, to); });
        return;
    }
    if (!pointerFieldActive_) return;
    const auto swipe = gesture_.move(toVec(viewPosition), gestureClock_.elapsed() / 1000.0);
    host_->post([at, swipe](SimHost::Context& c) {
        if (!c.pointerField) return;
        for (ForceField f : c.sim.scene().fields)
            if (f.id == *c.pointerField) {
                f.position = at;
                c.sim.updateForceField(f);
            }
        // Paused, nothing swims to be scared: a scare would wait, drawn, for
        // Play, and every paused swipe's would strike at once then.
        if (!swipe || c.paused) return;
        ForceField scare;
        scare.kind = FieldKind::Repel;
        scare.position = at + *swipe * kScareLead;
        scare.radius = kScareRadius;
        scare.strength = kScareStrength;
        c.transient.push_back({c.sim.addForceField(scare), c.sim.stepIndex() + kScareSteps});
    });
}

void Editor::pointerReleased(QPointF world, QPointF viewPosition, double viewScale) {
    if (dragged_ != ObjectKind::None) {
        endObjectDrag();
        return;
    }
    if (!pointerFieldActive_) return;
    const bool click = gesture_.endIsClick(toVec(viewPosition), gestureClock_.elapsed() / 1000.0);
    endPointerField(click ? std::optional<QPointF>(world) : std::nullopt, viewScale);
}

void Editor::endObjectDrag() {
    host_->post([](SimHost::Context& c) { c.dragged.reset(); });
    dragged_ = ObjectKind::None;
}

void Editor::pointerCancelled() {
    if (dragged_ != ObjectKind::None) endObjectDrag();
    if (pointerFieldActive_) endPointerField(std::nullopt, 1.0);
}

void Editor::endPointerField(std::optional<QPointF> clickedAt, double viewScale) {
    pointerFieldActive_ = false;
    gesture_.cancel();
    const std::optional<Vec2> at = clickedAt ? std::optional<Vec2>(toVec(*clickedAt)) : std::nullopt;
    const float reach = kSelectPixels / static_cast<float>(viewScale);
    host_->post([at, reach](SimHost::Context& c) {
        if (c.pointerField) {
            c.sim.removeForceField(*c.pointerField);
            std::erase_if(c.transient, [&](const TransientField& t) { return t.id == *c.pointerField; });
            c.pointerField.reset();
        }
        if (at) c.overlays.selectedId = fishNearest(c.sim, *at, reach);
    });
}

void Editor::objectToolPress(QPointF world, Qt::MouseButton button, double viewScale) {
    const SimStats s = currentStats();
    const Vec2 at = toVec(world);
    const Vec2 worldSize{{s.worldWidth, s.worldHeight}};
    const float grab = kGrabPixels / static_cast<float>(viewScale);
    const bool remove = button == Qt::RightButton;
    // The object whose centre is nearest, of those within reach (a predator
    // on top of another, a small rock inside a large one's reach): where it
    // was seen, and a field's id.
    struct Hit {
        SeenObject seen;
        std::uint32_t fieldId;
    };
    std::optional<Hit> hit;
    float nearest = std::numeric_limits<float>::infinity();
    // In a wrapping world an object acts, and is drawn, across the seam too:
    // from a press in the world it is within reach there as well.
    StepConstants bounds;
    bounds.width = s.worldWidth;
    bounds.height = s.worldHeight;
    bounds.boundary = s.params.boundaryMode();
    std::size_t ofKind = 0;  // the objects of the tool's kind the window sees
    Vec2 offset{};  // from the press to the centre hit (its copy across a seam, where that was nearer)
    const auto consider = [&](Vec2 centre, float reach, std::uint32_t fieldId) {
        const Vec2 toCentre = displacementSeenFrom(bounds, at, centre);
        const float d = length(toCentre);
        if (d < reach && d < nearest) {
            nearest = d;
            offset = toCentre;
            hit = Hit{{centre, ofKind, reach}, fieldId};
        }
    };
    ObjectKind kind = ObjectKind::None;
    if (tool_ == PlacePredator) {
        kind = ObjectKind::Predator;
        ofKind = s.predators.size();
        for (const Predator& p : s.predators) consider(p.position, grab, 0);
    } else if (tool_ == PlaceObstacle) {
        kind = ObjectKind::Obstacle;
        ofKind = s.obstacles.size();
        for (const Obstacle& o : s.obstacles) consider(o.centre, std::max(o.radius, grab), 0);
    } else {
        kind = ObjectKind::Field;
        for (const ForceField& f : s.fields) consider(f.position, grab, f.id);
    }

    if (remove) {
        if (!hit) return;
        host_->post([kind, h = *hit](SimHost::Context& c) { removeObject(c, kind, h.fieldId, h.seen); });
        return;
    }
    if (button != Qt::LeftButton) return;
    if (hit) {
        dragged_ = kind;
        draggedFieldId_ = hit->fieldId;
        // Held where it was grabbed: its centre jumped to the pointer at the
        // first move, a large rock by up to its radius.
        grabOffset_ = offset;
        dragWraps_ = s.params.boundaryMode() == BoundaryMode::Wrap;
        host_->post([kind, seen = hit->seen](SimHost::Context& c) {
            const Scene& s = c.sim.scene();
            if (kind == ObjectKind::Predator)
                c.dragged = nearestTo(s.predators, seen.at, predatorPlace, seen.within(s.predators.size()));
            else if (kind == ObjectKind::Obstacle)
                c.dragged = nearestTo(s.obstacles, seen.at, obstaclePlace, seen.within(s.obstacles.size()));
        });
        return;
    }
    const int tool = tool_;
    host_->post([tool, at = insideWorld(at, worldSize)](SimHost::Context& c) {
        if (tool == PlacePredator) {
            Predator p;
            p.position = at;
            c.sim.addPredator(std::move(p));
        } else if (tool == PlaceObstacle) {
            auto list = c.sim.scene().obstacles;
            list.push_back(Obstacle{at, 60.0f});
            c.sim.setObstacles(std::move(list));
        } else {
            c.sim.addForceField(placedField(tool, at));
        }
    });
}

}  // namespace mirofish::editor
