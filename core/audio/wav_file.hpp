#pragma once
// WAV files without any library: reading PCM (8, 16, 24, 32 bit) and 32-bit
// float, any channel count, mixed down to mono; writing 32-bit float mono
// (test fixtures). Other formats (flac, mp3, ogg, ...) and WAV files of other
// kinds (WavUnsupported) are decoded by the app through the ffmpeg program
// (app/cli/audio_decode).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace mirofish {

struct AudioFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// A WAV file of a kind this reader does not take, which may well be sound:
// RF64 (the format for files over 4 GB), an encoding other than PCM or 32-bit
// float (mu-law, A-law, 64-bit float, ...), or the format chunk after the
// audio data. Another decoder may read it (app/cli/audio_decode falls back
// to ffmpeg); a damaged file (a broken header, no data) is an AudioFileError.
struct WavUnsupported : AudioFileError {
    using AudioFileError::AudioFileError;
};
// readWav was told to stop (its caller cancelled).
struct WavReadStopped : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct MonoAudio {
    std::vector<float> samples;  // -1..1
    double sampleRate = 48000;
    std::uint16_t channels = 1;  // the file's, mixed down into `samples`
    // Set when only part of the file's audio could be read: what is missing.
    std::string warning;
    double seconds() const { return sampleRate > 0 ? static_cast<double>(samples.size()) / sampleRate : 0.0; }
};

// A decoded sample as the analysis takes it: clipped to full scale, as a
// player would play it, and 0 where it is not a number. A float file may hold
// anything: one sample of 3e38 overflowed the spectrum into NaN (invalid
// JSON lines from `analyze`), and one of 1e10 held the automatic gain down
// for the rest of the file.
inline float fullScaleSample(float x) { return std::isfinite(x) ? std::clamp(x, -1.0f, 1.0f) : 0.0f; }

// The sample rates a file may have: telephone audio is 8 kHz, studio audio
// up to 768 kHz. Outside a wide margin around those the header is damaged,
// and resampling from it would yield no frames, or billions (a 1 Hz header
// on 2 KB of samples read as 1000 s, 1.2 GB at the analysis rate).
inline constexpr std::uint32_t kLowestSampleRate = 1'000, kHighestSampleRate = 1'536'000;

// Throws AudioFileError naming the file and what is wrong (missing, empty,
// not a WAV file, truncated), WavUnsupported for a kind it does not read.
// The file is read in pieces of 8 MB: `keepGoing`, if set, is called with
// the fraction read after each (a WAV of an hour is 600 MB), and false
// stops the reading with WavReadStopped.
MonoAudio readWav(const std::filesystem::path& file, const std::function<bool(double)>& keepGoing = {});
// The seconds of audio a WAV file holds, from its header and its size
// alone: an over-long file is refused before it is read into memory. Throws
// as readWav does for a header it cannot read (in its first megabyte).
double wavSeconds(const std::filesystem::path& file);
// Where the whole sample frames of a WAV file lie, in bytes from its start,
// and how they are encoded: for a reader to take them as raw samples where
// the file's header gives no length, one past the file's end (a stream
// written to a pipe, a recorder that never finished, a copy cut short), or
// one that ends inside a frame (a recovered recording, a writer that counted
// a pad byte).
// ffmpeg's WAV reader takes the short last packet of such a file for a
// damaged one. Empty where the header's length is right, and for a file
// this reader does not take or that holds no whole frame.
struct WavSamples {
    std::uint64_t begin = 0, end = 0;
    std::uint32_t rate = 0;
    std::uint16_t channels = 0, bits = 0;
    bool isFloat = false;
};
std::optional<WavSamples> wavSamplesWithoutLength(const std::filesystem::path& file);
// Parses WAV bytes; `source` names them in error messages.
MonoAudio parseWav(std::span<const unsigned char> bytes, const std::string& source);

// A WAV stream (ffmpeg's through a pipe, whose header gives no sizes) mixed
// down to mono as it arrives, as parseWav mixes a file: a film's 5.1 sound
// takes a sixth of the memory its samples would, and is not clipped by a
// downmix that adds the channels up.
class WavStreamMixer {
public:
    explicit WavStreamMixer(std::string source);
    // Mixes the whole frames that have arrived and removes their bytes (and
    // the header's) from `bytes`. Throws as parseWav does for a bad header.
    void feed(std::vector<unsigned char>& bytes);
    // The mono samples so far.
    std::size_t samples() const { return samples_.size(); }
    // After the stream's end: feeds `rest` and gives all the audio. Throws
    // AudioFileError for a stream with no header or no samples.
    MonoAudio finish(std::vector<unsigned char>& rest);

private:
    static bool headerComplete(std::span<const unsigned char> bytes);
    std::string source_;
    std::uint16_t channels_ = 0, bits_ = 0;  // 0 channels: the header has not come yet
    bool isFloat_ = false;
    std::uint32_t rate_ = 0;
    std::vector<float> samples_;
};
void writeWav(const std::filesystem::path& file, const MonoAudio& audio);

}  // namespace mirofish
