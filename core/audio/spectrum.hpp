#pragma once
// The power spectrum of one block of mono audio: a Hann window and a real FFT
// (KissFFT). The power is scaled so that a full-scale sine's bins sum to 1,
// i.e. 0 dBFS: sums of bins are band powers in dBFS, means are densities.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace mirofish {

// 10*log10(power), never below minDb (so silence is a finite number).
float powerToDb(double power, float minDb = -120.0f);

class Spectrum {
public:
    // fftSize: even, at least 16 (KissFFT's real transform needs an even size;
    // powers of two are fastest). Throws std::invalid_argument otherwise.
    explicit Spectrum(std::size_t fftSize = 2048, double sampleRate = 48000);
    ~Spectrum();
    Spectrum(Spectrum&&) noexcept;
    Spectrum& operator=(Spectrum&&) noexcept;

    std::size_t fftSize() const { return fftSize_; }
    std::size_t binCount() const { return fftSize_ / 2 + 1; }  // DC .. Nyquist
    double sampleRate() const { return sampleRate_; }
    double binHz() const { return sampleRate_ / static_cast<double>(fftSize_); }
    double binFrequency(std::size_t bin) const { return static_cast<double>(bin) * binHz(); }

    // Windows the newest fftSize samples of `block` (the last one is "now";
    // non-finite samples count as 0) and returns the power per bin,
    // binCount() values, valid until the next call. A shorter block follows
    // silence: zeros in front.
    std::span<const float> compute(std::span<const float> block);
    std::span<const float> power() const { return power_; }

private:
    struct Fft;
    std::size_t fftSize_;
    double sampleRate_;
    std::unique_ptr<Fft> fft_;
    std::vector<float> window_;   // Hann
    std::vector<float> input_;    // windowed block
    std::vector<float> scale_;    // per bin: power = scale * |X|^2
    std::vector<float> power_;
};

}  // namespace mirofish
