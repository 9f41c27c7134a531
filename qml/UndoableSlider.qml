// A 0..1 slider whose drag, or an arrow key held down on it, is one undo step:
// gestureEnded() comes when it is let go.
import QtQuick
import QtQuick.Controls

Slider {
    signal gestureEnded()
    from: 0
    to: 1
    // The arrow keys: a hundredth of the travel a press (Qt steps 0.1 without it).
    stepSize: 0.01
    onPressedChanged: if (!pressed) gestureEnded()
    // A held arrow key releases at every repeat, which ended the undo step:
    // one Ctrl+Z took back a hundredth of a sweep. Only its last release counts.
    Keys.onReleased: event => event.accepted = event.isAutoRepeat
}
