#pragma once
// Kernels that exercise the counter collector itself (tests/collect/collector_test.cpp).
#include <cuda_runtime_api.h>

#include <cstddef>

namespace tgemm::probe {

// Every SM busy for `cycles` clocks, touching no memory.
void spin(long long cycles, int* sink, cudaStream_t s);
// Reads n floats once.
void touch(const float* p, std::size_t n, float* out, cudaStream_t s);
// Writes n floats once, whole sectors.
void store(float* p, std::size_t n, cudaStream_t s);
// How the parts of one 32-byte sector are stored (store_parts): every byte once, in requests
// that each write part of a sector.
enum class part_pattern {
    halves_adjacent,    // 16 B per lane, lanes 32 B apart; the other half by the next store
    halves_apart,       // the same, another sector set's store between the two halves
    quarters_adjacent,  // 4 B per lane, 4 lanes per half sector, 8 sectors per store; next store
                        // the other half of the same 8 sectors
    quarters_apart,     // the same, another 8 sectors' store between the two halves
    eighths_adjacent,   // 4 B per lane, a sector per lane, 8 stores in a row fill it
    eighths_by_warps,   // 4 B per lane, a sector per lane, each eighth by another warp
    // As the rungs' epilogues with beta != 0 do, each stored part read first:
    halves_loaded_first,  // halves_adjacent, both halves of the lane's sectors loaded before
    halves_rmw,           // halves_adjacent, each half loaded just before it is stored
    quarters_apart_rmw,   // quarters_apart, each 4 B loaded just before it is stored
};
// Stores `bytes` (a multiple of 2 KiB) at p in `pattern`; the L1 counts every request's sectors.
// `ctas` × `threads` (a multiple of 32; 256 for eighths_by_warps) share the chunks.
void store_parts(float* p, std::size_t bytes, part_pattern pattern, cudaStream_t s, int ctas = 528,
                 int threads = 256);
// One CTA per SM (`sms` of them), each reading all n floats.
void read_by_every_sm(const float* p, std::size_t n, float* out, int sms, cudaStream_t s);

// `sms` CTAs of 1024 threads with `smem_bytes` of shared memory each, enough to keep them one
// per SM: the CTA that runs on SM `sm` reads all n floats, the others nothing.
void read_on_sm(const float* p, std::size_t n, float* out, int sm, int sms, int smem_bytes,
                cudaStream_t s);
// `sms` CTAs of 1024 threads, one per SM (`smem_bytes` admits no second): the n floats (a multiple
// of 4 × `slices`) in `slices` equal slices, CTA b reading slice b % slices once, so each line is
// read by sms / slices SMs (docs/models/dram-waves.md, "How many SMs read a line").
void read_slices(const float* p, std::size_t n, int slices, float* out, int sms, int smem_bytes,
                 cudaStream_t s);
// read_slices `passes` times in one launch, as a GEMM's waves sweep B: in pass q CTA b reads
// slice (b + q × `rotate`) % slices (0: always its own; coprime to `slices`: a slice's readers,
// and so their L2 partitions, change from pass to pass), then stores `store_floats` (a multiple of
// 4) floats at `fresh` that no other pass or CTA stores (passes × sms × store_floats in all),
// with `read_stored` each read first and written with what was read (as C with β ≠ 0), and
// waits `spin_cycles` of its clock before the next pass.
void sweep_slices(const float* p, std::size_t n, int slices, int passes, int rotate, float* fresh,
                  std::size_t store_floats, bool read_stored, long long spin_cycles, float* out,
                  int sms, int smem_bytes, cudaStream_t s);
// Several SMs reading one buffer at about the same time, for the L2 request coalescer
// (tests/collect/request_coalescer_test.cpp). `sms` CTAs of 1024 threads, one per SM (`smem_bytes`
// admits no second); the CTA on SM s with order[s] = i >= 0 waits until every such CTA has
// arrived (`arrivals`, zero before the launch; `readers` of them), then i × `skew_cycles` of its
// clock, notes when it begins (began[i], %globaltimer ns) and reads all n floats once. The CTAs
// with order[s] < 0 return at once. The waiting uses atomics only, which the coalescer's read
// counters do not see.
void read_in_step(const float* p, std::size_t n, const int* order, int readers,
                  long long skew_cycles, unsigned* arrivals, unsigned long long* began, float* out,
                  int sms, int smem_bytes, cudaStream_t s);
// read_in_step's readers reading in steps of `chunk` floats, each step's loads used before the
// CTA waits `pause_cycles` of its clock and reads the next (a GEMM's K loop, compute between
// the tiles' loads).
void read_in_steps(const float* p, std::size_t n, std::size_t chunk, long long pause_cycles,
                   const int* order, int readers, long long skew_cycles, unsigned* arrivals,
                   unsigned long long* began, float* out, int sms, int smem_bytes, cudaStream_t s);
// read_in_steps' readers on a schedule of the shared %globaltimer: reader i begins step s at
// base + i × `skew_ns` + s × `period_ns` (`base`, zero before the launch, set by reader 0 once all
// have arrived; began[i] gets its start), so two readers' requests for a sector stay `skew_ns`
// apart however fast each is served, as long as a step takes less than the period.
void read_on_schedule(const float* p, std::size_t n, std::size_t chunk, long long period_ns,
                      const int* order, int readers, long long skew_ns, unsigned* arrivals,
                      unsigned long long* base, unsigned long long* began, float* out, int sms,
                      int smem_bytes, cudaStream_t s);
// Reads n floats once with an L2 evict_last policy on every load (createpolicy), the priority
// cuBLAS's own kernels may give their operands: lines so marked are the last a normal access
// evicts, so a plain flush may leave them.
void read_evict_last(const float* p, std::size_t n, float* out, cudaStream_t s);
// Drops every L2 line of [p, p + bytes) without writing it back (discard.global.L2, 128 B a
// line); `bytes` a multiple of 128 and p 128-byte aligned.
void discard_l2(float* p, std::size_t bytes, cudaStream_t s);
// Where a CTA ran: its SM and when it started (%globaltimer, ns).
struct cta_placement {
    int sm = -1;
    unsigned long long start_ns = 0;
};
// CTAs per SM of record_placement's kernel with `threads` threads and `smem_bytes` of dynamic
// shared memory (the limit that sets them).
int placement_ctas_per_sm(int threads, int smem_bytes);
// `ctas` CTAs in one row (blockIdx.x is the launch order), each holding its SM `hold_ns`;
// out[b]: where CTA b ran.
void record_placement(cta_placement* out, int ctas, int threads, int smem_bytes, long long hold_ns,
                      cudaStream_t s);

}  // namespace tgemm::probe
