#pragma once
// TGEMM_THROW formats with fmt, which nvcc cannot compile: include this from .cpp files only.
#include <fmt/format.h>

#include "core/error.hpp"

// The message is one line a user can act on; file:line stays in the exception for debugging.
#define TGEMM_THROW(kind, ...) \
    throw ::tgemm::error(::tgemm::error_kind::kind, ::fmt::format(__VA_ARGS__))
