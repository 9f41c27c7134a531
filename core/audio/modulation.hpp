#pragma once
// The audio modulation matrix: routes from an audio source (a band, the
// overall level, onsets, the beat phase) to any numeric registry parameter.
// Qt-free; it reads AudioFeatures (one analysis frame) and the preset's
// parameters and returns the modulated parameters. Stateless except for
// OnsetEnvelope, which the caller feeds frame by frame.
//
// One route, one frame:
//   1. source value s in 0..1 (sourceValue below; a non-finite input counts as 0)
//   2. curve: t = shape(curve, ...) in 0..1
//        Linear: t = s
//        Exp:    t = s^2  (the inverse emphasis: quiet stays still, loud dominates)
//        Log:    t = clamp((dB + 60) / 60, 0, 1): the source as a level in dB,
//                -60 dB (and below) gives 0, 0 dB gives 1, linear in dB between
//                (so a quiet passage still moves the parameter and a loud one
//                does not explode it, unlike a map linear in amplitude).
//                dB is the source's level relative to the automatic gain's
//                reference (0 = as loud as this music has been lately), so a
//                quiet and a loud track move a route alike:
//                AudioFeatures::namedGainDb for Low/Mid/High, bandsGainDb[band]
//                for Band, levelGainDb for Level.
//                Onset and BeatPhase have no dB: their s is taken as the
//                position on that scale (s = 1 + dB/60), so t = s. A Band
//                route whose band has no dB entry but a 0..1 one does the same.
//                (The analysis's 0..1 levels are already linear in dB under
//                the gain, so Linear on them is a gain-following dB map too.)
//   3. invert: t = 1 - t
//   4. the route's value, between min and max on the parameter's own slider
//      scale (the registry's Linear or Log scale, as sliders and morphs do):
//        v = fromNormalized(def, lerp(toNormalized(def, min), toNormalized(def, max), t))
//      so t = 0 gives exactly min, t = 1 exactly max (min > max is allowed:
//      the parameter then falls as the source rises).
//
// Several routes, one parameter (the combination): each route pulls the
// parameter from the preset's base value towards its own value by its amount,
// and the pulls add:
//      p = clamp(base + sum_i amount_i * (v_i - base), registry min, registry max)
// One route at amount 1 sets the parameter to v exactly (min..max whatever the
// base); amount 0 leaves the base; amount 0.5 goes half way. Parameters
// without a route keep their base value. The result always lies inside the
// registry range.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audio/audio_features.hpp"
#include "params/params.hpp"

namespace mirofish {

enum class ModSource { Low, Mid, High, Band, Level, Onset, BeatPhase };
enum class ModCurve { Log, Linear, Exp };

// Preset and UI names: "low", "mid", "high", "band", "level", "onset",
// "beatPhase"; "log", "linear", "exp".
std::string_view modSourceKey(ModSource s);
std::optional<ModSource> findModSource(std::string_view key);
std::string_view modCurveKey(ModCurve c);
std::optional<ModCurve> findModCurve(std::string_view key);

inline constexpr double kLogCurveFloorDb = -60.0;  // the Log curve's 0; 0 dB is its 1
inline constexpr double kMaxModAmount = 1.0;       // amount is 0..1
inline constexpr std::size_t kMaxModBand = kDefaultBands - 1;  // a Band route's band index is 0..7
// An onset holds the Onset source at 1 on its frame, then it falls linearly to
// 0 over this many seconds (9 frames at 60 fps), so a one-frame onset is seen.
inline constexpr double kOnsetDecaySeconds = 0.15;

struct ModRoute {
    ModSource source = ModSource::Low;
    std::size_t band = 0;  // for ModSource::Band: index into AudioFeatures::bands / bandsGainDb (missing band = 0)
    ParamId target = ParamId::SeparationWeight;
    double min = 0;  // in the parameter's units, inside its registry range
    double max = 0;
    ModCurve curve = ModCurve::Log;
    double amount = 1.0;  // 0..1, see the combination above
    bool invert = false;

    friend bool operator==(const ModRoute&, const ModRoute&) = default;
};

// Empty if the route can be used, else a sentence naming what is wrong:
// "min is 25, outside separationWeight's range 0 to 20", "target boundaryMode
// is a choice and cannot be modulated", "amount is 2, outside 0 to 1", ...
std::string validateRoute(const ModRoute& route);

// The Onset source with its decay: call update() once per frame (or per
// frame read, with its onset age), in time order, and pass value() to
// ModulationMatrix::apply. A frame whose time is
// before the previous one (a seek) starts afresh.
class OnsetEnvelope {
public:
    double update(const AudioFeatures& f);
    // For a reader that does not see every frame (the editor's steps, slower
    // than the frames at times): `onsetAge` is the seconds from the newest
    // onset at or before this frame to it (AudioFeed::onsetAge; infinity:
    // none), so an onset in a frame between two reads still starts the
    // envelope, from its own time.
    double update(const AudioFeatures& f, double onsetAge);
    double value() const { return value_; }
    void reset();

private:
    double lastOnset_ = 0;
    double lastTime_ = 0;
    bool seenOnset_ = false;
    bool started_ = false;
    double value_ = 0;
};

// Step 1: the source's value in 0..1 for this frame. `onset` is the Onset
// source's value (an OnsetEnvelope's, or the frame's flag as 1 or 0).
double sourceValue(const ModRoute& route, const AudioFeatures& f, double onset);
// Steps 1-3: the route's position t in 0..1 between min and max.
double routePosition(const ModRoute& route, const AudioFeatures& f, double onset);
// The curves on their own: Log takes a level in dB, Linear and Exp a 0..1 value.
double shapeDb(double dB);                  // Log: clamp((dB + 60) / 60, 0, 1)
double shape(ModCurve curve, double s);     // s in 0..1; Log here reads s as the dB position: t = s
// Step 4: the value at position t between the route's min and max.
double routeValueAt(const ModRoute& route, double t);

// What one route does this frame, for the UI's live view.
struct RouteValue {
    double source = 0;    // the source's value, 0..1
    double position = 0;  // t, 0..1 between min and max after the curve and invert
    double value = 0;     // v, the route's own value in the parameter's units
    double offset = 0;    // amount * (v - base): how far it moves the parameter
};

class ModulationMatrix {
public:
    std::vector<ModRoute> routes;

    // The base parameters with every route applied (see the combination
    // above). Invalid routes (validateRoute) are skipped. The one-argument
    // form reads the frame's onset flag as 1 or 0, without decay.
    Params apply(const Params& base, const AudioFeatures& f) const;
    Params apply(const Params& base, const AudioFeatures& f, double onset) const;
    // One entry per route, in order (an invalid route gives all zeros).
    std::vector<RouteValue> routeValues(const Params& base, const AudioFeatures& f) const;
    std::vector<RouteValue> routeValues(const Params& base, const AudioFeatures& f, double onset) const;

    // Empty if every route is valid, else "route N: <problem>" for the first bad one (N from 0).
    std::string validate() const;

    friend bool operator==(const ModulationMatrix&, const ModulationMatrix&) = default;
};

// The articles' three routes, all on the Log curve at amount 1:
//   low  -> separationWeight 1.2 .. 3.5     (registry default 1.6: the school bursts on the kick)
//   mid  -> maxSpeed         120 .. 260 px/s (default 160)
//   high -> noise            0.02 .. 0.10    (default 0.04; above 0.08 it twitches: only on loud highs)
ModulationMatrix defaultRoutes();

}  // namespace mirofish
