#include "collect/metric_table.hpp"

#include <array>

#include "gpu/sector.hpp"
#include "model/levels.hpp"
#include "model/stall_reasons.hpp"

namespace tgemm {

namespace {

// The execution counters (docs/why.md): Nsight Compute's own metrics, ratios as it shows them.
constexpr std::array execution_metrics{
    metric_traits{keys::sm_cycles_active, "sm__cycles_active.sum", 1,
                  "cycles with at least one warp resident, summed over the SMs"},
    metric_traits{keys::inst_executed, "sm__inst_executed.sum", 1, "warp instructions executed"},
    metric_traits{keys::ipc, "sm__inst_executed.avg.per_cycle_active", 1,
                  "warp instructions per active cycle, per SM (at most 4: four schedulers)"},
    metric_traits{keys::issue_active_pct, "smsp__issue_active.avg.pct_of_peak_sustained_active", 1,
                  "% of active cycles in which a scheduler issued an instruction"},
    metric_traits{keys::achieved_occupancy_pct, "sm__warps_active.avg.pct_of_peak_sustained_active",
                  1, "resident warps per active cycle, % of the SM's maximum"},
    metric_traits{keys::fma_pipe_pct, "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
                  1, "% of active cycles the FMA pipe was busy"},
    metric_traits{keys::warp_cycles, "smsp__warps_active.sum", 1,
                  "resident warps summed over every active cycle (warp-cycles)"},
    metric_traits{keys::tensor_pipe_pct,
                  "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", 1,
                  "% of active cycles the tensor pipe was busy", metric_family::tensor},
};

template <std::size_t A, std::size_t B>
constexpr std::array<metric_traits, A + B + stall_reasons.size()> joined(
    const std::array<metric_traits, A>& a, const std::array<metric_traits, B>& b) {
    std::array<metric_traits, A + B + stall_reasons.size()> out{};
    std::size_t i = 0;
    for (const auto& t : a) out[i++] = t;
    for (const auto& t : b) out[i++] = t;
    for (const auto& r : stall_reasons) out[i++] = metric_traits{r.key, r.metric, 1, r.words};
    return out;
}

}  // namespace

std::span<const metric_traits> metric_table() {
    // The three instrumented op counters are exact (they count predicated-on thread
    // instructions) and slow: see docs/cupti.md.
    static constexpr std::array table{
        metric_traits{keys::ffma, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1,
                      "FP32 fused multiply-adds executed, per thread"},
        metric_traits{keys::fadd, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1,
                      "FP32 adds executed, per thread"},
        metric_traits{keys::fmul, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 1,
                      "FP32 multiplies executed, per thread"},
        metric_traits{keys::dram_read_bytes, "dram__bytes_read.sum", 1, "bytes read from DRAM"},
        metric_traits{keys::dram_write_bytes, "dram__bytes_write.sum", 1, "bytes written to DRAM"},
        metric_traits{keys::l2_bytes, "lts__t_bytes.sum", 1, "bytes requested at the L2 slices"},
        metric_traits{keys::l2_read_bytes, "lts__t_sectors_op_read.sum", double(sector_bytes),
                      "L2 read sectors x 32 B"},
        metric_traits{keys::l2_write_bytes, "lts__t_sectors_op_write.sum", double(sector_bytes),
                      "L2 write sectors x 32 B"},
        metric_traits{keys::l2_tex_bytes, "lts__t_sectors_srcunit_tex.sum", double(sector_bytes),
                      "L2 sectors the SMs (L1/TEX) asked for x 32 B"},
        metric_traits{keys::l2_fabric_bytes, "lts__t_sectors_srcunit_ltcfabric.sum",
                      double(sector_bytes),
                      "L2 sectors the other L2 partition asked for x 32 B (its misses)"},
        metric_traits{keys::l1_global_load_bytes, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", 1,
                      "global load bytes requested at L1 (32 B sectors)"},
        metric_traits{keys::l1_global_store_bytes, "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum",
                      1, "global store bytes at L1 (32 B sectors)"},
        metric_traits{keys::l1_global_load_requests,
                      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1,
                      "global load requests (one per warp instruction)"},
        metric_traits{keys::smem_load_wavefronts,
                      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1,
                      "shared-memory load wavefronts (bank conflicts included)"},
        metric_traits{keys::smem_store_wavefronts,
                      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 1,
                      "shared-memory store wavefronts (bank conflicts included)"},
        metric_traits{keys::smem_load_bank_conflicts,
                      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 1,
                      "shared-memory load bank conflicts"},
        metric_traits{keys::smem_store_bank_conflicts,
                      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 1,
                      "shared-memory store bank conflicts"},
        metric_traits{keys::smem_ldgsts_bytes, "smsp__sass_data_bytes_mem_shared_op_ldgsts.sum", 1,
                      "bytes written to shared memory by cp.async (LDGSTS)"},
        metric_traits{keys::tensor_hgmma_bf16_flops,
                      "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum", 1,
                      "tensor FLOPs of wgmma with BF16 inputs", metric_family::tensor},
        metric_traits{keys::tensor_hgmma_fp16_flops, "sm__ops_path_tensor_op_hgmma_src_fp16.sum", 1,
                      "tensor FLOPs of wgmma with FP16 inputs", metric_family::tensor},
        metric_traits{keys::tensor_hmma_bf16_flops,
                      "sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32.sum", 1,
                      "tensor FLOPs of mma.sync/WMMA with BF16 inputs", metric_family::tensor},
        metric_traits{keys::tensor_hmma_fp16_flops,
                      "sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32.sum", 1,
                      "tensor FLOPs of mma.sync/WMMA with FP16 inputs, FP32 accumulate",
                      metric_family::tensor},
        metric_traits{keys::smem_gmma_wavefronts,
                      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", 1,
                      "shared-memory wavefronts of wgmma operand reads", metric_family::tensor},
        metric_traits{keys::smem_ldsm_wavefronts,
                      "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", 1,
                      "shared-memory wavefronts of ldmatrix", metric_family::tensor},
        metric_traits{keys::smem_ldsm_bank_conflicts,
                      "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", 1,
                      "bank conflicts of ldmatrix", metric_family::tensor},
        metric_traits{keys::smem_stsm_wavefronts,
                      "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum", 1,
                      "shared-memory wavefronts of stmatrix", metric_family::tensor},
        metric_traits{keys::tma_load_bytes,
                      "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", 1,
                      "bytes TMA loads deliver to shared memory", metric_family::tensor},
        metric_traits{keys::tma_multicast_bytes,
                      "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum", 1,
                      "bytes TMA multicast loads deliver (at each CTA)", metric_family::tensor},
        metric_traits{keys::tma_store_bytes,
                      "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", 1,
                      "bytes TMA stores write to global memory", metric_family::tensor},
        // Every rung: what the SMs ask of L2 and what the coalescer merges of it are the read
        // part of lts__t_bytes for the FP32 rungs as much as for the tensor ones
        // (docs/models/l2.md, "What the SMs read from L2").
        metric_traits{keys::l2_requested_bytes, "lrc__request_sectors_op_read_coalescable.sum",
                      sector_bytes, "L2 read sectors requested, before coalescing x 32 B"},
        metric_traits{keys::l2_coalesced_bytes,
                      "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum",
                      sector_bytes, "L2 read sectors merged by the request coalescer x 32 B"},
        metric_traits{keys::duration_ns, "gpu__time_duration.sum", 1, "kernel duration, ns"},
        metric_traits{keys::sm_clock_hz, "sm__cycles_elapsed.avg.per_second", 1,
                      "average SM clock during the kernel, Hz"},
    };
    static constexpr auto all = joined(table, execution_metrics);
    return all;
}

}  // namespace tgemm
