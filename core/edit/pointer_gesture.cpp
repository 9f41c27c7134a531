#include "edit/pointer_gesture.hpp"

#include <algorithm>

namespace mirofish {

void PointerGesture::begin(Vec2 position, double time) {
    active_ = true;
    start_ = last_ = position;
    velocity_ = {};
    startTime_ = lastTime_ = time;
    lastScare_ = -1e9;
    travelled_ = 0;
}

std::optional<Vec2> PointerGesture::move(Vec2 position, double time) {
    if (!active_) return std::nullopt;
    const double dt = time - lastTime_;
    const Vec2 delta = position - last_;
    travelled_ += length(delta);
    last_ = position;
    lastTime_ = time;
    if (dt <= 0.0) return std::nullopt;
    // Exponential smoothing with a 30 ms time constant: pointer events arrive
    // irregularly, and one jittery pair of samples must not count as a swipe.
    const float instant = 1.0f / static_cast<float>(dt);
    const float a = static_cast<float>(std::min(dt / 0.03, 1.0));
    velocity_ = velocity_ * (1.0f - a) + delta * (instant * a);
    const float speed = length(velocity_);
    if (speed < kSwipeSpeed || time - lastScare_ < kScareInterval) return std::nullopt;
    lastScare_ = time;
    return velocity_ * (1.0f / speed);
}

bool PointerGesture::endIsClick(Vec2 position, double time) const {
    return active_ && travelled_ + length(position - last_) < kClickDistance && time - startTime_ < kClickSeconds;
}

}  // namespace mirofish
