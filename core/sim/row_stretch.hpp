#pragma once
// How much taller than wide the grid's cells are made (UniformGrid::configure).
//
// The kernel scans sixteen consecutive fish of the sorted arrays together,
// against the candidates within reach of the box around them
// (sim/reach_cull.hpp). The fish are sorted row by row of cells, so where a
// cell holds a few fish, sixteen of them fill several cells of one row: a
// box wide and low, and the reach (a cell) added all around it makes that
// costly. Rows taller than the cells are wide make the box squarer. In a
// school of n fish per cell-width square, sixteen fish in rows K cells
// tall cover about 16 / (n K) + 1 cells of a row, so the area within reach
// is about (16 / (n K) + 3)(K + 2) squares, least at K = sqrt(32 / (3 n)).
// At the bench's constant density (4.7 fish a cell) that is 1.5; the
// candidates a fish fell from 68.5 to 65.0, and lock-step on the Intel Xeon
// (2026-12-05, against square cells, 10 steps to settle first) took 0.981 of
// the time at 50 000 fish on 1 thread, 0.960 on 2, and 0.949 at 1 000 000
// fish on 2 (fewer cells to sort, too); article 000's dense school keeps
// square cells (0.996). The AVX2 build scans eight fish together, for which
// square cells are best: rows 1.5 tall took it 1.005 and 1.009 of the time;
// every build lays the cells out alike, so that they all give the same
// results.
//
// Where the cells are crowded (sorted by subcolumn), a group of sixteen
// already fills a narrow strip of a cell, and taller rows would only make
// it taller: the rows stay square there. The stretch never makes an even
// spread of the fish crowd the cells either (UniformGrid::kCrowdedCell),
// which would turn the subcolumns on and the stretch off in turn.
//
// The stretch decides the order of the sums, and so their last bits: it
// depends only on the fish (the counts of the grid a step built), it is part
// of the simulation's saved state, and it changes only when the new one
// would cut the area within reach by more than kRowStretchGain, so a school
// whose density wavers around a boundary does not make every step re-sort
// every fish.
#include <cstddef>

#include "sim/grid.hpp"

namespace mirofish {

inline constexpr float kMaxRowStretch = 2.5f;
// Stretches are multiples of this, so that a saved one is exact.
inline constexpr float kRowStretchStep = 0.125f;
inline constexpr double kRowStretchGain = 0.03;

// The stretch for the next step's grid, given the grid this step built for
// `fish` fish (its layout and how many fish share a cell) and the stretch it
// was built with.
float nextRowStretch(const UniformGrid& grid, std::size_t fish, float current);

// Whether a saved stretch is one this program would choose.
bool validRowStretch(float stretch);

}  // namespace mirofish
