#include "io/snapshot.hpp"

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <numbers>
#include <string_view>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/broken_link.hpp"
#include "io/preset.hpp"
#include "io/state_hash.hpp"
#include "params/number_text.hpp"
#include "params/params.hpp"
#include "params/registry.hpp"
#include "sim/row_stretch.hpp"
#include "io/whole_file.hpp"

namespace mirofish {

static_assert(std::endian::native == std::endian::little, "snapshots are written little-endian");

namespace {

constexpr char kMagic[16] = {'M', 'I', 'R', 'O', 'F', 'I', 'S', 'H', '-', 'S', 'T', 'A', 'T', 'E', '\n', '\0'};
constexpr std::size_t kHeaderSize = 16 + 4 + 4 + 8 + 8;

class Writer {
public:
    template <typename T>
    void put(const T& v) {
        putRaw(&v, sizeof v);
    }
    void putRaw(const void* data, std::size_t size) {
        if (size == 0) return;
        const std::size_t at = bytes_.size();
        bytes_.resize(at + size);
        std::memcpy(bytes_.data() + at, data, size);
    }
    void putVec(Vec2 v) { put(v[0]), put(v[1]); }
    void putPath(const std::vector<Vec2>& path) {
        put(static_cast<std::uint32_t>(path.size()));
        for (Vec2 p : path) putVec(p);
    }
    const std::vector<char>& bytes() const { return bytes_; }

private:
    std::vector<char> bytes_;
};

class Reader {
public:
    Reader(const char* data, std::size_t size, std::string file) : p_(data), end_(data + size), file_(std::move(file)) {}
    template <typename T>
    T get() {
        need(sizeof(T));
        T v;
        std::memcpy(&v, p_, sizeof v);
        p_ += sizeof v;
        return v;
    }
    void getRaw(void* out, std::size_t size) {
        need(size);
        std::memcpy(out, p_, size);
        p_ += size;
    }
    void skip(std::size_t size) {
        need(size);
        p_ += size;
    }
    Vec2 getVec() {
        const float x = get<float>();
        return Vec2{{x, get<float>()}};
    }
    std::vector<Vec2> getPath() {
        const auto n = count(8);
        std::vector<Vec2> path(n);
        for (Vec2& p : path) p = getVec();
        return path;
    }
    // A count of items of at least itemSize bytes each: checked against what
    // is left, so a corrupted count cannot make us allocate gigabytes.
    std::uint32_t count(std::size_t itemSize) {
        const auto n = get<std::uint32_t>();
        if (static_cast<std::size_t>(end_ - p_) / itemSize < n) fail("a count is larger than the file");
        return n;
    }
    bool atEnd() const { return p_ == end_; }
    [[noreturn]] void fail(const std::string& what) const {
        throw SnapshotError(file_ + ": not a usable MiroFish state file (" + what + ")");
    }

private:
    void need(std::size_t size) {
        if (static_cast<std::size_t>(end_ - p_) < size) fail("truncated");
    }
    const char* p_;
    const char* end_;
    std::string file_;
};

void writeScene(Writer& w, const Scene& s) {
    w.put(s.width), w.put(s.height), w.put(s.fishCount), w.put(s.seed);
    w.put(static_cast<std::uint32_t>(kParamCount));
    for (const ParamDef& d : paramRegistry()) {
        w.put(static_cast<std::uint16_t>(d.key.size()));
        w.putRaw(d.key.data(), d.key.size());
        w.put(s.params.get(d.id));
    }
    w.put(static_cast<std::uint32_t>(s.fields.size()));
    for (const ForceField& f : s.fields) {
        w.put(f.id), w.putVec(f.position), w.put(f.radius), w.put(f.strength), w.put(static_cast<std::uint8_t>(f.kind));
    }
    w.put(static_cast<std::uint32_t>(s.predators.size()));
    for (const Predator& p : s.predators) {
        w.putVec(p.position), w.putVec(p.velocity), w.put(static_cast<std::uint8_t>(p.behaviour));
        w.put(p.nextWaypoint), w.putPath(p.path);
    }
    w.put(static_cast<std::uint32_t>(s.obstacles.size()));
    for (const Obstacle& o : s.obstacles) w.putVec(o.centre), w.put(o.radius);
    w.put(static_cast<std::uint8_t>(s.leader ? 1 : 0));
    if (s.leader) w.putVec(s.leader->position), w.put(s.leader->nextWaypoint), w.putPath(s.leader->path);
}

constexpr std::uint64_t kLastStep = std::uint64_t{1} << 53;

Scene readScene(Reader& r) {
    Scene s;
    s.width = r.get<float>(), s.height = r.get<float>();
    // A saved world is one Simulation keeps.
    constexpr float kLargest = Simulation::kLargestWorld;
    if (!(s.width >= 1.0f && s.width <= kLargest && s.height >= 1.0f && s.height <= kLargest))
        r.fail("world size " + numberText(s.width) + " x " + numberText(s.height) + " px, outside 1 to " +
               numberText(kLargest) + " px a side");
    s.fishCount = r.get<std::uint32_t>();
    // As a preset and --fish take it: a school of none ran on, its forces'
    // history printed as if fish were swimming.
    if (s.fishCount < 1 || s.fishCount > kMaxFish)
        r.fail("fish count " + std::to_string(s.fishCount) + ", outside 1 to " + std::to_string(kMaxFish));
    s.seed = r.get<std::uint64_t>();
    const auto params = r.count(7);
    for (std::uint32_t i = 0; i < params; ++i) {
        std::string key(r.get<std::uint16_t>(), '\0');
        r.getRaw(key.data(), key.size());
        const auto value = r.get<float>();
        const auto id = findParam(key);
        if (!id) r.fail("unknown parameter '" + key + "', written by a newer MiroFish?");
        if (const std::string why = validateParam(*id, value, kStoredParamSlack); !why.empty())
            r.fail("parameter '" + key + "' " + why);
        s.params.set(*id, value);
    }
    s.fields.resize(r.count(21));
    for (ForceField& f : s.fields) {
        f.id = r.get<std::uint32_t>(), f.position = r.getVec(), f.radius = r.get<float>(), f.strength = r.get<float>();
        const auto kind = r.get<std::uint8_t>();
        if (kind > 2) r.fail("bad force field kind");
        f.kind = static_cast<FieldKind>(kind);
    }
    s.predators.resize(r.count(25));
    for (Predator& p : s.predators) {
        p.position = r.getVec(), p.velocity = r.getVec();
        const auto behaviour = r.get<std::uint8_t>();
        if (behaviour > 1) r.fail("bad predator behaviour");
        p.behaviour = static_cast<PredatorBehaviour>(behaviour);
        p.nextWaypoint = r.get<std::uint32_t>(), p.path = r.getPath();
    }
    s.obstacles.resize(r.count(12));
    for (Obstacle& o : s.obstacles) o.centre = r.getVec(), o.radius = r.get<float>();
    if (r.get<std::uint8_t>() != 0) {
        Leader l;
        l.position = r.getVec(), l.nextWaypoint = r.get<std::uint32_t>(), l.path = r.getPath();
        s.leader = std::move(l);
    }
    return s;
}

}  // namespace

void saveSnapshot(const Simulation& sim, const std::filesystem::path& file) {
    const Simulation::SavedState st = sim.save();
    Writer w;
    writeScene(w, st.scene);
    w.put(st.step), w.put(st.time), w.put(st.nextFieldId), w.put(st.lastNeighbours), w.put(st.lastCandidates);
    w.put(st.rowStretch);
    w.put(st.wanderPhase);
    w.put(st.noiseTicks);
    w.put(static_cast<std::uint64_t>(st.history.filled)), w.put(static_cast<std::uint64_t>(st.history.next));
    w.putRaw(st.history.perStep.data(), sizeof st.history.perStep);
    const std::size_t n = st.scene.fishCount;
    for (FishArrays::FloatField m : FishArrays::kFloatFields) w.putRaw((st.fish.*m).data(), n * sizeof(float));
    w.putRaw(st.fish.id.data(), n * sizeof(std::uint32_t));

    Hasher64 checksum;
    checksum.bytes(w.bytes().data(), w.bytes().size());
    Writer header;
    header.putRaw(kMagic, sizeof kMagic);
    header.put(kSnapshotVersion);
    header.put(std::uint32_t{0});
    header.put(static_cast<std::uint64_t>(w.bytes().size()));
    header.put(checksum.digest());

    try {
        writeFileAtomically(file, [&](std::ostream& out) {
            out.write(header.bytes().data(), static_cast<std::streamsize>(header.bytes().size()));
            out.write(w.bytes().data(), static_cast<std::streamsize>(w.bytes().size()));
        });
    } catch (const std::runtime_error& e) {
        throw SnapshotError(e.what());
    }
}

void loadSnapshot(Simulation& sim, const std::filesystem::path& file) {
    const std::string name = file.string();
    if (const std::string what = notARegularFile(file); !what.empty())
        throw SnapshotError(name + ": " + what + ", not a state file");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw SnapshotError(name + ": cannot open the state file (" + unreadableBecause(file, std::strerror(errno)) +
                            ")");
    // The header first: another kind of file (a video named by mistake) is
    // told so before gigabytes of it are read.
    std::vector<char> data(kHeaderSize);
    in.read(data.data(), static_cast<std::streamsize>(data.size()));
    data.resize(static_cast<std::size_t>(in.gcount()));
    std::error_code ec;
    const std::uintmax_t fileSize = std::filesystem::file_size(file, ec);
    if (ec) throw SnapshotError(name + ": cannot read its size (" + ec.message() + ")");
    Reader head(data.data(), data.size(), name);
    char magic[sizeof kMagic];
    if (data.size() < sizeof kMagic) head.fail("too short to be a state file");
    head.getRaw(magic, sizeof magic);
    if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) head.fail("no MiroFish state signature: a different kind of file");
    const auto version = head.get<std::uint32_t>();
    if (version < kOldestSnapshotVersion || version > kSnapshotVersion)
        head.fail("format version " + std::to_string(version) + ", this MiroFish reads versions " +
                  std::to_string(kOldestSnapshotVersion) + " to " + std::to_string(kSnapshotVersion));
    head.get<std::uint32_t>();
    const auto payloadSize = head.get<std::uint64_t>();
    const auto expected = head.get<std::uint64_t>();
    if (fileSize - kHeaderSize < payloadSize) head.fail("truncated");
    if (fileSize - kHeaderSize > payloadSize) head.fail("unexpected bytes after the end");
    // The largest state is of 2 million fish, some hundreds of MB: a file of
    // gigabytes is none MiroFish wrote, and reading it whole ended in
    // "std::bad_alloc" (or took the machine's memory first).
    constexpr std::uint64_t kLargestPayload = 4ull << 30;
    if (payloadSize > kLargestPayload)
        head.fail("holds " + std::to_string(payloadSize >> 20) + " MB, more than any state MiroFish writes (at most " +
                  std::to_string(kLargestPayload >> 20) + " MB): a damaged or another kind of file");
    try {
        data.resize(kHeaderSize + payloadSize);
    } catch (const std::bad_alloc&) {
        head.fail("holds " + std::to_string(payloadSize >> 20) + " MB, more than this machine can read into memory");
    }
    in.read(data.data() + kHeaderSize, static_cast<std::streamsize>(payloadSize));
    if (static_cast<std::uint64_t>(in.gcount()) != payloadSize) head.fail("truncated while it was read");
    Hasher64 checksum;
    checksum.bytes(data.data() + kHeaderSize, payloadSize);
    if (checksum.digest() != expected) head.fail("checksum mismatch: the file is corrupted");

