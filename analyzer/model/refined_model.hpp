#pragma once
// What a rung's refined model predicts for one shape: one field per counter of model/levels.hpp,
// empty where the model does not predict it. The fields are named like the keys, and one table
// (refined_fields) pairs each key with its field, so a model, a test and the documentation read
// the same typed struct while the profile file, the analysis and the report keep reaching a
// value by its key (get/set).
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "model/levels.hpp"

namespace tgemm {

struct refined_model {
    // FP32 pipe, executed: flops = 2·ffma + fadd + fmul.
    std::optional<double> flops, ffma, fadd, fmul;
    // DRAM and L2 (bytes).
    std::optional<double> dram_read_bytes, dram_write_bytes;
    std::optional<double> l2_bytes, l2_read_bytes, l2_write_bytes;
    // What the L2 partitions ask each other for (docs/models/l2.md).
    std::optional<double> l2_fabric_bytes;
    // L1, global accesses: bytes of the 32-byte sectors touched, and warp requests.
    std::optional<double> l1_global_load_bytes, l1_global_store_bytes, l1_global_load_requests;
    // Shared memory through the LSU pipe, and what cp.async writes into it.
    std::optional<double> smem_load_wavefronts, smem_store_wavefronts;
    std::optional<double> smem_load_bank_conflicts, smem_store_bank_conflicts;
    std::optional<double> smem_load_bytes, smem_store_bytes, smem_ldgsts_bytes;
    // Tensor cores: FLOPs per path, and their sum.
    std::optional<double> tensor_flops;
    std::optional<double> tensor_hgmma_bf16_flops, tensor_hgmma_fp16_flops;
    std::optional<double> tensor_hmma_bf16_flops, tensor_hmma_fp16_flops;
    // Shared memory as the tensor kernels use it.
    std::optional<double> smem_gmma_wavefronts, smem_ldsm_wavefronts, smem_ldsm_bank_conflicts;
    std::optional<double> smem_stsm_wavefronts;
    // TMA, and the L2 requests before the request coalescer.
    std::optional<double> tma_load_bytes, tma_multicast_bytes, tma_store_bytes;
    std::optional<double> l2_requested_bytes, l2_coalesced_bytes;
    // Not a counter: what the stores write to L2 if L1 merged every store that writes part of a
    // sector with the others of that sector, i.e. the bytes of the distinct sectors they touch.
    // Empty: C's bytes (a rung that stores C alone). The low end of the L2 write band.
    std::optional<double> distinct_store_bytes;
    // One line per assumption or derivation step, shown in the report.
    std::vector<std::string> notes;
    // Where an effect the model does not derive moves the DRAM reads, the range they must lie
    // in, derived from the two limiting cases, with the reason (also a note, "DRAM band: ").
    // The shipped-profile test asserts it like any other prediction.
    struct value_band {
        double low = 0;
        double high = 0;
        std::string reason;
    };
    std::optional<value_band> dram_read_band;
    // DRAM writes where C must leave L2 (kernels/dram_writes.hpp): how much of it is still dirty
    // in L2 when the kernel ends is not derived.
    std::optional<value_band> dram_write_band;
    // The same for the L2 traffic model (kernels/l2_traffic.hpp): L2 writes where partial-sector
    // stores may or may not merge, fabric bytes where a far copy may or may not be kept.
    std::optional<value_band> l2_write_band, l2_fabric_band;
    // The L2 read requests (kernels/l2_requests.hpp) where L1 may serve one CTA's strip to
    // another of the same SM.
    std::optional<value_band> l2_requested_band;
    // The L2's totals (kernels/l2_totals.hpp): how many requests the coalescer merges is not
    // derived.
    std::optional<value_band> l2_read_band, l2_band;
    // The band of `key`, where the model gives one.
    [[nodiscard]] const value_band* band(std::string_view key) const;
    // The one way a model sets a band. Throws error_kind::internal for a key that has none.
    void set_band(std::string_view key, value_band b);

