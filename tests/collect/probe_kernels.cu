#include "probe_kernels.hpp"

namespace tgemm::probe {

namespace {

__global__ void spin_kernel(long long cycles, int* sink) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (threadIdx.x == 12345) *sink = 1;
}

__global__ void touch_kernel(const float* p, std::size_t n, float* out) {
    float acc = 0;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += p[i];
    if (acc == 1.2345e-30f) *out = acc;
}

// Each thread writes its floats once: whole 32-byte sectors, each written by one SM.
__global__ void store_kernel(float* p, std::size_t n) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = 1.0f;
}

// Every CTA reads all n floats: each line is read by SMs on both L2 partitions.
__global__ void read_all_kernel(const float* p, std::size_t n, float* out) {
    float acc = 0;
    for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) acc += p[i];
    if (acc == 1.2345e-30f) *out = acc;
}

__global__ void read_evict_last_kernel(const float4* p, std::size_t n, float* out) {
    unsigned long long policy;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    float acc = 0;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        float a, b, c, d;
        asm volatile("ld.global.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
                     : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
                     : "l"(p + i), "l"(policy)
                     : "memory");
        acc += a + b + c + d;
    }
    if (acc == 1.2345e-30f) *out = acc;
}

__global__ void discard_kernel(char* p, std::size_t lines) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < lines;
         i += gridDim.x * blockDim.x)
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(p + i * 128) : "memory");
}

__device__ __forceinline__ void st4(float* p) {
    asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(1.0f) : "memory");
}
__device__ __forceinline__ void st16(float* p, float v = 1.0f) {
    asm volatile("st.global.v4.f32 [%0], {%1, %1, %1, %1};" ::"l"(p), "f"(v) : "memory");
}
__device__ __forceinline__ float ld4(const float* p) {
    float v;
    asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ float ld16(const float* p) {
    float a, b, c, d;
    asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
                 : "l"(p)
                 : "memory");
    return a + b + c + d;
}
__device__ __forceinline__ void st4v(float* p, float v) {
    asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

// Each warp takes 2 KiB chunks (64 sectors, 512 floats) in turn; within a chunk the pattern
// decides which request writes which part of which sector. The volatile stores keep their order.
__global__ void store_parts_kernel(float* p, std::size_t chunks, part_pattern pattern) {
    const int lane = threadIdx.x % 32;
    const std::size_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const std::size_t warps = gridDim.x * blockDim.x / 32;
    for (std::size_t c = warp; c < chunks; c += warps) {
        float* q = p + c * 512;
        switch (pattern) {
            case part_pattern::halves_adjacent:  // sectors 0-31, then 32-63
                for (int g = 0; g < 2; ++g) {
                    st16(q + 256 * g + 8 * lane);
                    st16(q + 256 * g + 8 * lane + 4);
                }
                break;
            case part_pattern::halves_apart:
                for (int h = 0; h < 2; ++h)
                    for (int g = 0; g < 2; ++g) st16(q + 256 * g + 8 * lane + 4 * h);
                break;
            case part_pattern::quarters_adjacent:  // 8 groups of 8 sectors
                for (int g = 0; g < 8; ++g)
                    for (int h = 0; h < 2; ++h) st4(q + 64 * g + 8 * (lane / 4) + 4 * h + lane % 4);
                break;
            case part_pattern::quarters_apart:
                for (int g = 0; g < 8; g += 2)
                    for (int h = 0; h < 2; ++h)
                        for (int k = 0; k < 2; ++k)
                            st4(q + 64 * (g + k) + 8 * (lane / 4) + 4 * h + lane % 4);
                break;
            case part_pattern::eighths_adjacent:
                for (int g = 0; g < 2; ++g)
                    for (int e = 0; e < 8; ++e) st4(q + 256 * g + 8 * lane + e);
                break;
            case part_pattern::eighths_by_warps:
                break;  // below: the CTA's warps share chunks
            case part_pattern::halves_loaded_first:
                for (int g = 0; g < 2; ++g) {
                    const float v0 = ld16(q + 256 * g + 8 * lane);
                    const float v1 = ld16(q + 256 * g + 8 * lane + 4);
                    st16(q + 256 * g + 8 * lane, v0 + 1.0f);
                    st16(q + 256 * g + 8 * lane + 4, v1 + 1.0f);
                }
                break;
            case part_pattern::halves_rmw:
                for (int g = 0; g < 2; ++g)
                    for (int h = 0; h < 2; ++h) {
                        float* r = q + 256 * g + 8 * lane + 4 * h;
                        st16(r, ld16(r) + 1.0f);
                    }
                break;
            case part_pattern::quarters_apart_rmw:
                for (int g = 0; g < 8; g += 2)
                    for (int h = 0; h < 2; ++h)
                        for (int k = 0; k < 2; ++k) {
                            float* r = q + 64 * (g + k) + 8 * (lane / 4) + 4 * h + lane % 4;
                            st4v(r, ld4(r) + 1.0f);
                        }
                break;
        }
    }
    if (pattern != part_pattern::eighths_by_warps) return;
    // Eight warps per CTA; CTA b takes chunks b, b + grid, ...; warp w writes eighth w of each
    // sector of the chunk.
    const int w = threadIdx.x / 32;
    for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x)
        for (int g = 0; g < 2; ++g) st4(p + c * 512 + 256 * g + 8 * lane + w);
}

