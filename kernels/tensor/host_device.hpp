#pragma once
// TGEMM_HD marks the functions that a tensor kernel and its host-side refined model both call
// (accumulator layouts, swizzles, the persistent schedule): __host__ __device__ under nvcc, plain
// C++ in host-only files, so that the model counts through the very code the kernel runs.
#if defined(__CUDACC__)
#define TGEMM_HD __host__ __device__
#else
#define TGEMM_HD
#endif
