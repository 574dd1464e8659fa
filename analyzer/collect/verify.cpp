#include "collect/verify.hpp"

#include <cmath>

#include "collect/cuda_check.hpp"

namespace tgemm {

std::string verify_result::describe(const std::string& kernel) const {
    return fmt::format(
        "kernel '{}' differs from cuBLAS at C[{}][{}]: got {:.9g}, expected {:.9g} (tolerance "
        "{:.3g}, {:.1f}x over); {} element(s) out of tolerance",
        kernel, worst_row, worst_col, got, expected, tolerance, worst_ratio, bad_elements);
}

verify_result verify_rung(const bound_launch& launch, const workspace& ws) {
    ws.restore_c();
    // Poison is not possible (β·C needs C), but an unwritten element keeps its input value,
    // which differs from the reference by |α·(AB)ij| — far outside the tolerance.
    launch();
    TGEMM_CUDA(cudaGetLastError());
    TGEMM_CUDA(cudaStreamSynchronize(ws.stream));
    const std::vector<float> got = ws.download_c();
    verify_result v;
    v.ok = true;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double diff = std::fabs(static_cast<double>(got[i]) - ws.reference[i]);
        double ratio = diff / ws.tolerance[i];
        if (std::isnan(got[i])) ratio = INFINITY;
        if (ratio > 1.0) {
            v.ok = false;
            ++v.bad_elements;
        }
        if (ratio > v.worst_ratio || (i == 0)) {
            v.worst_ratio = ratio;
            v.worst_row = static_cast<std::int64_t>(i) / ws.size.n;
            v.worst_col = static_cast<std::int64_t>(i) % ws.size.n;
            v.got = got[i];
            v.expected = ws.reference[i];
            v.tolerance = ws.tolerance[i];
        }
    }
    return v;
}

}  // namespace tgemm
