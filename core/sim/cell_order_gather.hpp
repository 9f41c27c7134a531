#pragma once
// Copying the fish arrays into cell order (Simulation::reorderByCell): slot
// i of every array of the copy takes fish order[i] of the original.
#include <cstddef>
#include <cstdint>

#include "sim/fish_arrays.hpp"
#include "sim/fish_kernel.hpp"

namespace mirofish {

// How the copy writes its slots. Cached: as any store, through the caches.
// Streamed: the AVX-512 build's blocks of sixteen slots (whole cache lines)
// go past the caches straight to memory (non-temporal stores), which spares
// reading each line in before it is overwritten; other builds write as
// Cached. Only worth it where the arrays do not stay in cache from one step
// to the next anyway (streamsCellOrderCopy).
enum class CopyWrites { Cached, Streamed };

// Whether the copy includes the alarms. LeftOut where every fish's alarm is
// +0 (Simulation::alarmsClear_): `to`'s alarms are then left as they are, and
// the caller keeps `from`'s, which serve in any order.
enum class Alarms { Copied, LeftOut };

// Slots [b, e) of every array of `to` (ids too; the alarms as `alarms` says)
// from `from`, slot i taking fish order[i]. With the AVX-512 build, sixteen
// slots at a time from a window of 32 fish around their old places (the same
// copies, bit for bit: a copy is a copy whatever the instructions); any other
// build copies fish by fish.
// Streamed writes are ordered before the function returns (a store fence),
// so the thread that waits for this one's part sees them.
void gatherInCellOrder(const FishArrays& from, FishArrays& to, const std::uint32_t* order, std::size_t b,
                       std::size_t e, KernelBuild build, CopyWrites writes = CopyWrites::Cached,
                       Alarms alarms = Alarms::Copied);

// Whether a step's copy of `fish` fish streams its writes: where the two
// copies of the arrays (40 bytes a fish each) take more than 64 MiB, more
// than a desktop CPU's last-level cache holds. Lock-step on the Intel Xeon
// (2026-12-04, constant density, streamed against cached): 1 000 000 fish
// 0.960 of the time on 2 threads and 0.942 on 1, 500 000 fish 1.006;
// below that the arrays stay in cache and streaming them out costs: 200 000
// fish 1.062, 50 000 fish 1.133.
bool streamsCellOrderCopy(std::size_t fish);

}  // namespace mirofish
