#include "audio/modulation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

namespace mirofish {

namespace {

constexpr std::array<std::pair<std::string_view, ModSource>, 7> kSources{{
    {"low", ModSource::Low},
    {"mid", ModSource::Mid},
    {"high", ModSource::High},
    {"band", ModSource::Band},
    {"level", ModSource::Level},
    {"onset", ModSource::Onset},
    {"beatPhase", ModSource::BeatPhase},
}};

constexpr std::array<std::pair<std::string_view, ModCurve>, 3> kCurves{{
    {"log", ModCurve::Log},
    {"linear", ModCurve::Linear},
    {"exp", ModCurve::Exp},
}};

double unit(double x) { return std::isfinite(x) ? std::clamp(x, 0.0, 1.0) : 0.0; }

std::string number(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

// The value as a float inside [lo, hi] (rounding to float must not leave the range).
float storable(double v, double lo, double hi) {
    float f = static_cast<float>(std::clamp(v, lo, hi));
    while (static_cast<double>(f) > hi) f = std::nextafter(f, -HUGE_VALF);
    while (static_cast<double>(f) < lo) f = std::nextafter(f, HUGE_VALF);
    return f;
}

}  // namespace

std::string_view modSourceKey(ModSource s) {
    for (const auto& [key, v] : kSources)
        if (v == s) return key;
    return "low";
}

std::optional<ModSource> findModSource(std::string_view key) {
    for (const auto& [k, v] : kSources)
        if (k == key) return v;
    return std::nullopt;
}

std::string_view modCurveKey(ModCurve c) {
    for (const auto& [key, v] : kCurves)
        if (v == c) return key;
    return "log";
}

std::optional<ModCurve> findModCurve(std::string_view key) {
    for (const auto& [k, v] : kCurves)
        if (k == key) return v;
    return std::nullopt;
}

std::string validateRoute(const ModRoute& r) {
    if (static_cast<std::size_t>(r.target) >= kParamCount) return "target is not a parameter";
    // Called for every route on every frame: strings are built only for a problem.
    const ParamDef& d = paramDef(r.target);
    const auto key = [&] { return std::string(d.key); };
    if (d.isChoice()) return "target " + key() + " is a choice (" + d.rangeText() + ") and cannot be modulated";
    if (static_cast<int>(r.source) < 0 || static_cast<int>(r.source) > static_cast<int>(ModSource::BeatPhase))
        return "source is unknown";
    if (static_cast<int>(r.curve) < 0 || static_cast<int>(r.curve) > static_cast<int>(ModCurve::Exp))
        return "curve is unknown";
    if (r.source == ModSource::Band && r.band > kMaxModBand)
        return "band is " + std::to_string(r.band) + ", outside 0 to " + std::to_string(kMaxModBand);
    for (const auto& [name, v] : {std::pair<const char*, double>{"min", r.min}, {"max", r.max}}) {
        if (!std::isfinite(v)) return std::string(name) + " must be a finite number";
        if (v < d.min || v > d.max)
            return std::string(name) + " is " + number(v) + ", outside " + key() + "'s range " + d.rangeText();
    }
    if (!std::isfinite(r.amount) || r.amount < 0 || r.amount > kMaxModAmount)
        return "amount is " + number(r.amount) + ", outside 0 to " + number(kMaxModAmount);
    return {};
}

double OnsetEnvelope::update(const AudioFeatures& f) {
    return update(f, f.onset ? 0.0 : std::numeric_limits<double>::infinity());
}

double OnsetEnvelope::update(const AudioFeatures& f, double onsetAge) {
    const double t = std::isfinite(f.time) ? f.time : lastTime_;
    if (started_ && t < lastTime_) seenOnset_ = false;  // a seek back: forget the old onset
    started_ = true;
    lastTime_ = t;
    if (const double onset = t - onsetAge; onsetAge >= 0 && std::isfinite(onset) && (!seenOnset_ || onset > lastOnset_)) {
        lastOnset_ = onset;
        seenOnset_ = true;
    }
    value_ = seenOnset_ ? std::clamp(1.0 - (t - lastOnset_) / kOnsetDecaySeconds, 0.0, 1.0) : 0.0;
    return value_;
}

void OnsetEnvelope::reset() { *this = OnsetEnvelope{}; }

double sourceValue(const ModRoute& r, const AudioFeatures& f, double onset) {
    switch (r.source) {
        case ModSource::Low: return unit(f.named[static_cast<std::size_t>(NamedBand::Low)]);
        case ModSource::Mid: return unit(f.named[static_cast<std::size_t>(NamedBand::Mid)]);
        case ModSource::High: return unit(f.named[static_cast<std::size_t>(NamedBand::High)]);
        case ModSource::Band: return r.band < f.bands.size() ? unit(f.bands[r.band]) : 0.0;
        case ModSource::Level: return unit(f.level);
        case ModSource::Onset: return unit(onset);
        case ModSource::BeatPhase: return unit(f.beatPhase);
    }
    return 0.0;
}

double shapeDb(double dB) {
    if (std::isnan(dB)) return 0.0;
    return std::clamp((dB - kLogCurveFloorDb) / -kLogCurveFloorDb, 0.0, 1.0);
}

double shape(ModCurve curve, double s) {
    const double x = unit(s);
    switch (curve) {
        case ModCurve::Linear: return x;
        case ModCurve::Exp: return x * x;
        case ModCurve::Log: return x;  // s already stands for -60..0 dB: s = 1 + dB/60
    }
    return x;
}

double routePosition(const ModRoute& r, const AudioFeatures& f, double onset) {
    double t = 0;
    if (r.curve == ModCurve::Log && (r.source == ModSource::Low || r.source == ModSource::Mid ||
                                     r.source == ModSource::High || r.source == ModSource::Level)) {
        const double dB = r.source == ModSource::Level ? f.levelGainDb
                                                       : f.namedGainDb[static_cast<std::size_t>(r.source) -
                                                                       static_cast<std::size_t>(ModSource::Low)];
        t = shapeDb(dB);
    } else if (r.curve == ModCurve::Log && r.source == ModSource::Band && r.band < f.bandsGainDb.size()) {
        t = shapeDb(f.bandsGainDb[r.band]);
    } else {
        t = shape(r.curve, sourceValue(r, f, onset));
    }
    return r.invert ? 1.0 - t : t;
}

double routeValueAt(const ModRoute& r, double t) {
    const ParamDef& d = paramDef(r.target);
    const double u = unit(t);
    if (u == 0.0) return r.min;  // the ends exactly, without a round trip through the scale
    if (u == 1.0) return r.max;
    const double a = toNormalized(d, r.min);
    const double b = toNormalized(d, r.max);
    return fromNormalized(d, a + (b - a) * u);
}

std::vector<RouteValue> ModulationMatrix::routeValues(const Params& base, const AudioFeatures& f) const {
    return routeValues(base, f, f.onset ? 1.0 : 0.0);
}

std::vector<RouteValue> ModulationMatrix::routeValues(const Params& base, const AudioFeatures& f, double onset) const {
    std::vector<RouteValue> out(routes.size());
    for (std::size_t i = 0; i < routes.size(); ++i) {
        const ModRoute& r = routes[i];
        if (!validateRoute(r).empty()) continue;
        RouteValue& rv = out[i];
        rv.source = sourceValue(r, f, onset);
        rv.position = routePosition(r, f, onset);
        rv.value = routeValueAt(r, rv.position);
        rv.offset = r.amount * (rv.value - static_cast<double>(base.get(r.target)));
    }
    return out;
}

Params ModulationMatrix::apply(const Params& base, const AudioFeatures& f) const {
    return apply(base, f, f.onset ? 1.0 : 0.0);
}

Params ModulationMatrix::apply(const Params& base, const AudioFeatures& f, double onset) const {
    std::array<double, kParamCount> offset{};
    std::array<bool, kParamCount> routed{};
    const std::vector<RouteValue> values = routeValues(base, f, onset);
    for (std::size_t i = 0; i < routes.size(); ++i) {
        if (!validateRoute(routes[i]).empty()) continue;
        const auto p = static_cast<std::size_t>(routes[i].target);
        offset[p] += values[i].offset;
        routed[p] = true;
    }
    Params out = base;
    for (const ParamDef& d : paramRegistry()) {
        const auto p = static_cast<std::size_t>(d.id);
        if (!routed[p]) continue;
        const double v = static_cast<double>(base.get(d.id)) + offset[p];
        out.set(d.id, storable(std::isfinite(v) ? v : static_cast<double>(base.get(d.id)), d.min, d.max));
    }
    return out;
}

std::string ModulationMatrix::validate() const {
    for (std::size_t i = 0; i < routes.size(); ++i) {
        const std::string problem = validateRoute(routes[i]);
        if (!problem.empty()) return "route " + std::to_string(i) + ": " + problem;
    }
    return {};
}

ModulationMatrix defaultRoutes() {
    ModulationMatrix m;
    m.routes = {
        ModRoute{ModSource::Low, 0, ParamId::SeparationWeight, 1.2, 3.5, ModCurve::Log, 1.0, false},
        ModRoute{ModSource::Mid, 0, ParamId::MaxSpeed, 120.0, 260.0, ModCurve::Log, 1.0, false},
        ModRoute{ModSource::High, 0, ParamId::Noise, 0.02, 0.10, ModCurve::Log, 1.0, false},
    };
    return m;
}

}  // namespace mirofish