// Each CTA records the SM it runs on and when it starts, then holds its SM for `hold_ns`, so
// that a launch of two waves separates them in time.
__global__ void placement_kernel(cta_placement* out, long long hold_ns) {
    extern __shared__ char reserved[];
    unsigned long long t0 = 0, t = 0;
    unsigned smid = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    if (threadIdx.x == 0) reserved[0] = 1;
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (static_cast<long long>(t - t0) < hold_ns);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = {static_cast<int>(smid), t0};
}

// The readers' release (read_in_step): the CTA on an SM with order[sm] = i >= 0 waits until
// `readers` CTAs have arrived, then i × `skew_cycles`, and notes when it begins; returns i, or -1
// for a CTA that reads nothing (the same for all its threads).
__device__ int released_reader(const int* order, int readers, long long skew_cycles,
                               unsigned* arrivals, unsigned long long* began) {
    extern __shared__ char reserved[];
    unsigned smid = 0;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    const int i = order[smid];
    if (i < 0) return -1;
    if (threadIdx.x == 0) {
        reserved[0] = 1;
        atomicAdd(arrivals, 1u);
        while (atomicAdd(arrivals, 0u) < static_cast<unsigned>(readers)) {
        }
        const long long t0 = clock64();
        while (clock64() - t0 < i * skew_cycles) {
        }
        unsigned long long t = 0;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        began[i] = t;
    }
    __syncthreads();
    return i;
}

__global__ void read_in_step_kernel(const float* p, std::size_t n, const int* order, int readers,
                                    long long skew_cycles, unsigned* arrivals,
                                    unsigned long long* began, float* out) {
    if (released_reader(order, readers, skew_cycles, arrivals, began) < 0) return;
    float acc = 0;
    for (std::size_t j = threadIdx.x; j < n; j += blockDim.x) acc += p[j];
    if (acc == 1.2345e-30f) *out = acc;
}

// read_in_step_kernel's readers, reading in steps: `chunk` floats at a time, every thread's loads
// of a step used before the CTA waits `pause` clocks and goes on to the next, as a GEMM's CTA loads
// a K step's tile, computes, and loads the next.
__global__ void read_in_steps_kernel(const float* p, std::size_t n, std::size_t chunk,
                                     long long pause, const int* order, int readers,
                                     long long skew_cycles, unsigned* arrivals,
                                     unsigned long long* began, float* out) {
    if (released_reader(order, readers, skew_cycles, arrivals, began) < 0) return;
    float acc = 0;
    for (std::size_t c = 0; c < n; c += chunk) {
        const std::size_t end = c + chunk < n ? c + chunk : n;
        for (std::size_t j = c + threadIdx.x; j < end; j += blockDim.x) acc += p[j];
        __syncthreads();
        const long long t0 = clock64();
        while (clock64() - t0 < pause) {
        }
    }
    if (acc == 1.2345e-30f) *out = acc;
}

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// read_in_steps' readers held to a schedule on %globaltimer, the clock every SM shares: reader i
// begins step s of `chunk` floats at base + i × skew + s × period, where reader 0 sets base 5 us
// ahead once all have arrived. A reader served early cannot run ahead into the next step, so the
// offset between two readers' requests for a sector stays the skew (to the timer's 32 ns).
__global__ void read_on_schedule_kernel(const float* p, std::size_t n, std::size_t chunk,
                                        long long period_ns, const int* order, int readers,
                                        long long skew_ns, unsigned* arrivals,
                                        unsigned long long* base, unsigned long long* began,
                                        float* out) {
    const int i = released_reader(order, readers, 0, arrivals, began);
    if (i < 0) return;
    __shared__ unsigned long long start;
    if (threadIdx.x == 0) {
        if (i == 0) atomicExch(base, global_ns() + 5000);
        unsigned long long b = 0;
        while ((b = atomicAdd(base, 0ull)) == 0) {
        }
        start = b + static_cast<unsigned long long>(i * skew_ns);
        began[i] = start;
    }
    __syncthreads();
    float acc = 0;
    unsigned long long step = 0;
    for (std::size_t c = 0; c < n; c += chunk, ++step) {
        if (threadIdx.x == 0)
            while (global_ns() < start + step * static_cast<unsigned long long>(period_ns)) {
            }
        __syncthreads();
        const std::size_t end = c + chunk < n ? c + chunk : n;
        for (std::size_t j = c + threadIdx.x; j < end; j += blockDim.x) acc += p[j];
    }
    if (acc == 1.2345e-30f) *out = acc;
}

