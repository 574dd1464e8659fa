#pragma once
// The L2's totals (`l2_read_bytes`, `l2_bytes`), composed from the parts the other L2 models
// derive: what L1 forwards (kernels/l2_requests.hpp and the tensor rungs' request models), the
// stores and the fabric (kernels/l2_traffic.hpp). Host-only C++; docs/models/l2.md, "The totals".
//
// `lts__t_bytes` counts every sector the L2 slices are asked for (measured on both GPUs,
// docs/models/l2.md):
// - the SMs' reads: what L1 forwards less what the coalescer merges;
// - the stores, at the SM's partition and again at a far home (`l2_write_bytes`);
// - the fabric's reads: the far partition asking the home for a line (`l2_fabric_bytes` less its
//   store part, (P-1)/P of the stored sectors).
// The coalescer merges requests for one sector from several SMs that arrive together: 0.3-62 %
// of them measured (docs/models/l2.md), a timing effect no model here derives. So the totals are a
// value with a typed band: none merged (the value, the high end) and every request merged but one
// per distinct sector of A, B and C (the low end: each must reach the L2 once). What the coalescer
// merges (`l2_coalesced_bytes`) is that effect itself: no value.
#include "core/shape.hpp"
#include "l2_traffic.hpp"
#include "model/refined_model.hpp"

namespace tgemm::kernels {

// Sets `r`'s l2_read_bytes and l2_bytes, with their bands and a note, from
// its L2 requests, writes and fabric bytes. Leaves them empty, with a note, where one of those is
// not predicted (a rung without a model of what L1 forwards, the cuBLAS rows, a GPU whose L2
// partitions are not known).
void add_l2_totals(refined_model& r, const shape& s, const l2_operands& e, int partitions);

}  // namespace tgemm::kernels
