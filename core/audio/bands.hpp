#pragma once
// Frequency bands over a Spectrum's bins: the three named bands the default
// modulation routes use, and N log-spaced bands for meters and routes.
#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace mirofish {

struct BandRange {
    double lowHz = 0;   // inclusive
    double highHz = 0;  // exclusive
};

// The named bands (NamedBand order). Edges chosen for dance music and the
// default routes:
// - low 20-150 Hz: the kick's body (50-100 Hz) and the bass line's
//   fundamentals, which drive separation (the school bursts on the kick);
//   150 Hz keeps the snare's body (180-250 Hz) and most vocals out.
// - mid 150-2000 Hz: snare body, vocals, the fundamentals and first
//   harmonics of most instruments: the "energy" that drives maxSpeed.
// - high 2000-16000 Hz: hats, cymbals, sibilance and presence, the busy
//   texture that drives the noise amplitude; above 16 kHz lossy files are
//   mostly empty, and 20 Hz is the bottom of hearing.
inline constexpr std::array<BandRange, 3> kNamedBands{{{20, 150}, {150, 2000}, {2000, 16000}}};

// The range every band and the overall level cover.
inline constexpr BandRange kAudibleRange{20, 16000};

// `count` bands with geometrically spaced edges from lowHz to highHz
// (band i spans low*r^i .. low*r^(i+1), r = (high/low)^(1/count)).
std::vector<BandRange> logSpacedBands(std::size_t count, double lowHz = kAudibleRange.lowHz,
                                      double highHz = kAudibleRange.highHz);

// Bands resolved to bins once, then measured on every power spectrum.
// A band holds the bins whose centre frequency lies in [lowHz, highHz); a band
// narrower than one bin takes the bin nearest its geometric centre. Above
// Nyquist (an input device at 8 kHz) there is nothing: a band there holds no
// bin and reads silence, and one that reaches past it has its mean taken
// over its whole width, as a file at that rate resampled to 48 kHz has it.
class BandBins {
public:
    BandBins() = default;
    BandBins(std::span<const BandRange> bands, std::size_t fftSize, double sampleRate);

    std::size_t size() const { return first_.size(); }
    std::size_t firstBin(std::size_t band) const { return first_[band]; }
    std::size_t endBin(std::size_t band) const { return end_[band]; }  // exclusive

    // Mean power of each band's bins in dB (powerToDb), out.size() == size().
    void meanDb(std::span<const float> power, std::span<float> out) const;
    // Summed power of one band's bins (a band power: 1 is a full-scale sine).
    double sumPower(std::span<const float> power, std::size_t band) const;

private:
    std::vector<std::size_t> first_, end_;
    std::vector<double> width_;  // bins the band spans, Nyquist or not: meanDb's divisor
};

}  // namespace mirofish
