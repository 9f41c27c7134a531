#pragma once
// Reading a pointer drag in the view: a click (short, nearly still), the
// drag's velocity, and fast swipes (the articles' installation: a fast
// gesture scares the school). Positions are in view pixels, times in seconds.
#include <optional>

#include "math/vec.hpp"

namespace mirofish {

class PointerGesture {
public:
    // A swipe is a drag faster than this, in view px/s (about a screen width in 0.8 s).
    static constexpr float kSwipeSpeed = 1500.0f;
    // A fast swipe leaves one scare every this many seconds along its path.
    static constexpr double kScareInterval = 0.06;
    // A click moves less than this many px and lasts less than kClickSeconds.
    static constexpr float kClickDistance = 6.0f;
    static constexpr double kClickSeconds = 0.35;

    void begin(Vec2 position, double time);
    // The swipe's unit direction when this move should leave a scare.
    std::optional<Vec2> move(Vec2 position, double time);
    // True when the gesture that ends here was a click.
    bool endIsClick(Vec2 position, double time) const;

    // Smoothed pointer velocity, px/s.
    Vec2 velocity() const { return velocity_; }
    bool active() const { return active_; }
    void cancel() { active_ = false; }

private:
    bool active_ = false;
    Vec2 start_{}, last_{}, velocity_{};
    double startTime_ = 0, lastTime_ = 0, lastScare_ = -1e9;
    float travelled_ = 0;
};

}  // namespace mirofish
