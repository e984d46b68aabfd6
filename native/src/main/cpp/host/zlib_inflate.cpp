#include "zlib_inflate.hpp"

#include <dlfcn.h>

#include <memory>

namespace sam3n::host {

namespace {

// libdeflate's C interface (libdeflate.h, stable since 1.0), declared here so that building needs no headers.
struct LibdeflateDecompressor;
using AllocDecompressor = LibdeflateDecompressor* (*)();
using FreeDecompressor = void (*)(LibdeflateDecompressor*);
using ZlibDecompress = int (*)(LibdeflateDecompressor*, const void* in, size_t in_nbytes, void* out,
                               size_t out_nbytes_avail, size_t* actual_out_nbytes_ret);
constexpr int kLibdeflateSuccess = 0;

struct Libdeflate {
    AllocDecompressor alloc = nullptr;
    FreeDecompressor free = nullptr;
    ZlibDecompress zlib_decompress = nullptr;

    bool loaded() const { return alloc != nullptr && free != nullptr && zlib_decompress != nullptr; }
};

/** The library's functions, looked up once; all null where it is absent. It stays loaded for the process. */
const Libdeflate& libdeflate() {
    static const Libdeflate functions = [] {
        Libdeflate found;
        void* handle = dlopen("libdeflate.so.0", RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) {
            return found;
        }
        found.alloc = reinterpret_cast<AllocDecompressor>(dlsym(handle, "libdeflate_alloc_decompressor"));
        found.free = reinterpret_cast<FreeDecompressor>(dlsym(handle, "libdeflate_free_decompressor"));
        found.zlib_decompress = reinterpret_cast<ZlibDecompress>(dlsym(handle, "libdeflate_zlib_decompress"));
        return found;
    }();
    return functions;
}

/** A decompressor per thread: libdeflate's are not to be shared between threads, and cost 32 KB each. */
LibdeflateDecompressor* thread_decompressor() {
    struct Release {
        void operator()(LibdeflateDecompressor* d) const { libdeflate().free(d); }
    };
    thread_local std::unique_ptr<LibdeflateDecompressor, Release> decompressor(libdeflate().alloc());
    return decompressor.get();
}

}  // namespace

bool zlib_inflate_available() { return libdeflate().loaded(); }

bool zlib_inflate_exactly(const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size) {
    if (!zlib_inflate_available()) {
        return false;
    }
    LibdeflateDecompressor* decompressor = thread_decompressor();
    // no actual-size pointer: libdeflate then fails a stream that inflates to fewer bytes than out_size
    return decompressor != nullptr &&
           libdeflate().zlib_decompress(decompressor, in, in_size, out, out_size, nullptr) == kLibdeflateSuccess;
}

}  // namespace sam3n::host
