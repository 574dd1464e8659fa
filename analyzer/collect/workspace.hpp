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

// What a workspace allocates on the GPU, in floats (16-bit operands rounded up to whole floats):
// the constructor allocates exactly this, so the memory check before it (measure.cpp) cannot
// drift from what it allocates.
struct workspace_plan {
    std::size_t a = 0, b = 0;
    std::size_t c = 0;          // each of the two: the pristine C and the working C
    std::size_t flush = 0;      // the L2 flush buffer: 4× the L2
    std::size_t reference = 0;  // FP32 copies of A, B and C that the cuBLAS reference runs on
    // The most allocated at once: everything, while the reference runs (its copies are freed
    // after it).
    [[nodiscard]] std::size_t bytes() const;
};

// The plan for shape `s` with operand `types`; `reference`: with the FP32 reference (a cuBLAS
// handle was given); l2_bytes = 0: no flush buffer.
[[nodiscard]] workspace_plan plan_workspace(const shape& s, operand_types types,
                                            std::int64_t l2_bytes, bool reference);

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
