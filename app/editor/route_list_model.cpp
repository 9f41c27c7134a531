#include "route_list_model.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace mirofish::editor {

namespace {
constexpr ModSource kSources[] = {ModSource::Low,   ModSource::Mid,   ModSource::High,     ModSource::Band,
                                  ModSource::Level, ModSource::Onset, ModSource::BeatPhase};
constexpr ModCurve kCurves[] = {ModCurve::Log, ModCurve::Linear, ModCurve::Exp};

// The parameters a route may drive: every numeric one (choices switch, they do not move).
std::vector<ParamId> targets() {
    std::vector<ParamId> out;
    for (const ParamDef& d : paramRegistry())
        if (!d.isChoice()) out.push_back(d.id);
    return out;
}

QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// A route's range for a newly chosen target: from the default to a third of
// the slider above it (or below, near the top), that end to three
// significant digits, as a person would type it: the slider's arithmetic
// gave 8.200000000000001, and the preset saved said so.
void rangeAroundDefault(ModRoute& r) {
    const ParamDef& d = paramDef(r.target);
    const double t = toNormalized(d, d.defaultValue);
    r.min = d.defaultValue;
    const double end = fromNormalized(d, t <= 0.67 ? t + 0.33 : t - 0.33);
    const double scale = end == 0 ? 1 : std::pow(10.0, 2 - std::floor(std::log10(std::abs(end))));
    r.max = std::clamp(std::round(end * scale) / scale, d.min, d.max);
}

// Where `longer` holds one route more than `shorter` and is otherwise the
// same, in order: that route's place.
std::optional<std::size_t> oneRouteApart(const std::vector<ModRoute>& longer, const std::vector<ModRoute>& shorter) {
    if (longer.size() != shorter.size() + 1) return std::nullopt;
    std::size_t i = 0;
    while (i < shorter.size() && longer[i] == shorter[i]) ++i;
    if (!std::equal(shorter.begin() + static_cast<std::ptrdiff_t>(i), shorter.end(),
                    longer.begin() + static_cast<std::ptrdiff_t>(i) + 1))
        return std::nullopt;
    return i;
}

QString signedText(double v) {
    const double a = std::abs(v);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
    return (v >= 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'f', decimals);
}
}  // namespace

RouteListModel::RouteListModel(QObject* parent) : QAbstractListModel(parent) {}

int RouteListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(matrix_.routes.size());
}

QVariant RouteListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto row = static_cast<std::size_t>(index.row());
    const ModRoute& r = matrix_.routes[row];
    const ParamDef& d = paramDef(r.target);
    const RouteValue live = row < live_.size() ? live_[row] : RouteValue{};
    switch (role) {
        case SourceRole: return q(modSourceKey(r.source));
        case BandRole: return static_cast<int>(r.band);
        case TargetRole: return q(d.key);
        case TargetIndexRole: {
            const auto all = targets();
            return static_cast<int>(std::find(all.begin(), all.end(), r.target) - all.begin());
        }
        case TargetLabelRole: return q(d.label);
        case UnitRole: return q(d.unit);
        case MinRole: return r.min;
        case MaxRole: return r.max;
        case RangeMinRole: return d.min;
        case RangeMaxRole: return d.max;
        case CurveRole: return q(modCurveKey(r.curve));
        case AmountRole: return r.amount;
        case InvertRole: return r.invert;
        case SourceLevelRole: return live.source;
        case PositionRole: return live.position;
        case OffsetRole: return live.offset;
        case LiveTextRole: return signedText(live.offset);
        default: return {};
    }
}

QHash<int, QByteArray> RouteListModel::roleNames() const {
    return {{SourceRole, "source"},         {BandRole, "band"},
            {TargetRole, "target"},         {TargetIndexRole, "targetIndex"},
            {TargetLabelRole, "targetLabel"}, {UnitRole, "unit"},
            {MinRole, "min"},               {MaxRole, "max"},
            {RangeMinRole, "rangeMin"},     {RangeMaxRole, "rangeMax"},
            {CurveRole, "curve"},           {AmountRole, "amount"},
            {InvertRole, "invert"},         {SourceLevelRole, "sourceLevel"},
            {PositionRole, "position"},     {OffsetRole, "offset"},
            {LiveTextRole, "liveText"}};
}

QStringList RouteListModel::sourceKeys() const {
    QStringList out;
    for (ModSource s : kSources) out << q(modSourceKey(s));
    return out;
}

QStringList RouteListModel::curveKeys() const {
    QStringList out;
    for (ModCurve c : kCurves) out << q(modCurveKey(c));
    return out;
}

QStringList RouteListModel::targetKeys() const {
    QStringList out;
    for (ParamId id : targets()) out << q(paramDef(id).key);
    return out;
}

QStringList RouteListModel::targetLabels() const {
    QStringList out;
    for (ParamId id : targets()) out << q(paramDef(id).label);
    return out;
}

void RouteListModel::addRoute() {
    ModRoute r;
    r.source = ModSource::Low;
    r.target = ParamId::SeparationWeight;
    rangeAroundDefault(r);
    const int row = rowCount();
    beginInsertRows({}, row, row);
    matrix_.routes.push_back(r);
    endInsertRows();
    emit edited(tr("Add audio route"), false);
}

