#pragma once
// Kernels that exercise the counter collector itself (tests/collect/collector_test.cpp).
#include <cuda_runtime_api.h>

#include <cstddef>

namespace tgemm::probe {

// Every SM busy for `cycles` clocks, touching no memory.
void spin(long long cycles, int* sink, cudaStream_t s);
// Reads n floats once.
void touch(const float* p, std::size_t n, float* out, cudaStream_t s);
// Writes n floats once, whole sectors.
void store(float* p, std::size_t n, cudaStream_t s);
// One CTA per SM (`sms` of them), each reading all n floats.
void read_by_every_sm(const float* p, std::size_t n, float* out, int sms, cudaStream_t s);

}  // namespace tgemm::probe