    // The value of `key`; empty when the model does not predict it or no field holds the key.
    [[nodiscard]] std::optional<double> get(std::string_view key) const;
    // Throws error_kind::internal for a key no field holds (a typo in a model).
    void set(std::string_view key, double v);
    [[nodiscard]] static bool holds(std::string_view key);
};

// A key of model/levels.hpp and the field of refined_model that holds it.
using refined_member = std::optional<double> refined_model::*;
struct refined_field {
    std::string_view key;
    refined_member member;
};

// Every counter key except three: duration_ns and sm_clock_hz (a count of work predicts no
// time or clock) and dram_bytes (read + write, derived where it is used).
inline constexpr std::array refined_fields{
    refined_field{keys::flops, &refined_model::flops},
    refined_field{keys::ffma, &refined_model::ffma},
    refined_field{keys::fadd, &refined_model::fadd},
    refined_field{keys::fmul, &refined_model::fmul},
    refined_field{keys::dram_read_bytes, &refined_model::dram_read_bytes},
    refined_field{keys::dram_write_bytes, &refined_model::dram_write_bytes},
    refined_field{keys::l2_bytes, &refined_model::l2_bytes},
    refined_field{keys::l2_read_bytes, &refined_model::l2_read_bytes},
    refined_field{keys::l2_write_bytes, &refined_model::l2_write_bytes},
    refined_field{keys::l2_fabric_bytes, &refined_model::l2_fabric_bytes},
    refined_field{keys::l1_global_load_bytes, &refined_model::l1_global_load_bytes},
    refined_field{keys::l1_global_store_bytes, &refined_model::l1_global_store_bytes},
    refined_field{keys::l1_global_load_requests, &refined_model::l1_global_load_requests},
    refined_field{keys::smem_load_wavefronts, &refined_model::smem_load_wavefronts},
    refined_field{keys::smem_store_wavefronts, &refined_model::smem_store_wavefronts},
    refined_field{keys::smem_load_bank_conflicts, &refined_model::smem_load_bank_conflicts},
    refined_field{keys::smem_store_bank_conflicts, &refined_model::smem_store_bank_conflicts},
    refined_field{keys::smem_load_bytes, &refined_model::smem_load_bytes},
    refined_field{keys::smem_store_bytes, &refined_model::smem_store_bytes},
    refined_field{keys::smem_ldgsts_bytes, &refined_model::smem_ldgsts_bytes},
    refined_field{keys::tensor_flops, &refined_model::tensor_flops},
    refined_field{keys::tensor_hgmma_bf16_flops, &refined_model::tensor_hgmma_bf16_flops},
    refined_field{keys::tensor_hgmma_fp16_flops, &refined_model::tensor_hgmma_fp16_flops},
    refined_field{keys::tensor_hmma_bf16_flops, &refined_model::tensor_hmma_bf16_flops},
    refined_field{keys::tensor_hmma_fp16_flops, &refined_model::tensor_hmma_fp16_flops},
    refined_field{keys::smem_gmma_wavefronts, &refined_model::smem_gmma_wavefronts},
    refined_field{keys::smem_ldsm_wavefronts, &refined_model::smem_ldsm_wavefronts},
    refined_field{keys::smem_ldsm_bank_conflicts, &refined_model::smem_ldsm_bank_conflicts},
    refined_field{keys::smem_stsm_wavefronts, &refined_model::smem_stsm_wavefronts},
    refined_field{keys::tma_load_bytes, &refined_model::tma_load_bytes},
    refined_field{keys::tma_multicast_bytes, &refined_model::tma_multicast_bytes},
    refined_field{keys::tma_store_bytes, &refined_model::tma_store_bytes},
    refined_field{keys::l2_requested_bytes, &refined_model::l2_requested_bytes},
    refined_field{keys::l2_coalesced_bytes, &refined_model::l2_coalesced_bytes},
};

namespace detail {
[[nodiscard]] constexpr const refined_field* find_refined_field(std::string_view key) {
    for (const auto& f : refined_fields)
        if (f.key == key) return &f;
    return nullptr;
}
[[nodiscard]] constexpr bool refined_fields_are_distinct() {
    for (std::size_t i = 0; i < refined_fields.size(); ++i)
        for (std::size_t j = i + 1; j < refined_fields.size(); ++j)
            if (refined_fields[i].key == refined_fields[j].key ||
                refined_fields[i].member == refined_fields[j].member)
                return false;
    return true;
}
}  // namespace detail

static_assert(detail::refined_fields_are_distinct(), "one table row per key and per field");
// A field added to the struct but not to the table would be invisible to get/set, the profile
// file and the report: every field but `distinct_store_bytes`, `notes` and the bands has its row.
static_assert(sizeof(refined_model) == (refined_fields.size() + 1) * sizeof(std::optional<double>) +
                                           sizeof(std::vector<std::string>) +
                                           7 * sizeof(std::optional<refined_model::value_band>),
              "every optional field of refined_model has a row in refined_fields");

inline std::optional<double> refined_model::get(std::string_view key) const {
    const auto* f = detail::find_refined_field(key);
    return f ? this->*(f->member) : std::nullopt;
}

namespace detail {
// The band member of `key`, or null for a key whose model gives none.
using band_member = std::optional<refined_model::value_band> refined_model::*;
[[nodiscard]] constexpr band_member band_member_of(std::string_view key) {
    return key == keys::dram_read_bytes      ? &refined_model::dram_read_band
           : key == keys::dram_write_bytes   ? &refined_model::dram_write_band
           : key == keys::l2_write_bytes     ? &refined_model::l2_write_band
           : key == keys::l2_fabric_bytes    ? &refined_model::l2_fabric_band
           : key == keys::l2_requested_bytes ? &refined_model::l2_requested_band
           : key == keys::l2_read_bytes      ? &refined_model::l2_read_band
           : key == keys::l2_bytes           ? &refined_model::l2_band
                                             : nullptr;
}
}  // namespace detail

inline const refined_model::value_band* refined_model::band(std::string_view key) const {
    const auto member = detail::band_member_of(key);
    return member && this->*member ? &*(this->*member) : nullptr;
}

inline void refined_model::set_band(std::string_view key, value_band b) {
    const auto member = detail::band_member_of(key);
    if (!member)
        throw error(error_kind::internal,
                    "refined_model has no band for the key '" + std::string(key) + "'");
    this->*member = std::move(b);
}

inline void refined_model::set(std::string_view key, double v) {
    const auto* f = detail::find_refined_field(key);
    if (!f)
        throw error(error_kind::internal,
                    "refined_model has no field for the key '" + std::string(key) + "'");
    this->*(f->member) = v;
}

inline bool refined_model::holds(std::string_view key) {
    return detail::find_refined_field(key) != nullptr;
}

}  // namespace tgemm
