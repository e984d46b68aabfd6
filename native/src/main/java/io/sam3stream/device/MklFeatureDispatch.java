package io.sam3stream.device;

import java.io.IOException;

/**
 * Makes libtorch's MKL choose its float32 kernels by the CPU's instruction sets rather than by its vendor.
 *
 * <p>MKL, linked into libtorch, runs its AVX2 kernels on every AMD CPU, Zen 4 and Zen 5 included, which execute
 * AVX-512. Its choice rests on two service functions of its own that libtorch calls through the dynamic linker;
 * the small library {@code libsam3mkldispatch.so} packed in this jar defines both (answering "an Intel CPU, not a
 * Zen"), and loading it into the process's global symbol scope before MKL's first product makes MKL's lookups find
 * those definitions first. MKL then picks among its kernels by the CPUID feature bits, as on Intel CPUs. Whether
 * to do this on a given CPU is the engine's decision, not this class's.
 */
public final class MklFeatureDispatch {

    /** The packed library that defines MKL's vendor checks. */
    static final String LIBRARY_FILE = "libsam3mkldispatch.so";

    /** One of the functions MKL asks whether the CPU is an Intel one; the library answers it. */
    public static final String VENDOR_CHECK = "mkl_serv_intel_cpu_true";

    private static boolean loaded;

    private MklFeatureDispatch() {}

    /**
     * Loads the library into the global symbol scope, once per process. It takes effect for the MKL of a libtorch
     * that has not yet run a float32 product; later calls do nothing.
     *
     * @throws DeviceException ({@link DeviceStatus#LIBRARY_UNAVAILABLE}) if the native library or the packed
     *     dispatch library cannot be loaded (the process then keeps MKL's own choice)
     */
    public static synchronized void load() {
        if (loaded) {
            return;
        }
        NativeLibrary.load();
        try {
            NativeLibrary.loadPacked(LIBRARY_FILE, file -> {
                String failure = loadGlobally(file.toAbsolutePath().toString());
                if (failure != null) {
                    throw new IOException(failure);
                }
            });
        } catch (IOException | UnsatisfiedLinkError e) {
            throw new DeviceException(DeviceStatus.LIBRARY_UNAVAILABLE,
                    "cannot load MKL's feature dispatch (" + LIBRARY_FILE + "): " + e.getMessage(), e);
        }
        loaded = true;
    }

    /**
     * The file whose definition of {@code symbol} the process's global symbol scope holds (the one a library loaded
     * without {@code RTLD_GLOBAL}, such as libtorch, binds to first), or null where it holds none.
     */
    public static String definingFile(String symbol) {
        NativeLibrary.load();
        return globalDefinitionFile(symbol);
    }

    /** dlopen with RTLD_GLOBAL: null when loaded, else the dynamic linker's reason. */
    private static native String loadGlobally(String path);

    private static native String globalDefinitionFile(String symbol);
}
