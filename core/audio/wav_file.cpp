#include "audio/wav_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>

#include "io/atomic_file.hpp"
#include "params/number_text.hpp"

namespace mirofish {

namespace {
constexpr std::uint16_t kFormatPcm = 1, kFormatFloat = 3, kFormatExtensible = 0xFFFE;

std::uint32_t u32(const unsigned char* p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}
std::uint16_t u16(const unsigned char* p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }

// One sample of `bits` at p, as -1..1.
float sampleAt(const unsigned char* p, int bits, bool isFloat) {
    if (isFloat) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    switch (bits) {
    case 8: return (static_cast<float>(p[0]) - 128.0f) / 128.0f;
    case 16: return static_cast<float>(static_cast<std::int16_t>(u16(p))) / 32768.0f;
    case 24: {
        const std::int32_t v = static_cast<std::int32_t>(u32(p) << 8) >> 8;  // sign-extend 24 bits
        return static_cast<float>(v) / 8388608.0f;
    }
    default: return static_cast<float>(static_cast<std::int32_t>(u32(p))) / 2147483648.0f;
    }
}

// Frames of `channels` samples each at `data`, mixed down to mono as the
// analysis takes it: their mean, clipped to full scale.
void mixDown(const unsigned char* data, std::size_t frames, std::uint16_t channels, std::uint16_t bits, bool isFloat,
             float* out) {
    const std::size_t frameBytes = static_cast<std::size_t>(channels) * (bits / 8);
    for (std::size_t i = 0; i < frames; ++i) {
        float sum = 0;
        for (std::uint16_t c = 0; c < channels; ++c) sum += sampleAt(data + i * frameBytes + c * (bits / 8), bits, isFloat);
        out[i] = fullScaleSample(sum / static_cast<float>(channels));
    }
}

void put32(std::vector<unsigned char>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}
void putTag(std::vector<unsigned char>& out, const char (&tag)[5]) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<unsigned char>(tag[i]));
}
void put16(std::vector<unsigned char>& out, std::uint16_t v) {
    out.push_back(static_cast<unsigned char>(v));
    out.push_back(static_cast<unsigned char>(v >> 8));
}
}  // namespace

namespace {
// The data chunk's size where its header gives none.
constexpr std::size_t kToTheEnd = std::numeric_limits<std::size_t>::max();

// Four letters, digits or spaces, as a chunk's id ("LIST", "id3 "); audio
// samples rarely are (silence is zeros).
bool looksLikeChunkId(const unsigned char* p) {
    return std::all_of(p, p + 4, [](unsigned char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ';
    });
}

// What a WAV header says: the encoding and where the audio data lies.
struct WavLayout {
    std::uint16_t channels = 0, bits = 0;
    bool isFloat = false;
    std::uint32_t rate = 0;
    std::size_t dataOffset = 0;    // from the start of the file
    std::size_t declaredSize = 0;  // the data chunk's size as its header gives it, or kToTheEnd
    std::size_t frameBytes() const { return static_cast<std::size_t>(channels) * (bits / 8); }
};

// The header of a WAV file from its first bytes (all of them, or as far as
// the data chunk's header). Throws as parseWav does for what it reads.
WavLayout readLayout(std::span<const unsigned char> b, const std::string& source) {
    auto fail = [&](const std::string& why) { throw AudioFileError(source + ": " + why); };
    auto unsupported = [&](const std::string& why) { throw WavUnsupported(source + ": " + why); };
    if (b.empty()) fail("the file is empty");
    if (b.size() >= 12 && (std::memcmp(b.data(), "RF64", 4) == 0 || std::memcmp(b.data(), "BW64", 4) == 0) &&
        std::memcmp(b.data() + 8, "WAVE", 4) == 0)
        unsupported("an RF64 WAV file (the form for audio over 4 GB), which this reader does not take");
    // Another kind of file named .wav (an MP3, AIFF, a big-endian RIFX) goes
    // on to ffmpeg, which tells the kind from the content.
    if (b.size() < 12 || std::memcmp(b.data(), "RIFF", 4) != 0 || std::memcmp(b.data() + 8, "WAVE", 4) != 0)
        unsupported("not a WAV file (no RIFF/WAVE header)");
    WavLayout w;
    std::uint16_t format = 0;
    bool formatSeen = false, dataSeen = false;
    for (std::size_t at = 12; at + 8 <= b.size();) {
        const std::uint32_t size = u32(b.data() + at + 4);
        const unsigned char* body = b.data() + at + 8;
        const std::size_t available = b.size() - at - 8;
        if (std::memcmp(b.data() + at, "fmt ", 4) == 0) {
            if (size < 16 || available < 16) fail("truncated format chunk");
            formatSeen = true;
            format = u16(body);
            w.channels = u16(body + 2);
            w.rate = u32(body + 4);
            w.bits = u16(body + 14);
            if (format == kFormatExtensible && size >= 26) {
                if (available < 26) fail("truncated format chunk");
                format = u16(body + 24);  // the sub-format's first two bytes
            }
        } else if (std::memcmp(b.data() + at, "data", 4) == 0) {
            if (!formatSeen)
                unsupported("the format chunk does not come before the audio data, as this reader needs");
            w.dataOffset = at + 8;
            // 0xFFFFFFFF is a streaming writer's "unknown"; 0 is what a
            // recorder that never finished (a crash) leaves: both mean "to
            // the end of the file", unless another chunk follows an empty one.
            const bool emptyBeforeChunk = size == 0 && available >= 4 && looksLikeChunkId(body);
            w.declaredSize = (size == 0 && !emptyBeforeChunk) || size == 0xFFFFFFFFu ? kToTheEnd : size;
            dataSeen = true;
            break;
        }
        at += 8 + size + (size & 1u);
    }
    if (w.channels == 0 || w.rate == 0) fail("no format chunk, or zero channels or sample rate");
    if (w.rate < kLowestSampleRate || w.rate > kHighestSampleRate)
        fail("a sample rate of " + std::to_string(w.rate) + " Hz: the header is damaged (1 kHz to 1.5 MHz are read)");
    if (!dataSeen) fail("no audio data chunk");
    w.isFloat = format == kFormatFloat;
    if (!(format == kFormatPcm && (w.bits == 8 || w.bits == 16 || w.bits == 24 || w.bits == 32)) &&
        !(w.isFloat && w.bits == 32))
        unsupported("unsupported encoding (format " + std::to_string(format) + ", " + std::to_string(w.bits) +
                    " bits); 8/16/24/32-bit PCM and 32-bit float are read");
    return w;
}
}  // namespace

