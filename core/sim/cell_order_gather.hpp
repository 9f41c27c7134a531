#pragma once
// Copying the fish arrays into cell order (Simulation::reorderByCell): slot
// i of every array of the copy takes fish order[i] of the original.
#include <cstddef>
#include <cstdint>

#include "sim/fish_arrays.hpp"
#include "sim/fish_kernel.hpp"

namespace mirofish {

// Slots [b, e) of every array of `to` (ids too) from `from`, slot i taking
// fish order[i]. With the AVX-512 build, sixteen slots at a time from a window
// of 32 fish around their old places (the same copies, bit for bit: a copy
// is a copy whatever the instructions); any other build copies fish by fish.
void gatherInCellOrder(const FishArrays& from, FishArrays& to, const std::uint32_t* order, std::size_t b,
                       std::size_t e, KernelBuild build);

}  // namespace mirofish