    Reader r(data.data() + kHeaderSize, payloadSize, name);
    Simulation::SavedState st;
    st.scene = readScene(r);
    st.step = r.get<std::uint64_t>();
    // 2^53 steps (at 60 a second, 4.8 million years) keep the step count
    // and the simulated time exact, and any run's end step far from overflow.
    if (st.step > kLastStep) r.fail("step count " + std::to_string(st.step) + ", beyond the last, 2^53");
    st.time = version >= 3 ? r.get<double>() : static_cast<double>(st.step) * Simulation::kStepSeconds;
    if (!std::isfinite(st.time) || st.time < 0) r.fail("bad simulated time");
    st.nextFieldId = r.get<std::uint32_t>();
    st.lastNeighbours = r.get<double>();
    st.lastCandidates = r.get<double>();
    st.rowStretch = version >= 4 ? r.get<float>() : 1.0f;
    if (!validRowStretch(st.rowStretch))
        r.fail("grid row stretch " + numberText(st.rowStretch) + ", not a multiple of " + numberText(kRowStretchStep) +
               " from 1 to " + numberText(kMaxRowStretch));
    st.wanderPhase = version >= 5 ? r.get<double>() : 0.0;
    if (!(st.wanderPhase >= 0.0 && st.wanderPhase < 2.0 * std::numbers::pi))
        r.fail("wander phase " + numberText(st.wanderPhase) + ", not in [0, 2 pi)");
    st.noiseTicks = version >= 6 ? r.get<double>() : st.time / noiseTimeScale(st.scene.params);
    if (version >= 6 && !(st.noiseTicks >= 0.0 && std::isfinite(st.noiseTicks)))
        r.fail("noise time " + numberText(st.noiseTicks) + ", not a finite number from 0");
    st.history.filled = r.get<std::uint64_t>();
    st.history.next = r.get<std::uint64_t>();
    if (st.history.filled > RuleForceHistory::kWindow || st.history.next >= RuleForceHistory::kWindow)
        r.fail("bad force history");
    r.getRaw(st.history.perStep.data(), sizeof st.history.perStep);
    const std::size_t n = st.scene.fishCount;
    // Before version 5 the wander directions' two arrays came before the alarms.
    const std::size_t oldWander = version >= 5 ? 0 : 2;
    if ((payloadSize / (FishArrays::kFloatFields.size() + oldWander + 1)) / 4 < n) r.fail("fish count larger than the file");
    st.fish.allocate(n);
    for (FishArrays::FloatField m : FishArrays::kFloatFields) {
        if (m == &FishArrays::alarm) r.skip(oldWander * n * sizeof(float));
        r.getRaw((st.fish.*m).data(), n * sizeof(float));
    }
    r.getRaw(st.fish.id.data(), n * sizeof(std::uint32_t));
    if (!r.atEnd()) r.fail("unexpected bytes after the fish");
    sim.restore(std::move(st));
}

}  // namespace mirofish
