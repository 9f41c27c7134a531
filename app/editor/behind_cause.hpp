#pragma once
// Why the simulation fell behind real time, for the advice the stats panel
// gives: its steps' own cost, which fewer fish or a smaller perception radius
// lowers, or other work keeping its thread from running: the drawing (the
// GUI's thread shares the cores) or other programs (a step of 0.03 ms, 0.2 %
// of its 1/60 s, on a busy machine was told to drop fish).
namespace mirofish::editor {

// The share of real time the steps took, at 60 steps a second.
inline double stepShareOfRealTime(double stepMilliseconds) { return stepMilliseconds * 60.0 / 1000.0; }

// From half of real time spent stepping, the steps are the cost to cut.
inline bool stepsTooSlow(double stepMilliseconds) { return stepShareOfRealTime(stepMilliseconds) >= 0.5; }

}  // namespace mirofish::editor