// One CTA per SM (the shared memory it asks for admits no second); the one on SM `sm` reads all
// n floats, the others return at once.
__global__ void read_on_sm_kernel(const float* p, std::size_t n, float* out, int sm) {
    extern __shared__ char reserved[];
    unsigned smid = 0;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    if (static_cast<int>(smid) != sm) return;
    if (threadIdx.x == 0) reserved[0] = 1;
    float acc = 0;
    for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) acc += p[i];
    if (acc == 1.2345e-30f) *out = acc;
}

// Pass q: CTA b reads slice (b + q × rotate) % slices, stores `store4` float4 of its own that no
// pass stores again (fresh lines, as a GEMM's C tiles are), then waits `spin` clocks.
__global__ void sweep_slices_kernel(const float4* p, std::size_t n4, int slices, int passes,
                                    int rotate, float4* fresh, std::size_t store4, bool read_stored,
                                    long long spin, float* out) {
    extern __shared__ char reserved[];
    if (threadIdx.x == 0) reserved[0] = 1;
    const std::size_t len = n4 / static_cast<std::size_t>(slices);
    float acc = 0;
    for (int q = 0; q < passes; ++q) {
        const int slice = static_cast<int>((blockIdx.x + std::size_t(q) * rotate) % slices);
        const float4* s = p + static_cast<std::size_t>(slice) * len;
        for (std::size_t i = threadIdx.x; i < len; i += blockDim.x) {
            const float4 v = s[i];
            acc += v.x + v.y + v.z + v.w;
        }
        float4* w = fresh + (std::size_t(q) * gridDim.x + blockIdx.x) * store4;
        if (read_stored) {
            // As C with beta != 0: each line read, then written (an update of what was read).
            for (std::size_t i = threadIdx.x; i < store4; i += blockDim.x) {
                const float4 c = w[i];
                w[i] = make_float4(c.x + acc, c.y + acc, c.z + acc, c.w + acc);
            }
        } else {
            for (std::size_t i = threadIdx.x; i < store4; i += blockDim.x)
                w[i] = make_float4(acc, acc, acc, acc);
        }
        const long long t0 = clock64();
        while (clock64() - t0 < spin) {
        }
    }
    if (acc == 1.2345e-30f) *out = acc;
}

// One CTA per SM (the shared memory it asks for admits no second); CTA b reads slice b % slices
// of the n floats (each slice n / slices of them, 16-byte loads), so each line is read by
// gridDim.x / slices CTAs, far apart in launch order.
__global__ void read_slices_kernel(const float4* p, std::size_t n4, int slices, float* out) {
    extern __shared__ char reserved[];
    if (threadIdx.x == 0) reserved[0] = 1;
    const std::size_t len = n4 / static_cast<std::size_t>(slices);
    const float4* q = p + static_cast<std::size_t>(blockIdx.x % slices) * len;
    float acc = 0;
    for (std::size_t i = threadIdx.x; i < len; i += blockDim.x) {
        const float4 v = q[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == 1.2345e-30f) *out = acc;
}

}  // namespace

void read_on_sm(const float* p, std::size_t n, float* out, int sm, int sms, int smem_bytes,
                cudaStream_t s) {
    cudaFuncSetAttribute(read_on_sm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         smem_bytes);
    read_on_sm_kernel<<<sms, 1024, smem_bytes, s>>>(p, n, out, sm);
}