void RouteListModel::removeRoute(int row) {
    if (row < 0 || row >= rowCount()) return;
    beginRemoveRows({}, row, row);
    matrix_.routes.erase(matrix_.routes.begin() + row);
    if (static_cast<std::size_t>(row) < live_.size()) live_.erase(live_.begin() + row);
    endRemoveRows();
    emit edited(tr("Remove audio route"), false);
}

bool RouteListModel::setField(int row, const QString& field, const QVariant& value) {
    if (row < 0 || row >= rowCount()) return false;
    ModRoute r = matrix_.routes[static_cast<std::size_t>(row)];
    const ParamDef& d = paramDef(r.target);
    const std::string text = value.toString().toStdString();
    if (field == QLatin1String("source")) {
        const auto s = findModSource(text);
        if (!s) return false;
        r.source = *s;
        // Only a band route has a band (a preset keeps none for the others):
        // a route switched back from band is the one it was, not "modified".
        if (r.source != ModSource::Band) r.band = 0;
    } else if (field == QLatin1String("band")) {
        r.band = static_cast<std::size_t>(std::clamp(value.toInt(), 0, static_cast<int>(kMaxModBand)));
    } else if (field == QLatin1String("target")) {
        const auto id = findParam(text);
        if (!id || paramDef(*id).isChoice()) return false;
        if (*id != r.target) {
            r.target = *id;
            rangeAroundDefault(r);
        }
    } else if (field == QLatin1String("min") || field == QLatin1String("max")) {
        bool ok = false;
        const double v = value.toDouble(&ok);
        if (!ok || !std::isfinite(v)) return false;
        (field == QLatin1String("min") ? r.min : r.max) = std::clamp(v, d.min, d.max);
    } else if (field == QLatin1String("curve")) {
        const auto c = findModCurve(text);
        if (!c) return false;
        r.curve = *c;
    } else if (field == QLatin1String("amount")) {
        bool ok = false;
        const double v = value.toDouble(&ok);
        if (!ok || !std::isfinite(v)) return false;
        r.amount = std::clamp(v, 0.0, kMaxModAmount);
    } else if (field == QLatin1String("invert")) {
        r.invert = value.toBool();
    } else {
        return false;
    }
    if (r == matrix_.routes[static_cast<std::size_t>(row)]) {
        changed(row);  // a clamped entry shows the value actually kept
        return true;
    }
    matrix_.routes[static_cast<std::size_t>(row)] = r;
    changed(row);
    // Only the amount has a slider: its moves merge into one undo step until
    // released; the route's number in the name keeps another route's moves
    // out of that step should no release come between.
    emit edited(tr("Audio route %1 %2").arg(row + 1).arg(field), field == QLatin1String("amount"));
    return true;
}

void RouteListModel::setMatrix(const ModulationMatrix& matrix) {
    // Rows changed where they are, not all made anew: a reset rebuilt every
    // row of the panel, and an undo or a redo took with it a number being
    // typed into another route (lost) and the amount slider being dragged
    // (dead for the rest of the drag). A route removed or put back (the undo
    // and redo of Remove and Add) is that row gone or made, so that what is
    // typed into it goes with it, not onto its neighbour.
    live_.clear();
    if (const auto row = oneRouteApart(matrix_.routes, matrix.routes)) {
        beginRemoveRows({}, static_cast<int>(*row), static_cast<int>(*row));
        matrix_.routes.erase(matrix_.routes.begin() + static_cast<std::ptrdiff_t>(*row));
        endRemoveRows();
    } else if (const auto row = oneRouteApart(matrix.routes, matrix_.routes)) {
        beginInsertRows({}, static_cast<int>(*row), static_cast<int>(*row));
        matrix_.routes.insert(matrix_.routes.begin() + static_cast<std::ptrdiff_t>(*row), matrix.routes[*row]);
        endInsertRows();
    } else {
        const int before = rowCount(), after = static_cast<int>(matrix.routes.size());
        if (after < before) {
            beginRemoveRows({}, after, before - 1);
            matrix_.routes.resize(static_cast<std::size_t>(after));
            endRemoveRows();
        }
        for (int row = 0; row < std::min(before, after); ++row) {
            const auto i = static_cast<std::size_t>(row);
            if (matrix_.routes[i] == matrix.routes[i]) continue;
            matrix_.routes[i] = matrix.routes[i];
            changed(row);
        }
        if (after > before) {
            beginInsertRows({}, before, after - 1);
            matrix_.routes.insert(matrix_.routes.end(), matrix.routes.begin() + before, matrix.routes.end());
            endInsertRows();
        }
    }
    if (rowCount() > 0) liveChanged();
}

void RouteListModel::setLive(const std::vector<RouteValue>& values) {
    if (values.size() != matrix_.routes.size() || rowCount() == 0) return;
    live_ = values;
    liveChanged();
}

void RouteListModel::clearLive() {
    if (live_.empty()) return;
    live_.clear();
    liveChanged();
}

void RouteListModel::liveChanged() {
    emit dataChanged(index(0), index(rowCount() - 1), {SourceLevelRole, PositionRole, OffsetRole, LiveTextRole});
}

void RouteListModel::changed(int row) { emit dataChanged(index(row), index(row)); }

}  // namespace mirofish::editor
