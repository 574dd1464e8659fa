#pragma once
// What a rung's body calls at the top of each step of K, before the step's loads. The rung's own
// kernel passes no_step_hook, which the compiler drops (its SASS is the same as without the
// call); the GPU test that notes when each CTA reaches each step
// (tests/collect/cta_steps_test.cpp) passes one that takes a timestamp, so the code it observes
// is the rung's own.
namespace tgemm::kernels {

struct no_step_hook {
    __device__ __forceinline__ void operator()(int /*k0*/) const {}
};

}  // namespace tgemm::kernels