void read_slices(const float* p, std::size_t n, int slices, float* out, int sms, int smem_bytes,
                 cudaStream_t s) {
    cudaFuncSetAttribute(read_slices_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         smem_bytes);
    read_slices_kernel<<<sms, 1024, smem_bytes, s>>>(reinterpret_cast<const float4*>(p), n / 4,
                                                     slices, out);
}

void read_in_step(const float* p, std::size_t n, const int* order, int readers,
                  long long skew_cycles, unsigned* arrivals, unsigned long long* began, float* out,
                  int sms, int smem_bytes, cudaStream_t s) {
    cudaFuncSetAttribute(read_in_step_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         smem_bytes);
    read_in_step_kernel<<<sms, 1024, smem_bytes, s>>>(p, n, order, readers, skew_cycles, arrivals,
                                                      began, out);
}

void sweep_slices(const float* p, std::size_t n, int slices, int passes, int rotate, float* fresh,
                  std::size_t store_floats, bool read_stored, long long spin_cycles, float* out,
                  int sms, int smem_bytes, cudaStream_t s) {
    cudaFuncSetAttribute(sweep_slices_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         smem_bytes);
    sweep_slices_kernel<<<sms, 1024, smem_bytes, s>>>(
        reinterpret_cast<const float4*>(p), n / 4, slices, passes, rotate,
        reinterpret_cast<float4*>(fresh), store_floats / 4, read_stored, spin_cycles, out);
}

void read_in_steps(const float* p, std::size_t n, std::size_t chunk, long long pause_cycles,
                   const int* order, int readers, long long skew_cycles, unsigned* arrivals,
                   unsigned long long* began, float* out, int sms, int smem_bytes, cudaStream_t s) {
    cudaFuncSetAttribute(read_in_steps_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         smem_bytes);
    read_in_steps_kernel<<<sms, 1024, smem_bytes, s>>>(p, n, chunk, pause_cycles, order, readers,
                                                       skew_cycles, arrivals, began, out);
}

void read_on_schedule(const float* p, std::size_t n, std::size_t chunk, long long period_ns,
                      const int* order, int readers, long long skew_ns, unsigned* arrivals,
                      unsigned long long* base, unsigned long long* began, float* out, int sms,
                      int smem_bytes, cudaStream_t s) {
    cudaFuncSetAttribute(read_on_schedule_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         smem_bytes);
    read_on_schedule_kernel<<<sms, 1024, smem_bytes, s>>>(p, n, chunk, period_ns, order, readers,
                                                          skew_ns, arrivals, base, began, out);
}

int placement_ctas_per_sm(int threads, int smem_bytes) {
    cudaFuncSetAttribute(placement_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
    int ctas = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, placement_kernel, threads, smem_bytes);
    return ctas;
}
void record_placement(cta_placement* out, int ctas, int threads, int smem_bytes, long long hold_ns,
                      cudaStream_t s) {
    cudaFuncSetAttribute(placement_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
    placement_kernel<<<ctas, threads, smem_bytes, s>>>(out, hold_ns);
}

void store_parts(float* p, std::size_t bytes, part_pattern pattern, cudaStream_t s, int ctas,
                 int threads) {
    store_parts_kernel<<<ctas, threads, 0, s>>>(p, bytes / 2048, pattern);
}
void store(float* p, std::size_t n, cudaStream_t s) {
    store_kernel<<<1024, 256, 0, s>>>(p, n);
}
void read_by_every_sm(const float* p, std::size_t n, float* out, int sms, cudaStream_t s) {
    read_all_kernel<<<sms, 1024, 0, s>>>(p, n, out);
}
void spin(long long cycles, int* sink, cudaStream_t s) {
    spin_kernel<<<132, 32, 0, s>>>(cycles, sink);
}
void touch(const float* p, std::size_t n, float* out, cudaStream_t s) {
    touch_kernel<<<1024, 256, 0, s>>>(p, n, out);
}
void read_evict_last(const float* p, std::size_t n, float* out, cudaStream_t s) {
    read_evict_last_kernel<<<1024, 256, 0, s>>>(reinterpret_cast<const float4*>(p), n / 4, out);
}
void discard_l2(float* p, std::size_t bytes, cudaStream_t s) {
    discard_kernel<<<1024, 256, 0, s>>>(reinterpret_cast<char*>(p), bytes / 128);
}

}  // namespace tgemm::probe
