#pragma once
// The device-side state for one problem shape: inputs, the pristine C, the working C, the
// cuBLAS reference and the per-element tolerance, plus an L2 flush buffer.
#include <cstdint>
#include <vector>

#include "collect/cuda_handles.hpp"
#include "core/shape.hpp"

namespace tgemm {

struct workspace {
    // Without a cuBLAS handle there is no reference (run-kernel launches only the rung);
    // with l2_bytes = 0 there is no flush buffer.
    workspace(const shape& s, float alpha, float beta, std::int64_t l2_bytes, cudaStream_t stream,
              cublasHandle_t cublas, std::uint64_t seed);

    shape size;
    float alpha;
    float beta;
    cudaStream_t stream;
    device_buffer a, b, c0, c;
    std::vector<float> reference;  // αAB + βC from cuBLAS, pedantic FP32
    std::vector<float> tolerance;  // per-element bound on |got − reference|
    device_buffer flush;           // 3× L2 of scratch for flush_l2

    // Puts the original C back (β ≠ 0 makes each launch consume its input).
    void restore_c() const;
    // Leaves L2 empty of valid lines (see collect/l2_flush.hpp).
    void flush_l2() const;
};

}  // namespace tgemm
