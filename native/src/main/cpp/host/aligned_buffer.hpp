// Float storage aligned to a cache line, for packed GEMM operands.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace sam3n::host {

template <typename T>
struct CacheLineAllocator {
    using value_type = T;
    static constexpr std::size_t kAlignment = 64;

    CacheLineAllocator() = default;
    template <typename U>
    CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        std::size_t bytes = (n * sizeof(T) + kAlignment - 1) / kAlignment * kAlignment;
        void* p = std::aligned_alloc(kAlignment, bytes == 0 ? kAlignment : bytes);
        if (p == nullptr) {
            throw std::bad_alloc();
        }
        return static_cast<T*>(p);
    }

    void deallocate(T* p, std::size_t) noexcept { std::free(p); }

    template <typename U>
    bool operator==(const CacheLineAllocator<U>&) const noexcept { return true; }
    template <typename U>
    bool operator!=(const CacheLineAllocator<U>&) const noexcept { return false; }
};

using AlignedFloats = std::vector<float, CacheLineAllocator<float>>;

}  // namespace sam3n::host
