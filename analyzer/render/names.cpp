#include "render/names.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "model/levels.hpp"
#include "profile/profile.hpp"

namespace tgemm::render {

std::string roof_display_name(std::string_view key) {
    if (key == roofs::fp32) return "FP32";
    if (key == roofs::dram) return "DRAM";
    if (key == roofs::tensor_tf32) return "TF32 tensor";
    if (key == roofs::tensor_fp16) return "FP16/BF16 tensor";
    return std::string(key);
}

std::string roof_name(std::string_view key) {
    if (key == roofs::tensor_bf16_mma) return "BF16 tensor (mma.sync)";
    if (key == roofs::tensor_fp16_mma) return "FP16 tensor (mma.sync)";
    if (key == roofs::tensor_bf16_cublas) return "BF16 tensor (cuBLAS)";
    if (key == roofs::tensor_fp16_cublas) return "FP16 tensor (cuBLAS)";
    if (key == roofs::l2) return "L2";
    if (key == roofs::smem) return "shared";
    if (key == roofs::tensor_fp16) return "FP16 tensor";
    if (key == roofs::tensor_bf16) return "BF16 tensor";
    return roof_display_name(key);
}

std::string roof_word(std::string_view key) {
    if (key.starts_with("tensor_") && key.find('_', 7) != std::string_view::npos)
        return roof_name(key);
    if (key == roofs::l2) return "L2";
    if (key == roofs::smem) return "shared-memory";
    if (key == roofs::dram_copy) return "DRAM copy";
    if (key == roofs::tensor_bf16) return "BF16 tensor";
    if (key == roofs::tensor_fp16) return "FP16 tensor";
    return roof_display_name(key);
}

std::string roof_table_name(std::string_view key) {
    auto s = roof_word(key);
    std::replace(s.begin(), s.end(), '-', ' ');
    return s;
}

std::string level_display_name(std::string_view key) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 24> names = {{
        {keys::flops, "FLOPs"},
        {keys::tensor_flops, "tensor FLOPs"},
        {keys::dram_bytes, "DRAM bytes (read + write)"},
        {keys::dram_read_bytes, "DRAM read bytes"},
        {keys::dram_write_bytes, "DRAM write bytes"},
        {keys::l2_bytes, "L2 bytes"},
        {keys::l2_write_bytes, "L2 write bytes"},
        {keys::l2_fabric_bytes, "L2 fabric bytes"},
        {keys::l1_global_load_bytes, "L1 global load bytes"},
        {keys::l1_global_store_bytes, "L1 global store bytes"},
        {keys::smem_load_wavefronts, "shared load wavefronts"},
        {keys::smem_store_wavefronts, "shared store wavefronts"},
        {keys::smem_load_bank_conflicts, "shared load bank conflicts"},
        {keys::smem_store_bank_conflicts, "shared store bank conflicts"},
        {keys::l2_requested_bytes, "L2 requested bytes"},
        {keys::l2_coalesced_bytes, "L2 coalesced bytes"},
        {keys::smem_ldsm_wavefronts, "ldmatrix wavefronts"},
        {keys::smem_ldsm_bank_conflicts, "ldmatrix bank conflicts"},
        {keys::smem_stsm_wavefronts, "stmatrix wavefronts"},
        {keys::smem_gmma_wavefronts, "wgmma operand wavefronts"},
        {keys::smem_ldgsts_bytes, "cp.async bytes"},
        {keys::tma_load_bytes, "TMA load bytes"},
        {keys::tma_multicast_bytes, "TMA multicast bytes"},
        {keys::tma_store_bytes, "TMA store bytes"},
    }};
    for (const auto& [k, name] : names)
        if (k == key) return std::string(name);
    return std::string(key);
}

}  // namespace tgemm::render
