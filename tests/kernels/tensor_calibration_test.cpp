// Every modelled counter of the tensor-core kernels against the Nsight Compute calibration of
// docs/tensor/ (measured on the H100, docs/tensor/README.md), within the tolerance
// docs/models/13_17_tensor.md states for it. Run with TGEMM_TENSOR_TABLE=1 to print the
// model-vs-measured table of that document.
#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "ncu_csv.hpp"
#include "tensor/tensor_models.hpp"
#include "tensor/tensor_rungs.hpp"

using namespace tgemm;
using namespace tgemm::kernels::tensor_model;

namespace {

using model_fn = tensor_counts (*)(const shape&, const model_context&);

struct known_kernel {
    std::string name;  // as the document's table names it
    // Whether Nsight Compute's kernel name is this configuration.
    std::function<bool(const std::string&)> matches;
    model_fn model;
    enum class smem_kind { lsu, gmma_only, tma_epilogue } smem;
};

// bf16_ws's configuration as its kernel name spells it, followed by the end of the template
// list (the kernels profiled before the twelfth parameter, own_c_loader, existed) or by that one.
template <class Cfg>
std::function<bool(const std::string&)> ws_signature() {
    std::ostringstream s;
    s << "bf16_ws_kernel<config<" << Cfg::bm << ", " << Cfg::bn << ", " << Cfg::stages << ", "
      << Cfg::consumers << ", " << Cfg::cluster_m << ", " << static_cast<int>(Cfg::order) << ", "
      << static_cast<int>(Cfg::epi) << ", " << Cfg::group_m << ", " << Cfg::wait_depth << ", "
      << int(Cfg::multicast) << ", " << int(Cfg::stream_k);
    const std::string head = s.str();
    const std::string last = ", " + std::to_string(int(Cfg::own_c_loader)) + ">>";
    return [head, last](const std::string& name) {
        const auto at = name.find(head);
        if (at == std::string::npos) return false;
        const std::string rest = name.substr(at + head.size());
        return rest.starts_with(">>") || rest.starts_with(last);
    };
}

std::function<bool(const std::string&)> name_contains(std::string part) {
    return [part = std::move(part)](const std::string& name) {
        return name.find(part) != std::string::npos;
    };
}

template <class Cfg>
std::function<bool(const std::string&)> signature(const char* kernel) {
    std::ostringstream s;
    s << kernel << "<config<" << Cfg::bm << ", " << Cfg::bn << ", " << Cfg::stages << ">>";
    return name_contains(s.str());
}

// The rungs' configurations (tensor_rungs.hpp) spelled as the profiled kernels' names: a change
// of configuration leaves a calibrated kernel unmatched, and the test fails.
std::vector<known_kernel> known_kernels() {
    namespace r = tensor_rungs;
    using k = known_kernel::smem_kind;
    return {
        {"13 bf16_wmma", name_contains("bf16_wmma_kernel(params)"), model_bf16_wmma, k::lsu},
        {"14 bf16_mma", signature<r::mma>("bf16_mma_kernel"), model_bf16_mma, k::lsu},
        {"15 bf16_wgmma", signature<r::wgmma>("bf16_wgmma_kernel"), model_bf16_wgmma, k::gmma_only},
        {"16 bf16_ws", ws_signature<r::ws>(), model_bf16_ws, k::gmma_only},
        {"17 bf16_cluster", ws_signature<r::cluster>(), model_bf16_cluster, k::tma_epilogue},
        {"control c1 TMA epilogue", ws_signature<r::ws_tma_control>(), model_ws_tma_control,
         k::tma_epilogue},
        {"control c2 no multicast", ws_signature<r::cluster_nomc_control>(),
         model_cluster_nomc_control, k::tma_epilogue},
    };
}

struct calibration_file {
    const char* file;
    shape default_shape;  // the first two files hold one shape each
};

// How a counter must agree with its measurement.
struct tolerance {
    enum class kind { exact, relative, at_most_above, not_asserted } how = kind::exact;
    double bound = 0;
    [[nodiscard]] bool holds(double model, double measured) const {
        switch (how) {
            case kind::exact:
                return model == measured;
            case kind::relative:
                return model == measured ||
                       (model != 0 && std::abs(measured / model - 1.0) <= bound);
            case kind::at_most_above:
                return measured >= model && measured <= model * (1.0 + bound);
            case kind::not_asserted:
                return true;
        }
        return false;
    }
    [[nodiscard]] std::string text() const {
        const auto pct = std::to_string(static_cast<int>(std::lround(bound * 100))) + " %";
        switch (how) {
            case kind::exact:
                return "exact";
            case kind::relative:
                return "±" + (bound < 0.01 ? std::string("0.1 %") : pct);
            case kind::at_most_above:
                return "+0…+" + pct;
            case kind::not_asserted:
                return "not asserted";
        }
        return "";
    }
};

tolerance exact() {
    return {};
}
tolerance relative(double b) {
    return {tolerance::kind::relative, b};
}
tolerance at_most_above(double b) {
    return {tolerance::kind::at_most_above, b};
}
tolerance not_asserted() {
    return {tolerance::kind::not_asserted, 0};
}

struct counter {
    std::string name;
    std::vector<std::string> metrics;  // summed; the comparison is skipped if any is missing
    double scale = 1;                  // measured × scale is what the model predicts
    std::function<std::optional<double>(const tensor_counts&)> model;
    std::function<tolerance(const known_kernel&, const shape&)> tol;
};

bool ragged(const shape& s) {
    return s.m % 256 != 0 || s.n % 256 != 0 || s.k % 64 != 0;
}

std::vector<counter> counters() {
    const auto always = [](tolerance t) {
        return [t](const known_kernel&, const shape&) { return t; };
    };
    using k = known_kernel::smem_kind;
    return {
        {"tensor FLOPs",
         {"sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32.sum",
          "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.tensor_flops; },
         always(exact())},
        {"FFMA",
         {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.ffma; },
         always(exact())},
        {"FMUL",
         {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.fmul; },
         always(exact())},
        {"FADD",
         {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.fadd; },
         always(exact())},
        {"gmma bytes",
         {"sm__sass_data_bytes_mem_shared_op_gmma.sum"},
         1,
         [](const tensor_counts& c) -> std::optional<double> {
             if (!c.refined.smem_gmma_wavefronts) return std::nullopt;
             return *c.refined.smem_gmma_wavefronts * gmma_wavefront_bytes;
         },
         always(exact())},
        {"ldsm wavefronts",
         {"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.smem_ldsm_wavefronts; },
         always(exact())},
        {"stsm wavefronts",
         {"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.smem_stsm_wavefronts; },
         always(exact())},
        {"ldsm bank conflicts",
         {"sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.smem_ldsm_bank_conflicts; },
         always(exact())},
        // LSU kernels: within 5 %. wgmma and the direct epilogue: no LSU shared traffic at all.
        // TMA epilogue: ldmatrix/stmatrix exactly plus a timing-dependent excess, measured at
        // +0.3 % to +15.7 %.
        {"shared load wavefronts",
         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.smem_load_wavefronts; },
         [](const known_kernel& kk, const shape&) {
             return kk.smem == k::lsu         ? relative(0.05)
                    : kk.smem == k::gmma_only ? exact()
                                              : at_most_above(0.20);
         }},
        {"shared store wavefronts",
         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.smem_store_wavefronts; },
         [](const known_kernel& kk, const shape&) {
             return kk.smem == k::lsu         ? relative(0.05)
                    : kk.smem == k::gmma_only ? exact()
                                              : at_most_above(0.20);
         }},
        // Not modelled: the counter reads 22-23 % below the bytes the copies write, from run
        // to run (docs/models/13_17_tensor.md).
        {"cp.async bytes",
         {"smsp__sass_data_bytes_mem_shared_op_ldgsts.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.smem_ldgsts_bytes; },
         always(not_asserted())},
        // Multicast at a ragged shape: 7.9 % more than the box rule gives (one point, not
        // explained yet); exact at every aligned shape.
        {"TMA load bytes",
         {"l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.tma_load_bytes; },
         [](const known_kernel& kk, const shape& s) {
             return kk.model == model_bf16_cluster && ragged(s) ? relative(0.05) : exact();
         }},
        {"TMA multicast bytes",
         {"l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.tma_multicast_bytes; },
         [](const known_kernel& kk, const shape& s) {
             return kk.model == model_bf16_cluster && ragged(s) ? relative(0.10) : exact();
         }},
        {"TMA store bytes",
         {"l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.tma_store_bytes; },
         always(exact())},
        {"L1 global load bytes",
         {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.l1_global_load_bytes; },
         always(exact())},
        {"L1 global store bytes",
         {"l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.l1_global_store_bytes; },
         always(exact())},
        {"L2 requested bytes",
         {"lrc__request_sectors_op_read_coalescable.sum"},
         32,
         [](const tensor_counts& c) { return c.refined.l2_requested_bytes; },
         always(relative(0.001))},
        {"DRAM read bytes",
         {"dram__bytes_read.sum"},
         1,
         [](const tensor_counts& c) { return c.refined.dram_read_bytes; },
         always(relative(0.15))},
        {"DRAM read + write bytes",
         {"dram__bytes_read.sum", "dram__bytes_write.sum"},
         1,
         [](const tensor_counts& c) {
             return std::optional(*c.refined.dram_read_bytes + *c.refined.dram_write_bytes);
         },
         always(relative(0.15))},
    };
}

std::optional<double> measured(const test::ncu_block& b, const counter& c) {
    double sum = 0;
    for (const auto& m : c.metrics) {
        const auto it = b.metrics.find(m);
        if (it == b.metrics.end()) return std::nullopt;
        sum += it->second;
    }
    return sum * c.scale;
}

// "mma_128x128x32_s4 1024x1024x1024": the shape after the candidate's name, if there is one.
shape shape_of(const test::ncu_block& b, const shape& fallback) {
    const auto space = b.label.find(' ');
    return space == std::string::npos ? fallback : parse_shape(b.label.substr(space + 1));
}

// 1234567 → "1,234,567" (the counts are never negative).
std::string grouped(double v) {
    const std::string digits = std::to_string(std::llround(v));
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace

TEST(TensorCalibration, EveryModelledCounterWithinItsTolerance) {
    const std::string dir = std::string(TGEMM_SOURCE_DIR) + "/docs/tensor/";
    const calibration_file files[] = {
        {"ncu-calibration-2048.csv", {2048, 2048, 2048}},
        {"ncu-calibration-1000x776x328.csv", {1000, 776, 328}},
        {"ncu-calibration-sizes.csv", {}},
    };
    const auto kernels = known_kernels();
    const auto all = counters();
    const bool table = std::getenv("TGEMM_TENSOR_TABLE") != nullptr;
    const auto h100 = test::h100();  // 50 MiB of L2, 132 SMs
    int compared = 0, asserted = 0;
    for (const auto& f : files) {
        const auto blocks = test::read_ncu_blocks(dir + f.file);
        ASSERT_FALSE(blocks.empty()) << "cannot read " << dir + f.file;
        for (const auto& b : blocks) {
            const known_kernel* k = nullptr;
            for (const auto& kk : kernels)
                if (kk.matches(b.kernel)) k = &kk;
            ASSERT_NE(k, nullptr) << f.file << ": no model for " << b.kernel;
            const shape s = shape_of(b, f.default_shape);
            const tensor_counts predicted = k->model(s, h100);
            for (const auto& c : all) {
                const auto model = c.model(predicted);
                const auto meas = measured(b, c);
                if (!model || !meas) continue;
                const tolerance t = c.tol(*k, s);
                ++compared;
                if (t.how != tolerance::kind::not_asserted) ++asserted;
                EXPECT_TRUE(t.holds(*model, *meas))
                    << k->name << " at " << to_arg(s) << " (" << f.file << ", " << b.label
                    << "): " << c.name << " model " << grouped(*model) << ", measured "
                    << grouped(*meas) << ", tolerance " << t.text();
                if (table)
                    std::cout << "| " << k->name << " | " << to_string(s) << " | " << c.name
                              << " | " << grouped(*model) << " | " << grouped(*meas) << " | "
                              << (*model != 0 ? std::to_string(*meas / *model).substr(0, 6)
                                              : (*meas == 0 ? std::string("—") : std::string("∞")))
                              << " | " << t.text() << " |\n";
            }
        }
    }
    // 7 + 7 + 15 calibrated launches: a file that parses to fewer comparisons has changed.
    EXPECT_GE(asserted, 400) << compared << " comparisons";
}
