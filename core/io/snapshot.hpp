#pragma once
// Whole-simulation snapshots: a versioned binary file with a checksum. A
// truncated, corrupted or foreign file is refused with a SnapshotError that
// says what is wrong; a save goes to a temporary file renamed into place, so
// a failed save never leaves a half-written snapshot behind.
#include <filesystem>
#include <stdexcept>
#include <string>

#include "sim/simulation.hpp"

namespace mirofish {

struct SnapshotError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// 2: the per-fish variation draws are no longer stored (variationDraws).
// 3: the simulated time is stored. A version 2 file is still read, its time
// taken as the step times 1/60 s: the sum of the steps' lengths computed
// another way, which can differ from a run's in the last bits.
// 4: the stretch of the grid's rows is stored (sim/row_stretch.hpp). Files
// of versions 2 and 3 were saved by programs whose rows were never
// stretched, and load with square cells.
// 5: the fish's wander directions are no longer stored, the school's wander
// phase is (rules::wanderDirection). Files of versions 2 to 4 load with
// that phase at 0: each fish's wander direction jumps once to where its
// fixed phase puts it, and turns on from there.
// 6: the noise currents' time is stored (it is counted step by step, so that
// a change of their time scale goes on smoothly). Files of versions 2 to 5
// load with it at the simulated time over the saved time scale, as those
// programs computed it.
inline constexpr std::uint32_t kSnapshotVersion = 6;
inline constexpr std::uint32_t kOldestSnapshotVersion = 2;

void saveSnapshot(const Simulation& sim, const std::filesystem::path& file);
// Replaces the simulation's whole state with the file's.
void loadSnapshot(Simulation& sim, const std::filesystem::path& file);

}  // namespace mirofish
