#include "tensor/blockidx_grid.hpp"

#include "gpu/occupancy.hpp"
#include "tensor/tensor_model_common.hpp"
#include "tensor/tensor_traffic.hpp"

namespace tgemm::kernels::tensor_model {

double blockidx_grid::padded_tensor_flops() const {
    return 2.0 * double(gm * bm) * double(gn * bn) * double(kt * bk);
}

std::string blockidx_grid::padded_product() const {
    return "2·" + std::to_string(gm * bm) + "·" + std::to_string(gn * bn) + "·" +
           std::to_string(kt * bk);
}

blockidx_grid grid_of(const shape& s, int bm, int bn, int bk) {
    return {bm, bn, bk, ceil_div(s.m, bm), ceil_div(s.n, bn), ceil_div(s.k, bk)};
}

tensor_counts blockidx_counts(const shape& s, const blockidx_grid& g, int wm, int wn,
                              const std::string& what) {
    tensor_counts r;
    r.textbook = textbook(s, g.bm, g.bn, wm, wn, what);
    r.refined.tensor_flops = g.padded_tensor_flops();
    set_guarded_epilogue_fp32(r.refined, s);
    return r;
}

void set_blockidx_dram(tensor_counts& r, const shape& s, const model_context& mc,
                       const blockidx_grid& g, const launch_info& launch,
                       const std::string& limit) {
    const int per_sm = resident_ctas_per_sm(mc.limits, launch.cta());
    const auto w = dram_reads(
        s, g.bm, g.bn, launch_order_waves(g.gm, g.gn, std::int64_t(per_sm) * mc.sm_count), mc);
    set_dram(r, w, mc.l2_bytes,
             model::ctas(per_sm) + " per SM (" + limit + "), CTAs start in blockIdx order");
}

}  // namespace tgemm::kernels::tensor_model
