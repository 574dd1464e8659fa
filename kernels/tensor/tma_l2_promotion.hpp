#pragma once
// The L2 promotion every TMA tensor map of the ladder asks for (tensor_map.cpp): on a miss, the L2
// fetches this many bytes around the request. Host-only, so that the L2 traffic model
// (kernels/l2_traffic.cpp) reads the same value the maps are encoded with: measured on the H100
// and the H200, 256-byte promotion sends about (P-1)/P of every line of A and B the L2 brings
// from DRAM across the partitions once more, and 128 bytes or none does not; 64 bytes was not
// measured (docs/models/l2.md, "TMA loads"). A value other than 256 leaves the model without the
// promotion's share.
namespace tgemm::tensor {

inline constexpr int tma_l2_promotion_bytes = 256;

}  // namespace tgemm::tensor
