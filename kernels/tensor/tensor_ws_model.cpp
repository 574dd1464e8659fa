// Refined model of the warp-specialized persistent kernel (bf16_ws.cuh): rungs 16 bf16_ws and
// 17 bf16_cluster and the tuning sweep's controls. It walks the kernel's own schedule
// (tensor::ws_schedule, tensor::tile_at) unit by unit, CTA by CTA, and counts what each unit
// issues: wgmma, TMA boxes (multicast ones at every receiving SM), the epilogue and the stream-K
// partial sums. docs/models/13_17_tensor.md derives each count by hand.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "gpu/occupancy.hpp"
#include "tensor/accumulator_requests.hpp"
#include "tensor/tensor_launches.hpp"
#include "tensor/tensor_model_common.hpp"
#include "tensor/tensor_models.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/tensor_traffic.hpp"
#include "tensor/ws_schedule.hpp"

namespace tgemm::kernels::tensor_model {

namespace {

// The persistent grid's clusters resident at once: every SM's CTAs (one: the launch bounds and
// the shared memory allow no second) in clusters of cluster_m. cudaOccupancyMaxActiveClusters
// gives the same on the H100: 132 clusters of 1, 66 of 2.
template <class Cfg>
int resident_clusters(const model_context& mc) {
    const int per_sm = resident_ctas_per_sm(mc.limits, tensor_rungs::ws_launch_of<Cfg>().cta());
    return mc.sm_count * per_sm / Cfg::cluster_m;
}

// ldmatrix (reading β·C) and stmatrix (writing the result) wavefronts of one CTA's TMA epilogue
// of one tile, through the kernel's own layout of the C buffer.
template <class Cfg>
double epilogue_matrix_wavefronts() {
    double w = 0;
    for (int consumer = 0; consumer < Cfg::consumers; ++consumer) {
        const auto part = static_cast<std::uint32_t>(consumer * Cfg::b_boxes * Cfg::c_box_bytes);
        for (int warp = 0; warp < 4; ++warp)
            for (int j = 0; j < Cfg::bn / 8; j += 2) {
                lane_addresses a{};
                for (int l = 0; l < 32; ++l)
                    a[l] = bf16_ws::c_unit_addr<Cfg>(part, bf16_ws::epilogue_row(warp, l),
                                                     j + bf16_ws::epilogue_unit_step(l));
                w += matrix_x4_wavefronts(a);
            }
    }
    return w;
}

// The direct epilogue's reads (and writes) of C from the registers of one CTA tile: per consumer,
// warp and group of four n8 blocks (accumulator_requests.hpp).
template <class Cfg>
c_sectors direct_c_sectors(const shape& s, std::int64_t m0, std::int64_t n0) {
    accumulator_requests req(s);
    for (int consumer = 0; consumer < Cfg::consumers; ++consumer)
        for (int warp = 0; warp < 4; ++warp)
            for (int j = 0; j < Cfg::bn / 8; j += tensor::acc_group_blocks)
                req.add_group(m0 + 64 * consumer + warp * 16, n0 + 8 * j);
    return req.totals();
}

template <class Cfg>
tensor_counts model_ws(const shape& s, const model_context& mc) {
    tensor_counts r;
    const int bm = Cfg::bm, bn = Cfg::bn, cm = Cfg::cluster_m;
    const bool tma_epi = Cfg::epi == bf16_ws::epilogue::tma;

    // Textbook: B is reused by every CTA of a cluster when multicast, so the tile that reuses B
    // is cluster_m·BM tall; a consumer warpgroup's wgmma tile is 64×BN.
    const int b_reuse = Cfg::multicast ? bm * cm : bm;
    r.textbook = textbook(s, b_reuse, bn, 64, bn,
                          "wgmma m64n" + std::to_string(bn) + ": B re-read per m64 block");

    const std::int64_t tiles_m = ceil_div(s.m, std::int64_t(bm) * cm);
    const std::int64_t tiles_n = ceil_div(s.n, bn);
    const std::int64_t kt = ceil_div(s.k, Cfg::bk);
    const int tiles = static_cast<int>(tiles_m * tiles_n);
    const int resident = resident_clusters<Cfg>(mc);
    const int clusters =
        tensor::grid_clusters(resident, tiles, static_cast<int>(kt), Cfg::stream_k);
    const auto sched =
        tensor::ws_schedule::make(clusters, tiles, static_cast<int>(kt), Cfg::stream_k);

    // Per CTA and k-tile: 4 k16 steps of one m64nBNk16 wgmma per consumer.
    const double flops_per_kt = 2.0 * bm * bn * Cfg::bk;
    const double gmma_per_kt = Cfg::consumers * (Cfg::bk / 16) * (64 * 16 + 16 * bn) * double(bf16);
    const double matrix_per_tile = tma_epi ? epilogue_matrix_wavefronts<Cfg>() : 0;

    tma_matrix a(s.m, s.k), b(s.k, s.n), c(s.m, s.n);
    tma_traffic self, multicast, c_tma;
    double flops = 0, gmma = 0, ffma = 0, fadd = 0, matrix = 0;
    double l1_load_sectors = 0, l1_store_sectors = 0, l2_lsu_sectors = 0;
    double distinct_store_sectors = 0;  // of the LSU stores: what L2 sees if L1 merged them all
    double partial_sums_bytes = 0;      // stream-K sums left in the workspace
    std::map<key3, c_sectors> c_memo;
    std::vector<wave> waves;
    constexpr int boxes_per_loader = Cfg::b_boxes / Cfg::b_loaders;
    const double partial_bytes = double(bm) * bn * 4;  // FP32 sums of one CTA tile

    for (int cl = 0; cl < clusters; ++cl)
        for (int i = 0; i < sched.units(cl); ++i) {
            const tensor::work_unit u = sched.unit(cl, i);
            const tensor::tile_coord t =
                tensor::tile_at(Cfg::order, Cfg::group_m, static_cast<int>(tiles_m),
                                static_cast<int>(tiles_n), u.tile);
            const std::int64_t nk = u.k_end - u.k_begin;
            const bool with_last = u.k_end == kt;  // the last k-tile may be partly outside K
            const std::int64_t inner = nk - (with_last ? 1 : 0);
            const std::int64_t last_k = (kt - 1) * Cfg::bk;
            const auto wave_index = static_cast<std::size_t>(std::min(i, sched.dp_count(cl)));
            if (waves.size() <= wave_index) waves.resize(wave_index + 1);
            for (int rank = 0; rank < cm; ++rank) {
                const std::int64_t m0 = (std::int64_t(t.tm) * cm + rank) * bm;
                const std::int64_t n0 = std::int64_t(t.tn) * bn;
                waves[wave_index].push_back({m0 / bm, t.tn});
                flops += double(nk) * flops_per_kt;
                gmma += double(nk) * gmma_per_kt;
                // TMA: inner k-tiles all look like k-tile 0; the last one on its own.
                self += inner * a.box(m0, 0, bm, 64);
                if (with_last) self += a.box(m0, last_k, bm, 64);
                const int loader = Cfg::multicast ? rank : 0;
                for (int j = loader * boxes_per_loader; j < (loader + 1) * boxes_per_loader; ++j) {
                    tma_traffic box = inner * b.box(0, n0 + 64 * j, Cfg::bk, 64);
                    if (with_last) box += b.box(last_k, n0 + 64 * j, Cfg::bk, 64);
                    if (Cfg::multicast)
                        multicast += box;
                    else
                        self += box;
                }
                if (!u.owner) {
                    // leave_partial: the CTA's sums as float4s, 512 contiguous bytes per warp
                    // store, and the flag raised.
                    l1_store_sectors += partial_bytes / sector + 1;
                    distinct_store_sectors += partial_bytes / sector + 1;
                    partial_sums_bytes += partial_bytes;
                    continue;
                }
                const int contributors = u.contributors_last - u.contributors_first;
                fadd += double(contributors) * bm * bn;
                // add_partial: __ldcg of each contributor's sums (L2, not L1), at least one poll
                // of its flag, and the flag lowered.
                l1_load_sectors += contributors * (partial_bytes / sector + 1);
                l2_lsu_sectors += contributors * (partial_bytes / sector + 1);
                l1_store_sectors += contributors;
                distinct_store_sectors += contributors;
                if (tma_epi) {
                    ffma += double(bm) * bn;  // unguarded: the TMA store clips
                    matrix += matrix_per_tile;
                    for (int h = 0; h < Cfg::consumers; ++h)
                        for (int j = 0; j < Cfg::b_boxes; ++j)
                            c_tma += c.box(m0 + 64 * h, n0 + 64 * j, 64, 64);
                } else {
                    const key3 key = tile_key(s.m, s.n, m0, n0, bm, bn, 32);
                    ffma += double(key[0]) * double(key[1]);  // valid rows × valid columns of C
                    const c_sectors cs =
                        memoised(c_memo, key, [&] { return direct_c_sectors<Cfg>(s, m0, n0); });
                    l1_load_sectors += double(cs.l1);
                    l1_store_sectors += double(cs.l1);
                    distinct_store_sectors += double(cs.l2);
                    l2_lsu_sectors += double(cs.l2);
                }
            }
        }

    r.refined.tensor_flops = flops;
    r.refined.smem_gmma_wavefronts = (1.0 / gmma_wavefront_bytes) * gmma;
    set_fp32(r.refined, ffma, ffma, fadd);
    r.refined.smem_ldsm_wavefronts = matrix;  // β ≠ 0: ldmatrix reads C's tile
    r.refined.smem_stsm_wavefronts = matrix;
    r.refined.smem_ldsm_bank_conflicts = 0;
    // The LSU's shared traffic is ldmatrix/stmatrix alone; what the counters add on top with the
    // TMA epilogue depends on timing (docs/models/13_17_tensor.md).
    r.refined.smem_load_wavefronts = matrix;
    r.refined.smem_store_wavefronts = matrix;
    const double mc_delivered = double(cm) * double(multicast.delivered);
    r.refined.tma_multicast_bytes = Cfg::multicast ? mc_delivered : 0;
    r.refined.tma_load_bytes =
        double(self.delivered) + (Cfg::multicast ? mc_delivered : 0) + double(c_tma.delivered);
    r.refined.tma_store_bytes = double(c_tma.stored);
    r.refined.l1_global_load_bytes = double(sector) * l1_load_sectors;
    r.refined.l1_global_store_bytes = double(sector) * l1_store_sectors;
    r.refined.distinct_store_bytes = double(sector) * distinct_store_sectors + double(c_tma.stored);
    r.refined.l2_requested_bytes =
        double(sector) *
        (double(self.requested_sectors + multicast.requested_sectors + c_tma.requested_sectors) +
         l2_lsu_sectors);

    const auto w = dram_reads(s, bm, bn, waves, mc);
    r.refined.dram_read_bytes = w.total();
    kernels::set_wave_dram_writes(r.refined, w, partial_sums_bytes);

    r.refined.notes.push_back(
        "grid: " + std::to_string(clusters) + " clusters of " + std::to_string(cm) + " (of " +
        std::to_string(resident) + " resident, for " + std::to_string(tiles) + " tiles of " +
        std::to_string(bm * cm) + "×" + std::to_string(bn) +
        ": the fewest that finish in as many waves, tensor::grid_clusters), " + std::to_string(kt) +
        " k-tiles of 64; " +
        (sched.sk_share > 0 ? std::to_string(sched.dp_tiles) + " whole tiles, " +
                                  std::to_string(tiles - sched.dp_tiles) + " split by stream-K, " +
                                  std::to_string(sched.sk_share) + " k-iterations per cluster"
                            : "whole tiles only (no stream-K tail)") +
        " (tensor::ws_schedule)");
    r.refined.notes.push_back("tensor FLOPs: every unit's k-tiles × 2·" + std::to_string(bm) + "·" +
                              std::to_string(bn) +
                              "·64 per CTA (padded tiles; TMA fills the edges)");
    r.refined.notes.push_back("gmma bytes: per CTA and k-tile " + std::to_string(Cfg::consumers) +
                              " consumers × 4 × (64·16 + 16·" + std::to_string(bn) + ")·2 B");
    r.refined.notes.push_back(
        tma_epi ? "FP32: the TMA epilogue computes every element of each owned CTA tile (the "
                  "store clips): FMUL = FFMA = tiles × BM·BN; stream-K owners add one FADD per "
                  "element per contributor"
                : "FP32: the guarded direct epilogue does one FMUL and one FFMA per output of C");
    if (tma_epi)
        r.refined.notes.push_back(
            "shared: per owned CTA tile " + str(matrix_per_tile) +
            " ldmatrix.x4 and as many stmatrix.x4 wavefronts (conflict-free "
            "through the 128-byte swizzle, bf16_ws::c_unit_addr); measured op_ld / "
            "op_st add timing-dependent wavefronts on top");
    else
        r.refined.notes.push_back(
            "shared: no LSU shared loads or stores (operands through the gmma "
            "path; mbarrier waits do not count as op_ld)");
    r.refined.notes.push_back(
        std::string("TMA: per CTA and k-tile one ") + std::to_string(bm) + "×64 box of A and " +
        std::to_string(Cfg::b_boxes) + " 64×64 boxes of B" +
        (Cfg::multicast ? " (each CTA loads " + std::to_string(boxes_per_loader) +
                              " and multicasts them: delivered at both SMs, "
                              "requested once)"
                        : "") +
        (tma_epi ? "; per owned tile C's 64×64 boxes loaded (β ≠ 0) and stored" : "") +
        "; per box row delivered: the sectors inside the matrix plus the outside part's zero "
        "fill in whole sectors; requested from L2: every sector of the box row as addressed");
    r.refined.notes.push_back(
        "DRAM: the i-th unit of every cluster is resident together (the stream-K "
        "pieces form one last wave); " +
        std::to_string(w.waves) + " waves; " +
        (w.waves <= 1 ? "A and B read once"
                      : std::string("each wave reads the strips of A and B it touches, ") +
                            kernels::strip_reuse_note) +
        "; C read once (β ≠ 0); stream-K partial sums stay in L2");
    add_dram_notes(r, w, mc.l2_bytes);
    return r;
}

}  // namespace

tensor_counts model_bf16_ws(const shape& s, const model_context& mc) {
    return model_ws<tensor_rungs::ws>(s, mc);
}
tensor_counts model_bf16_cluster(const shape& s, const model_context& mc) {
    return model_ws<tensor_rungs::cluster>(s, mc);
}
tensor_counts model_ws_tma_control(const shape& s, const model_context& mc) {
    return model_ws<tensor_rungs::ws_tma_control>(s, mc);
}
tensor_counts model_cluster_nomc_control(const shape& s, const model_context& mc) {
    return model_ws<tensor_rungs::cluster_nomc_control>(s, mc);
}

}  // namespace tgemm::kernels::tensor_model
