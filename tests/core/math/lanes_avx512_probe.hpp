#pragma once
// Two of math/lanes.hpp's operations as the kernel's AVX-512 build compiles
// them (a translation unit built for AVX-512, like the kernel's): call
// probeLanesAvx512 only where cpuRuns(KernelBuild::Avx512). The struct holds
// its inputs and outputs; the object defines nothing but that one function
// (a ctest test checks it), so no copy of an inline function compiled for
// AVX-512 can be the one the rest of the program runs.
#include <cstdint>

namespace mirofish::test {

struct LanesProbe {
    float a[16], b[16];         // in
    std::int32_t masks[4][16];  // in: lane masks, 0 or -1
    // Out: belowLimit(a, b), a lane 0 or -1, sixteen lanes at a time and the first eight at a time.
    std::int32_t below16[16], below8[8];
    // Out: countDownWhere with each mask in turn, from 0, sixteen and eight lanes at a time.
    std::int32_t count16[16], count8[8];
};

void probeLanesAvx512(LanesProbe& p);

}  // namespace mirofish::test
