// The tensor-core models' shared pieces (tensor_model_common.hpp) and cuBLAS BF16's compulsory
// traffic. The rungs' models: tensor_wmma_model.cpp (13), tensor_mma_model.cpp (14),
// tensor_wgmma_model.cpp (15), tensor_ws_model.cpp (16, 17); docs/models/13_17_tensor.md.
#include <string>

#include "tensor/tensor_model_common.hpp"
#include "tensor/tensor_models.hpp"
#include "tensor/tensor_traffic.hpp"

namespace tgemm::kernels::tensor_model {

tensor_textbook textbook(const shape& s, int bm, int bn, int wm, int wn, const std::string& what) {
    tensor_textbook t;
    const double mnk = double(s.m) * double(s.n) * double(s.k);
    const double mn = double(s.m) * double(s.n);
    t.flops = 2.0 * mnk + 2.0 * mn;
    t.global_bytes = (mnk / bn + mnk / bm) * bf16 + 2.0 * mn * bf16;
    t.smem_bytes = mnk * (1.0 / wn + 1.0 / wm) * bf16;
    t.formula = "(MNK/" + std::to_string(bn) + " + MNK/" + std::to_string(bm) +
                ")·2 B + 2·MN·2 B; shared MNK·(1/" + std::to_string(wn) + " + 1/" +
                std::to_string(wm) + ")·2 B (" + what + ")";
    return t;
}

void add_dram_notes(tensor_counts& r, const wave_reads& w, std::int64_t l2_bytes) {
    if (w.max_wave_strip_bytes > 0.5 * double(l2_bytes))
        model::set_dram_read_band(
            r.refined, w.total(), w.unshared_bytes,
            "a wave touches " + str(w.max_wave_strip_bytes / 1e6) +
                " MB of A and B strips, more than half the L2 (" +
                str(0.5 * double(l2_bytes) / 1e6) +
                " MB), so CTAs share a strip through L2 only while they stay close along K: "
                "between every strip read once per wave (the model) and no strip shared");
    kernels::add_l2_residency_band(r.refined, w, l2_bytes);
}

void set_dram(tensor_counts& r, const wave_reads& w, std::int64_t l2_bytes,
              const std::string& residency) {
    r.refined.dram_read_bytes = w.total();
    kernels::set_wave_dram_writes(r.refined, w);
    r.refined.notes.push_back(
        "DRAM: " + residency + "; " + std::to_string(w.waves) + " waves; " +
        (w.waves <= 1 ? "A and B read once (one wave holds all)"
                      : std::string("each wave reads the strips of A and B it touches, ") +
                            kernels::strip_reuse_note) +
        "; C read once (β ≠ 0)");
    add_dram_notes(r, w, l2_bytes);
}

tensor_counts model_cublas_bf16(const shape& s, const model_context& mc) {
    tensor_counts r;
    r.textbook.flops =
        2.0 * double(s.m) * double(s.n) * double(s.k) + 2.0 * double(s.m) * double(s.n);
    r.textbook.global_bytes = compulsory_read_bytes(s) + double(bf16) * double(s.m) * double(s.n);
    r.textbook.formula = "(MK + KN + 2MN)·2 B: compulsory";
    r.refined.tensor_flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
    r.refined.dram_read_bytes = compulsory_read_bytes(s);
    r.refined.dram_write_bytes = dram_write_bytes(s, mc.l2_bytes);
    r.refined.notes.push_back(
        "cuBLAS picks its own kernel per shape; only its compulsory traffic is "
        "modelled: A, B and C read once, C written once when the footprint exceeds "
        "half the L2; tensor FLOPs 2MNK (exact where its tiles divide the shape)");
    if (compulsory_read_bytes(s) > 0.5 * double(mc.l2_bytes))
        r.refined.notes.push_back(
            "DRAM: A and B exceed half the L2; cuBLAS re-reads strips of them as "
            "its tiling requires, which is not modelled");
    model::add_dram_write_notes(r.refined);
    return r;
}

}  // namespace tgemm::kernels::tensor_model