namespace {
// A WAV file's header, from its first megabyte, and the bytes of audio data
// it holds (no more than the header gives).
struct WavFileLayout {
    WavLayout layout;
    std::uintmax_t dataBytes = 0;
};
WavFileLayout fileLayout(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw AudioFileError(file.string() + ": cannot open the file (missing or unreadable)");
    // The chunks before the audio data: a few dozen bytes in most files,
    // more with metadata before it.
    constexpr std::size_t kHeadBytes = 1 << 20;
    std::vector<unsigned char> head(kHeadBytes);
    in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    WavFileLayout f{readLayout(head, file.string())};
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec) throw AudioFileError(file.string() + ": cannot read its size (" + ec.message() + ")");
    f.dataBytes = std::min<std::uintmax_t>(f.layout.declaredSize, size > f.layout.dataOffset ? size - f.layout.dataOffset : 0);
    return f;
}
}  // namespace

double wavSeconds(const std::filesystem::path& file) {
    const WavFileLayout f = fileLayout(file);
    return static_cast<double>(f.dataBytes / f.layout.frameBytes()) / f.layout.rate;
}

std::optional<WavSamples> wavSamplesWithoutLength(const std::filesystem::path& file) {
    WavFileLayout f;
    try {
        f = fileLayout(file);
    } catch (const AudioFileError&) {
        return std::nullopt;
    }
    const WavLayout& w = f.layout;
    const std::uintmax_t wholeBytes = f.dataBytes / w.frameBytes() * w.frameBytes();
    const bool lengthRight =
        w.declaredSize != kToTheEnd && w.declaredSize <= f.dataBytes && w.declaredSize % w.frameBytes() == 0;
    if (lengthRight || wholeBytes == 0) return std::nullopt;
    return WavSamples{w.dataOffset, w.dataOffset + wholeBytes, w.rate, w.channels, w.bits, w.isFloat};
}

