#include "collect/metric_table.hpp"

#include <array>

#include "gpu/sector.hpp"
#include "model/levels.hpp"

namespace tgemm {

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
        metric_traits{keys::duration_ns, "gpu__time_duration.sum", 1, "kernel duration, ns"},
        metric_traits{keys::sm_clock_hz, "sm__cycles_elapsed.avg.per_second", 1,
                      "average SM clock during the kernel, Hz"},
    };
    return table;
}

}  // namespace tgemm
