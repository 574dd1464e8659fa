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
// The coalescer merges requests for one sector from SMs of one coalescing domain that arrive
// together, each response serving at most `fanout` of them (4 on the H100 and the H200): 0.3-62 %
// of the requests measured (docs/models/l2.md), how many a timing effect no model here derives. So
// the totals are a value with a typed band: none merged (the value, the high end) and as many
// merged as the fan-out allows (the low end): a 1/fanout share of the requests, and at least one
// per distinct sector of A, B and C (each must reach the L2 once; with the fan-out unknown, that
// alone). What the coalescer merges (`l2_coalesced_bytes`) is that effect itself: no value.
#include "core/shape.hpp"
#include "l2_traffic.hpp"
#include "model/refined_model.hpp"

namespace tgemm::kernels {

// Sets `r`'s l2_read_bytes and l2_bytes, with their bands and a note, from
// its L2 requests, writes and fabric bytes. Leaves them empty, with a note, where one of those is
// not predicted (a rung without a model of what L1 forwards, the cuBLAS rows, a GPU whose L2
// partitions are not known). `fanout`: model_context::l2_coalescer_fanout (0: not known).
void add_l2_totals(refined_model& r, const shape& s, const l2_operands& e, int partitions,
                   int fanout);

}  // namespace tgemm::kernels
