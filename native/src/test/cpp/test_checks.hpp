// The few lines of test harness the ctest programs share: checks that count failures instead of stopping, and
// the exit status that reports them.
#pragma once

#include <cstdio>
#include <string>

namespace sam3n::testing {

inline int& failure_count() {
    static int failures = 0;
    return failures;
}

inline void check(bool ok, const std::string& what) {
    if (!ok) {
        ++failure_count();
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    }
}

/** main's return value: 0 with `passed` printed, or 1 with the number of failed checks. */
inline int finish(const char* passed) {
    if (failure_count() > 0) {
        std::fprintf(stderr, "%d check(s) failed\n", failure_count());
        return 1;
    }
    std::printf("%s\n", passed);
    return 0;
}

}  // namespace sam3n::testing
