// Naive GEMM with the thread mapping of lecture 004 v1 as written: consecutive threads of a
// warp take consecutive rows of C, so a warp's loads of A are 32 rows apart (uncoalesced)
// and its load of B is one word for all 32 threads (broadcast).
#include "can_run.hpp"
#include "common.cuh"
#include "dram_writes.hpp"
#include "l2_requests.hpp"
#include "model/textbook.hpp"
#include "rung.hpp"
#include "wave_dram.hpp"

namespace tgemm {
namespace {

constexpr int block = 32;
// One output per thread, K walked an element at a time; ptxas (nvcc 13.0, sm_90a) allocates 32
// registers.
constexpr kernels::launch_info info{.tile_m = block,
                                    .tile_n = block,
                                    .tile_k = 1,
                                    .threads = block * block,
                                    .registers = 32,
                                    .grid_x_down_m = true};

__global__ void naive_uncoalesced_kernel(int m, int n, int k, float alpha, const float* a,
                                         const float* b, float beta, float* c) {
    const int row = blockIdx.x * block + threadIdx.x;  // varies fastest across the warp
    const int col = blockIdx.y * block + threadIdx.y;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int i = 0; i < k; ++i)
        acc += a[static_cast<long>(row) * k + i] * b[static_cast<long>(i) * n + col];
    const long idx = static_cast<long>(row) * n + col;
    c[idx] = alpha * acc + beta * c[idx];
}

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.m, block)),
                    static_cast<unsigned>(model::ceil_div(g.size.n, block)));
    naive_uncoalesced_kernel<<<grid, dim3(block, block), 0, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

rung_model model_fn(const shape& s, const model_context& mc) {
    rung_model m;
    m.textbook.flops = model::seed_flops(s);
    m.textbook.global_bytes = textbook::naive_bytes(s);
    m.textbook.formula = "(2MNK + 2MN)·4 B: 2K loads per output, plus C read and written";
    m.textbook.loads_per_output = 2.0 * s.k;
    auto& r = m.refined;
    r.flops = model::executed_flops(s, s.k);
    // A warp is 32 rows × 1 column (rows beyond M idle). Per k step: A touches one sector per
    // active row; B is one word, one sector, for the whole warp.
    const double warps_full = double(s.m / block) * s.n;
    const double rem_rows = double(s.m % block);
    const double a_sectors = (warps_full * block + (rem_rows > 0 ? rem_rows * s.n : 0)) * s.k;
    const double warps = double(model::ceil_div(s.m, block)) * s.n;
    const double b_sectors = warps * s.k;
    // C: each active thread reads and writes its own word, a sector each.
    const double c_sectors = double(s.m) * s.n;
    r.l1_global_load_bytes = sector_bytes * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = sector_bytes * c_sectors;
    r.smem_load_wavefronts = 0;
    r.smem_store_wavefronts = 0;
    // DRAM: a block reads a 32-row strip of A (32·K·4 B) and a 32-column strip of B. The
    // blocks in flight sweep down M first, so they share B strips; A re-reads from DRAM when
    // all of A (plus one B strip) does not fit in L2.
    const double a_bytes = 4.0 * s.m * s.k;
    const double col_tiles = double(model::ceil_div(s.n, block));
    double a_reads = a_bytes;
    if (a_bytes > 0.5 * mc.l2_bytes) a_reads = a_bytes * col_tiles;
    r.dram_read_bytes = a_reads + 4.0 * s.k * s.n + 4.0 * s.m * s.n;
    // The step above sits where the L2's measured edge is (lines every SM reads start to leave
    // at 0.9 × the half, all are gone by 1.25 ×): A within it is partly kept between columns of
    // tiles, so the reads lie between A once and A once per column (measured: 2216×1112×3336,
    // A 1.13 × the H100's half, 0.94 × the H200's, read 7.1 and 2.9 times).
    const double half = 0.5 * double(mc.l2_bytes);
    if (col_tiles > 1 && a_bytes > kernels::l2_edge_start * half &&
        a_bytes < kernels::l2_edge_end * half) {
        const double rest = 4.0 * s.k * s.n + 4.0 * s.m * s.n;
        r.set_band(keys::dram_read_bytes,
                   {a_bytes + rest, a_bytes * col_tiles + rest,
                    "A lies within the L2's measured edge (0.9 to 1.25 × half the L2): how much of "
                    "it the L2 keeps from one column of tiles to the next is not derived"});
        r.notes.push_back(
            "DRAM read band: A within the L2's edge, read between once and once per 32-column "
            "strip of C");
    }
    r.dram_write_bytes = model::dram_write_bytes(s, mc);
    model::add_dram_write_notes(r);
    kernels::add_dram_write_band(r, s, 4, mc.l2_bytes);
    // What L1 forwards to L2: each CTA's 32-row strip of A, 32-column strip of B and 32 × 32 tile
    // of C, once (kernels/l2_requests.hpp); the transposed thread order changes the requests, not
    // which sectors a CTA touches.
    kernels::set_l2_requests(r, s, 4, block, block, resident_ctas_per_sm(mc.limits, info.cta()),
                             mc.sm_count, kernels::sm_sharing::not_in_step);
    r.notes.push_back(
        "L1: A is 32 sectors per warp request (rows are K·4 B apart), B one "
        "broadcast sector: 33·32 B per warp per k");
    r.notes.push_back(
        "DRAM: A + B + C once when A fits in half the L2, else A once per "
        "32-column strip of C");
    return m;
}

rung make() {
    return {.id = "naive_uncoalesced",
            .display_name = "Naive, uncoalesced (threads along M)",
            .order = 10,
            .seed = "lecture 004 v1 as written (seed 004)",
            .params = "32×32 threads, one output each, threadIdx.x → row",
            .kernel_symbol = "naive_uncoalesced_kernel",
            .config = kernels::with_kernel(info, naive_uncoalesced_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::runs_any_shape()};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
