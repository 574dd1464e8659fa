#pragma once
// The device-side state for one problem shape and one set of operand types: inputs, the
// pristine C, the working C, the FP32 reference and the per-element tolerance, plus an L2
// flush buffer.
#include <cstdint>
#include <vector>

#include "collect/cuda_handles.hpp"
#include "core/element_type.hpp"
#include "core/shape.hpp"
#include "rung.hpp"

namespace tgemm {

struct workspace {
    // Without a cuBLAS handle there is no reference (run-kernel launches only the rung);
    // with l2_bytes = 0 there is no flush buffer.
    workspace(const shape& s, operand_types types, float alpha, float beta, std::int64_t l2_bytes,
              cudaStream_t stream, cublasHandle_t cublas, std::uint64_t seed);

    shape size;
    operand_types types;
    float alpha;
    float beta;
    cudaStream_t stream;
    device_buffer a, b, c0, c;     // elements of types.ab (A, B) and types.c (C)
    std::vector<float> reference;  // αAB + βC in pedantic FP32 on the inputs as stored
    std::vector<float> tolerance;  // per-element bound on |got − reference|
    device_buffer flush;           // 4× L2 of scratch for flush_l2

    // The arguments a rung launches on.
    [[nodiscard]] gemm_args args() const;
    // Puts the original C back (β ≠ 0 makes each launch consume its input).
    void restore_c() const;
    // Leaves L2 clean and empty of A, B and C (see collect/l2_flush.hpp).
    void flush_l2() const;
    // The working C, converted to float.
    [[nodiscard]] std::vector<float> download_c() const;
};

}  // namespace tgemm
