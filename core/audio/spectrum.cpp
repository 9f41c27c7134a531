#include "audio/spectrum.hpp"

#include <kiss_fftr.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace mirofish {

float powerToDb(double power, float minDb) {
    if (!(power > 0.0)) return minDb;
    return std::max(minDb, static_cast<float>(10.0 * std::log10(power)));
}

struct Spectrum::Fft {
    kiss_fftr_cfg cfg = nullptr;
    std::vector<kiss_fft_cpx> out;
    ~Fft() { kiss_fftr_free(cfg); }
};

Spectrum::Spectrum(std::size_t fftSize, double sampleRate)
    : fftSize_(fftSize), sampleRate_(sampleRate), fft_(std::make_unique<Fft>()) {
    if (fftSize < 16 || fftSize % 2 != 0 || fftSize > (1u << 24))
        throw std::invalid_argument("spectrum: the FFT size must be even and between 16 and 2^24");
    if (!(sampleRate > 0) || !std::isfinite(sampleRate))
        throw std::invalid_argument("spectrum: the sample rate must be positive");
    fft_->cfg = kiss_fftr_alloc(static_cast<int>(fftSize), 0, nullptr, nullptr);
    if (!fft_->cfg) throw std::runtime_error("spectrum: KissFFT could not allocate its plan");
    fft_->out.resize(binCount());

    // Periodic Hann window (the FFT's own period), the usual choice for analysis.
    window_.resize(fftSize);
    double sumSq = 0;
    for (std::size_t i = 0; i < fftSize; ++i) {
        const double s = std::sin(std::numbers::pi * static_cast<double>(i) / static_cast<double>(fftSize));
        window_[i] = static_cast<float>(s * s);
        sumSq += static_cast<double>(window_[i]) * window_[i];
    }
    // Parseval: summed over all N bins, |X|^2 = N * sum (x w)^2, and for a sine of
    // amplitude A, sum (x w)^2 = A^2/2 * sum w^2. Folding the negative frequencies
    // in (x2) and calling a full-scale sine (A = 1, mean square 1/2) 0 dBFS (x2)
    // gives power = 4 |X|^2 / (N sum w^2); DC and Nyquist have no mirror (x2 only).
    const double n = static_cast<double>(fftSize);
    scale_.assign(binCount(), static_cast<float>(4.0 / (n * sumSq)));
    scale_.front() = scale_.back() = static_cast<float>(2.0 / (n * sumSq));
    input_.resize(fftSize);
    power_.assign(binCount(), 0.0f);
}

Spectrum::~Spectrum() = default;
Spectrum::Spectrum(Spectrum&&) noexcept = default;
Spectrum& Spectrum::operator=(Spectrum&&) noexcept = default;

std::span<const float> Spectrum::compute(std::span<const float> block) {
    const std::size_t take = std::min(block.size(), fftSize_);
    const std::size_t pad = fftSize_ - take;
    const float* src = block.data() + (block.size() - take);
    std::fill(input_.begin(), input_.begin() + static_cast<std::ptrdiff_t>(pad), 0.0f);
    for (std::size_t i = 0; i < take; ++i) input_[pad + i] = std::isfinite(src[i]) ? src[i] : 0.0f;
    for (std::size_t i = 0; i < fftSize_; ++i) input_[i] *= window_[i];
    kiss_fftr(fft_->cfg, input_.data(), fft_->out.data());
    for (std::size_t k = 0; k < power_.size(); ++k) {
        const float re = fft_->out[k].r, im = fft_->out[k].i;
        power_[k] = scale_[k] * (re * re + im * im);
    }
    return power_;
}

}  // namespace mirofish
