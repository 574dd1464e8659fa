#pragma once
// The SM clock a peak benchmark ran at, read inside its kernel: thread 0 takes SM cycles
// (clock64) and nanoseconds (%globaltimer) at the start of the block's timed work and again once
// every warp of the block has finished it.

namespace tgemm::peak {

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

struct block_clock {
    long long cycles0 = 0;
    unsigned long long ns0 = 0;

    __device__ __forceinline__ void start() {
        if (threadIdx.x == 0) {
            ns0 = global_ns();
            cycles0 = clock64();
        }
    }
    // Writes (cycles, ns) of this block to clocks[2·block], clocks[2·block + 1].
    __device__ __forceinline__ void stop(unsigned long long* clocks) {
        __syncthreads();
        if (threadIdx.x == 0) {
            const long long cycles1 = clock64();
            const unsigned long long ns1 = global_ns();
            clocks[2 * blockIdx.x] = static_cast<unsigned long long>(cycles1 - cycles0);
            clocks[2 * blockIdx.x + 1] = ns1 - ns0;
        }
    }
};

}  // namespace tgemm::peak
