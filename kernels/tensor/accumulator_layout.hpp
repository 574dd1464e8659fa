#pragma once
// Where a lane's accumulators sit in C, for the kernels that write C from registers (the
// mma.sync kernel, bf16_mma.cuh, and the wgmma kernels, bf16_wgmma.cuh and bf16_ws.cuh) and for
// their refined models, which count the sectors of the same addresses. The m16n8 accumulator
// of mma.sync, and each warp's 16 rows of a wgmma m64 accumulator, hold the same layout: lane
// `lane` has the column pair acc_col(lane), acc_col(lane) + 1 of rows acc_row(lane) and
// acc_row(lane) + acc_half_rows of its 16×8 block (PTX ISA, "Matrix fragments for mma.m16n8k16"
// and the wgmma D-matrix layout).
//
// The epilogues write C in groups of acc_group_blocks adjacent 16×8 blocks (acc_store.cuh): the
// four lanes of a quad exchange their column pairs so that lane q holds the 8 columns of block
// q of the group, acc_group_col(lane) from the group's first column, and each row's 64 bytes
// leave in one warp store as whole sectors (two sectors when the row is 64-byte aligned), where
// writing each lane's pair would write every sector in halves from two store instructions.
#include "tensor/host_device.hpp"

namespace tgemm::tensor {

TGEMM_HD constexpr int acc_row(int lane) {
    return lane / 4;
}
TGEMM_HD constexpr int acc_col(int lane) {
    return 2 * (lane % 4);
}
inline constexpr int acc_half_rows = 8;
inline constexpr int acc_group_blocks = 4;
TGEMM_HD constexpr int acc_group_col(int lane) {
    return 8 * (lane % 4);
}

}  // namespace tgemm::tensor
