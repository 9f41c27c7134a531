#pragma once
// An audio file for the editor's audio tests: the 124 BPM dance loop of the
// analysis tests (kick, bass, hats, stabs) as loop.wav in `dir`.
#include <filesystem>

#include "audio/wav_file.hpp"
#include "core/audio/audio_signals.hpp"
#include "support/sim_fixtures.hpp"

namespace mirofish::test {

inline std::filesystem::path writeLoop(const TempDir& dir, double seconds) {
    MonoAudio a;
    a.sampleRate = kRate;
    a.samples = music(seconds);
    const auto file = dir / "loop.wav";
    writeWav(file, a);
    return file;
}

}  // namespace mirofish::test
