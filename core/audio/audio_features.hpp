#pragma once
// What the audio analysis produces for one analysis frame (one video or
// simulation frame), and what the modulation matrix reads. Levels are
// normalised to 0..1 after the automatic gain: 0 is silence or below the
// floor, 1 is as loud as this music gets.
#include <array>
#include <cstddef>
#include <vector>

namespace mirofish {

enum class NamedBand : std::size_t { Low = 0, Mid = 1, High = 2 };

// The log-spaced bands of the analysis that drives the school (the editor,
// simulate and render): what a route's band index counts.
inline constexpr std::size_t kDefaultBands = 8;

struct AudioFeatures {
    double time = 0;                 // seconds into the audio of the frame's analysis window end
    std::array<float, 3> named{};    // low, mid, high (NamedBand), 0..1
    std::vector<float> bands;        // log-spaced bands 20 Hz - 16 kHz, low to high, 0..1
    float level = 0;                 // overall level, 0..1
    // The same levels in dB before the gain (dBFS of the band's mean power), for meters and curves.
    std::array<float, 3> namedDb{};
    std::vector<float> bandsDb;      // the log-spaced bands in dB (mean power per bin, smoothed)
    float levelDb = -120;            // total power 20 Hz - 16 kHz in dBFS (a full-scale sine: 0), smoothed
    // The levels in dB relative to the automatic gain's reference (0 = as loud
    // as this music has been lately; -120 at or below the floor): what the
    // modulation's log curve reads, so a quiet and a loud track move alike.
    std::array<float, 3> namedGainDb{-120, -120, -120};
    std::vector<float> bandsGainDb;
    float levelGainDb = -120;
    bool onset = false;              // an onset (spectral-flux peak) in this frame
    float bpm = 0;                   // running tempo estimate, 0 while unknown
    float tempoConfidence = 0;       // 0..1
    float beatPhase = 0;             // 0..1 within the current beat (0 on the beat)
};

}  // namespace mirofish
