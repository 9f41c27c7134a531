#pragma once
// Takes a DC offset (a cheap recorder's, an 8-bit file's silence written as
// 0x7F, an idle sound card's) out of a block of samples before the spectrum
// sees it: a first-order high-pass, y[n] = x[n] - x[n-1] + r y[n-1].
#include <span>

namespace mirofish {

// r for a cutoff (-3 dB) of cutoffHz: exp(-2 pi cutoffHz / sampleRate).
float dcBlockerPole(double cutoffHz, double sampleRate);

// Filters `in` into `out` (the same size). It starts as if the signal had
// held its first sample forever, so a constant is 0 from the first sample
// on. Non-finite samples count as 0. Whatever the sound before `in` was,
// its effect on out[n] has decayed by r^n: a block that starts a few time
// constants (1 / (2 pi cutoffHz) seconds) before the samples wanted gives
// them as a filter that had run all along would.
void blockDc(std::span<const float> in, std::span<float> out, float pole);

}  // namespace mirofish
