// Whole-stream zlib inflation through libdeflate, for the engine's PNG decoder. libdeflate inflates about twice as
// fast as zlib (which the JDK's Inflater wraps), and a PNG's inflate is most of its decode. It is loaded at run time
// where the system has it (libdeflate.so.0): the library the jar carries keeps needing nothing but glibc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sam3n::host {

/** True when libdeflate loads here and has the functions this uses. */
bool zlib_inflate_available();

/**
 * Inflates the zlib stream in[0, in_size) into exactly out_size bytes. False when it cannot: libdeflate is not
 * available, or the stream is corrupt (its checksum included), or it inflates to fewer or more bytes. The caller
 * then takes its own path, which reports the error. Safe to call from any number of threads.
 */
bool zlib_inflate_exactly(const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size);

}  // namespace sam3n::host