MonoAudio parseWav(std::span<const unsigned char> b, const std::string& source) {
    const WavLayout w = readLayout(b, source);
    const std::size_t frameBytes = w.frameBytes();
    // A writer that never finished leaves a too-large size (or none): read what is there.
    const std::size_t frames = std::min<std::size_t>(w.declaredSize, b.size() - w.dataOffset) / frameBytes;
    if (frames == 0) throw AudioFileError(source + ": the file holds no samples");

    MonoAudio out;
    out.sampleRate = w.rate;
    out.channels = w.channels;
    // A size that promises more samples than the file holds is a copy cut short.
    if (const std::size_t declared = w.declaredSize / frameBytes; declared > frames && w.declaredSize != kToTheEnd) {
        out.warning = source + ": the file ends before its audio does: it holds " + std::to_string(frames) +
                      " of the " + std::to_string(declared) + " samples its header gives (" +
                      fixedText(static_cast<double>(frames) / w.rate, 3) + " s of " +
                      fixedText(static_cast<double>(declared) / w.rate, 3) + " s); what is there is used";
    }
    out.samples.resize(frames);
    mixDown(b.data() + w.dataOffset, frames, w.channels, w.bits, w.isFloat, out.samples.data());
    return out;
}

WavStreamMixer::WavStreamMixer(std::string source) : source_(std::move(source)) {}

bool WavStreamMixer::headerComplete(std::span<const unsigned char> b) {
    if (b.size() < 12) return false;
    for (std::size_t at = 12; at + 8 <= b.size(); at += 8 + u32(b.data() + at + 4) + (u32(b.data() + at + 4) & 1u))
        if (std::memcmp(b.data() + at, "data", 4) == 0) return true;
    // A header that never reaches its data in the first megabyte is no
    // stream of audio: readLayout says what is wrong with it.
    constexpr std::size_t kLongestHeader = 1 << 20;
    return b.size() >= kLongestHeader;
}

void WavStreamMixer::feed(std::vector<unsigned char>& bytes) {
    std::size_t used = 0;
    if (channels_ == 0) {
        if (!headerComplete(bytes)) return;
        const WavLayout w = readLayout(bytes, source_);
        channels_ = w.channels;
        bits_ = w.bits;
        isFloat_ = w.isFloat;
        rate_ = w.rate;
        used = w.dataOffset;
    }
    const std::size_t frameBytes = static_cast<std::size_t>(channels_) * (bits_ / 8);
    const std::size_t frames = (bytes.size() - used) / frameBytes;
    const std::size_t at = samples_.size();
    samples_.resize(at + frames);
    mixDown(bytes.data() + used, frames, channels_, bits_, isFloat_, samples_.data() + at);
    bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(used + frames * frameBytes));
}

MonoAudio WavStreamMixer::finish(std::vector<unsigned char>& rest) {
    feed(rest);
    if (channels_ == 0) readLayout(rest, source_);  // throws: the stream ended inside its header
    MonoAudio out;
    out.sampleRate = rate_;
    out.channels = channels_;
    out.samples = std::move(samples_);
    if (out.samples.empty()) throw AudioFileError(source_ + ": the file holds no audio");
    return out;
}

MonoAudio readWav(const std::filesystem::path& file, const std::function<bool(double)>& keepGoing) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw AudioFileError(file.string() + ": cannot open the file (missing or unreadable)");
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    constexpr std::size_t kPiece = 8 << 20;
    std::vector<unsigned char> bytes;
    if (!ec) bytes.reserve(static_cast<std::size_t>(size) + kPiece);  // one allocation, not a copy per doubling
    while (in) {
        const std::size_t at = bytes.size();
        bytes.resize(at + kPiece);
        in.read(reinterpret_cast<char*>(bytes.data() + at), static_cast<std::streamsize>(kPiece));
        bytes.resize(at + static_cast<std::size_t>(in.gcount()));
        const double done = !ec && size > 0 ? std::min(1.0, static_cast<double>(bytes.size()) / static_cast<double>(size)) : 0.0;
        if (keepGoing && !keepGoing(done)) throw WavReadStopped(file.string() + ": reading stopped");
    }
    return parseWav(bytes, file.string());
}

void writeWav(const std::filesystem::path& file, const MonoAudio& audio) {
    std::vector<unsigned char> out;
    const auto dataBytes = static_cast<std::uint32_t>(audio.samples.size() * 4);
    const auto rate = static_cast<std::uint32_t>(audio.sampleRate);
    out.reserve(44 + dataBytes);
    putTag(out, "RIFF");
    put32(out, 36 + dataBytes);
    putTag(out, "WAVE");
    putTag(out, "fmt ");
    put32(out, 16);
    put16(out, kFormatFloat);
    put16(out, 1);
    put32(out, rate);
    put32(out, rate * 4);
    put16(out, 4);
    put16(out, 32);
    putTag(out, "data");
    put32(out, dataBytes);
    for (float s : audio.samples) {
        std::uint32_t v;
        std::memcpy(&v, &s, 4);
        put32(out, v);
    }
    writeFileAtomically(file, [&](std::ostream& o) {
        o.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
    });
}

}  // namespace mirofish
