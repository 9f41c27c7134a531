#pragma once
// Band-limited resampling, for a WAV file at another rate than the
// analysis's 48 kHz (the other kinds go through ffmpeg's resampler). Linear
// interpolation, used before, left images of the content above it: from 44.1
// kHz, a 15 kHz tone came back with an 18.9 kHz one 11.5 dB below it, read as
// treble the music does not have. This is a windowed sinc (Kaiser window, 32
// zero crossings each side) whose stopband begins at the lower rate's
// Nyquist frequency; content up to about 83 % of that passes.
#include <functional>
#include <span>
#include <vector>

namespace mirofish {

// `in` at `from` Hz as floor(size * to / from) samples at `to` Hz; output
// sample i lies at input position i * from / to (zeros outside the input).
// `keepGoing`, if set, is called with the fraction done every million output
// samples (an hour of audio takes seconds); false stops the resampling and
// the result is cut short there.
std::vector<float> resample(std::span<const float> in, double from, double to,
                            const std::function<bool(double)>& keepGoing = {});

}  // namespace mirofish
