// JNI glue over sam3native.h for io.sam3stream.device.NativeApi. Every entry point converts failures into a
// Java io.sam3stream.device.DeviceException: a C++ exception never unwinds into the JVM.
#include <dlfcn.h>
#include <jni.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "../core/error.hpp"
#include "../host/bf16_attention.hpp"
#include "../host/thread_pool.hpp"
#include "../host/zlib_inflate.hpp"
#include "io_sam3stream_device_Bf16Attention.h"
#include "io_sam3stream_device_MklFeatureDispatch.h"
#include "io_sam3stream_device_NativeApi.h"
#include "io_sam3stream_device_ZlibInflate.h"
#include "sam3native.h"

namespace {

jclass device_exception_class = nullptr;
jmethodID device_exception_init = nullptr;

/** A Java exception is already pending (thrown by a JNI function); the entry point just returns. */
struct JavaExceptionPending {};

/** JNI's NewStringUTF wants modified UTF-8; error texts are ASCII, anything else becomes '?'. */
std::string ascii(const char* text) {
    std::string s(text == nullptr ? "" : text);
    std::replace_if(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }, '?');
    return s;
}

void throw_device_exception(JNIEnv* env, int status, const char* message) noexcept {
    if (env->ExceptionCheck()) {
        return;
    }
    jstring text = nullptr;
    try {
        text = env->NewStringUTF(ascii(message).c_str());
    } catch (...) {
        text = env->NewStringUTF("out of memory");
    }
    if (text == nullptr) {
        return;  // NewStringUTF threw OutOfMemoryError, which is now pending
    }
    auto exception = static_cast<jthrowable>(
        env->NewObject(device_exception_class, device_exception_init, static_cast<jint>(status), text));
    if (exception != nullptr) {
        env->Throw(exception);
    }
}

void check_java(JNIEnv* env) {
    if (env->ExceptionCheck()) {
        throw JavaExceptionPending{};
    }
}

/** Turns a failed C API call into a sam3n::Error carrying the library's explanation. */
void check(sam3n_status status) {
    if (status != SAM3N_OK) {
        throw sam3n::Error(status, sam3n_last_error());
    }
}

template <typename R, typename Body>
R guarded(JNIEnv* env, R on_failure, Body&& body) noexcept {
    try {
        return body();
    } catch (const JavaExceptionPending&) {
    } catch (const sam3n::Error& e) {
        throw_device_exception(env, e.status(), e.what());
    } catch (const std::bad_alloc&) {
        throw_device_exception(env, SAM3N_OUT_OF_MEMORY, "out of host memory in the JNI bridge");
    } catch (const std::exception& e) {
        throw_device_exception(env, SAM3N_INTERNAL, e.what());
    } catch (...) {
        throw_device_exception(env, SAM3N_INTERNAL, "unexpected failure of unknown type in the JNI bridge");
    }
    return on_failure;
}

template <typename Body>
void guarded_void(JNIEnv* env, Body&& body) noexcept {
    guarded(env, 0, [&] {
        body();
        return 0;
    });
}

sam3n_handle to_handle(jlong handle) { return static_cast<sam3n_handle>(handle); }

/** The memory of a direct buffer, which the native side reads and writes in place. */
struct DirectBuffer {
    void* address;
    jlong capacity;
};

DirectBuffer direct_buffer(JNIEnv* env, const char* what, jobject buffer) {
    sam3n::require_argument(buffer != nullptr, std::string(what) + ": buffer is required");
    void* address = env->GetDirectBufferAddress(buffer);
    const jlong capacity = env->GetDirectBufferCapacity(buffer);
    check_java(env);
    sam3n::require_argument(address != nullptr && capacity >= 0,
                            std::string(what) + ": not a direct ByteBuffer (the native side reads memory in place)");
    return {address, capacity};
}

/** A direct buffer (as a whole) plus dtype and shape as the C API's tensor view. */
sam3n_tensor tensor(JNIEnv* env, const char* what, jobject buffer, jint dtype, jlongArray shape) {
    sam3n::require_argument(buffer != nullptr && shape != nullptr, std::string(what) + ": buffer and shape are required");
    const DirectBuffer memory = direct_buffer(env, what, buffer);
    const jsize rank = env->GetArrayLength(shape);
    sam3n::require_argument(rank <= SAM3N_MAX_RANK, std::string(what) + ": rank " + std::to_string(rank) +
                                                        " exceeds " + std::to_string(SAM3N_MAX_RANK));
    sam3n_tensor t{};
    t.data = memory.address;
    t.bytes = static_cast<uint64_t>(memory.capacity);
    t.dtype = static_cast<sam3n_dtype>(dtype);
    t.rank = static_cast<int32_t>(rank);
    std::vector<jlong> dims(static_cast<std::size_t>(rank));
    env->GetLongArrayRegion(shape, 0, rank, dims.data());
    check_java(env);
    std::copy(dims.begin(), dims.end(), t.shape);
    return t;
}

/** The address of a direct buffer that holds at least `bytes` bytes. */
void* direct_address(JNIEnv* env, const char* what, jobject buffer, int64_t bytes) {
    const DirectBuffer memory = direct_buffer(env, what, buffer);
    sam3n::require_argument(memory.capacity >= bytes, std::string(what) + ": " + std::to_string(memory.capacity) +
                                                          " bytes, the shape needs " + std::to_string(bytes));
    return memory.address;
}

/**
 * Runs the bfloat16 attention kernel on a pool of the given size. Each calling thread keeps its own pools, one per
 * size, made at first use: a pool runs one loop at a time, and engines that attend on several threads of one
 * process (labelling workers, say) must not wait for each other. A pool of one thread has no workers.
 */
void bf16_attention_on(int threads, const uint16_t* q, const uint16_t* k, const uint16_t* v, uint16_t* out,
                       const sam3n::host::Bf16AttentionShape& shape, float scale, sam3n::host::Bf16AttentionBody body) {
    thread_local std::map<int, std::unique_ptr<sam3n::host::ThreadPool>> pools;
    sam3n::require_argument(threads >= 1 && threads <= 1024, "bfloat16 attention: threads must be 1 to 1024");
    std::unique_ptr<sam3n::host::ThreadPool>& pool = pools[threads];
    if (!pool) {
        pool = std::make_unique<sam3n::host::ThreadPool>(threads);
    }
    sam3n::host::bf16_attention(q, k, v, out, shape, scale, *pool, body);
}

/** The body a Java Bf16Attention.Body ordinal names: 0 vectors, 1 tiles. */
sam3n::host::Bf16AttentionBody bf16_attention_body(jint ordinal) {
    sam3n::require_argument(ordinal == 0 || ordinal == 1, "bfloat16 attention: body must be 0 (vectors) or 1 (tiles)");
    return ordinal == 0 ? sam3n::host::Bf16AttentionBody::kVectors : sam3n::host::Bf16AttentionBody::kTiles;
}

/** Holds a Java string's modified-UTF-8 characters for the duration of a call. */
class Utf8 {
public:
    Utf8(JNIEnv* env, jstring s) : env_(env), s_(s) {
        sam3n::require_argument(s != nullptr, "name is null");
        chars_ = env->GetStringUTFChars(s, nullptr);
        check_java(env);
    }
    ~Utf8() {
        if (chars_ != nullptr) {
            env_->ReleaseStringUTFChars(s_, chars_);
        }
    }
    Utf8(const Utf8&) = delete;
    Utf8& operator=(const Utf8&) = delete;
    const char* get() const { return chars_; }

private:
    JNIEnv* env_;
    jstring s_;
    const char* chars_ = nullptr;
};

jclass global_class(JNIEnv* env, const char* name) {
    jclass local = env->FindClass(name);
    if (local == nullptr) {
        return nullptr;
    }
    auto global = static_cast<jclass>(env->NewGlobalRef(local));
    env->DeleteLocalRef(local);
    return global;
}

}  // namespace

extern "C" {

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void*) {
    JNIEnv* env = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) != JNI_OK) {
        return JNI_ERR;
    }
    device_exception_class = global_class(env, "io/sam3stream/device/DeviceException");
    if (device_exception_class == nullptr) {
        return JNI_ERR;
    }
    device_exception_init = env->GetMethodID(device_exception_class, "<init>", "(ILjava/lang/String;)V");
    return device_exception_init == nullptr ? JNI_ERR : JNI_VERSION_1_8;
}

JNIEXPORT jint JNICALL Java_io_sam3stream_device_NativeApi_apiVersion(JNIEnv*, jclass) {
    return sam3n_api_version();
}

JNIEXPORT jstring JNICALL Java_io_sam3stream_device_NativeApi_implementation(JNIEnv* env, jclass) {
    return env->NewStringUTF(sam3n_implementation());
}

JNIEXPORT jlong JNICALL Java_io_sam3stream_device_NativeApi_open(
    JNIEnv* env, jclass, jint device_id, jlong l1_small_size, jlong trace_region_size, jint num_threads,
    jboolean fused, jint image_size, jint pretrain_image_size, jint patch_size, jint embed_dim, jint depth,
    jint num_heads, jint mlp_hidden, jint window_size, jintArray global_blocks, jint d_model, jint encoder_layers,
    jint encoder_heads, jint dim_feedforward) {
    return guarded(env, jlong{0}, [&] {
        sam3n::require_argument(global_blocks != nullptr, "global blocks are required");
        sam3n::require_argument(l1_small_size >= 0 && trace_region_size >= 0, "sizes must not be negative");
        const jsize count = env->GetArrayLength(global_blocks);
        std::vector<jint> blocks(static_cast<std::size_t>(count));
        env->GetIntArrayRegion(global_blocks, 0, count, blocks.data());
        check_java(env);
        std::vector<int32_t> globals(blocks.begin(), blocks.end());
        sam3n_open_options options{device_id, static_cast<uint64_t>(l1_small_size),
                                   static_cast<uint64_t>(trace_region_size), num_threads, fused ? 1 : 0};
        sam3n_vit_config vit{image_size, pretrain_image_size, patch_size, embed_dim, depth, num_heads,
                             mlp_hidden, window_size, static_cast<int32_t>(count), globals.data()};
        sam3n_encoder_config encoder{d_model, encoder_layers, encoder_heads, dim_feedforward};
        sam3n_handle handle = 0;
        check(sam3n_open(&options, &vit, &encoder, &handle));
        return static_cast<jlong>(handle);
    });
}

JNIEXPORT jint JNICALL Java_io_sam3stream_device_NativeApi_requiredWeightCount(JNIEnv* env, jclass, jlong handle) {
    return guarded(env, jint{0}, [&] {
        int32_t count = 0;
        check(sam3n_required_weight_count(to_handle(handle), &count));
        return static_cast<jint>(count);
    });
}

JNIEXPORT jstring JNICALL Java_io_sam3stream_device_NativeApi_requiredWeightName(JNIEnv* env, jclass, jlong handle,
                                                                                 jint index) {
    return guarded(env, static_cast<jstring>(nullptr), [&] {
        const char* name = nullptr;
        int32_t rank = 0;
        int64_t shape[SAM3N_MAX_RANK];
        check(sam3n_required_weight(to_handle(handle), index, &name, &rank, shape));
        jstring s = env->NewStringUTF(name);
        check_java(env);
        return s;
    });
}

JNIEXPORT jlongArray JNICALL Java_io_sam3stream_device_NativeApi_requiredWeightShape(JNIEnv* env, jclass,
                                                                                     jlong handle, jint index) {
    return guarded(env, static_cast<jlongArray>(nullptr), [&] {
        const char* name = nullptr;
        int32_t rank = 0;
        int64_t shape[SAM3N_MAX_RANK];
        check(sam3n_required_weight(to_handle(handle), index, &name, &rank, shape));
        jlongArray out = env->NewLongArray(rank);
        check_java(env);
        std::vector<jlong> dims(shape, shape + rank);
        env->SetLongArrayRegion(out, 0, rank, dims.data());
        check_java(env);
        return out;
    });
}

JNIEXPORT void JNICALL Java_io_sam3stream_device_NativeApi_uploadWeight(JNIEnv* env, jclass, jlong handle,
                                                                        jstring name, jobject data, jint dtype,
                                                                        jlongArray shape) {
    guarded_void(env, [&] {
        Utf8 utf8(env, name);
        sam3n_tensor weight = tensor(env, utf8.get(), data, dtype, shape);
        check(sam3n_upload_weight(to_handle(handle), utf8.get(), &weight));
    });
}

JNIEXPORT void JNICALL Java_io_sam3stream_device_NativeApi_commitWeights(JNIEnv* env, jclass, jlong handle) {
    guarded_void(env, [&] { check(sam3n_commit_weights(to_handle(handle))); });
}

JNIEXPORT void JNICALL Java_io_sam3stream_device_NativeApi_runBackbone(JNIEnv* env, jclass, jlong handle,
                                                                       jobject image, jint image_type,
                                                                       jlongArray image_shape, jobject trunk_out,
                                                                       jint trunk_out_type,
                                                                       jlongArray trunk_out_shape) {
    guarded_void(env, [&] {
        sam3n_tensor in = tensor(env, "image", image, image_type, image_shape);
        sam3n_tensor out = tensor(env, "trunk_out", trunk_out, trunk_out_type, trunk_out_shape);
        check(sam3n_run_backbone(to_handle(handle), &in, &out));
    });
}

JNIEXPORT void JNICALL Java_io_sam3stream_device_NativeApi_runFusionEncoder(
    JNIEnv* env, jclass, jlong handle, jobject features, jint features_type, jlongArray features_shape,
    jobject pos, jint pos_type, jlongArray pos_shape, jobject prompt, jint prompt_type, jlongArray prompt_shape,
    jobject mask, jint mask_type, jlongArray mask_shape, jobject memory, jint memory_type,
    jlongArray memory_shape) {
    guarded_void(env, [&] {
        sam3n_tensor f = tensor(env, "image_features", features, features_type, features_shape);
        sam3n_tensor p = tensor(env, "pos", pos, pos_type, pos_shape);
        sam3n_tensor pr = tensor(env, "prompt", prompt, prompt_type, prompt_shape);
        sam3n_tensor m = tensor(env, "prompt_mask", mask, mask_type, mask_shape);
        sam3n_tensor out = tensor(env, "memory", memory, memory_type, memory_shape);
        check(sam3n_run_fusion_encoder(to_handle(handle), &f, &p, &pr, &m, &out));
    });
}

JNIEXPORT jstring JNICALL Java_io_sam3stream_device_NativeApi_describe(JNIEnv* env, jclass, jlong handle) {
    return guarded(env, static_cast<jstring>(nullptr), [&] {
        const char* text = nullptr;
        check(sam3n_describe(to_handle(handle), &text));
        jstring s = env->NewStringUTF(ascii(text).c_str());
        check_java(env);
        return s;
    });
}

JNIEXPORT jlongArray JNICALL Java_io_sam3stream_device_NativeApi_encoderTrace(JNIEnv* env, jclass, jlong handle) {
    return guarded(env, static_cast<jlongArray>(nullptr), [&] {
        sam3n_encoder_trace status{};
        check(sam3n_encoder_trace_status(to_handle(handle), &status));
        const jlong values[] = {status.expected, status.captured, status.traced_runs, status.eager_runs};
        jlongArray out = env->NewLongArray(4);
        check_java(env);
        env->SetLongArrayRegion(out, 0, 4, values);
        return out;
    });
}

JNIEXPORT void JNICALL Java_io_sam3stream_device_NativeApi_close(JNIEnv* env, jclass, jlong handle) {
    guarded_void(env, [&] { check(sam3n_close(to_handle(handle))); });
}

JNIEXPORT jboolean JNICALL Java_io_sam3stream_device_Bf16Attention_runsBody(JNIEnv* env, jclass, jint body) {
    jboolean runs = JNI_FALSE;
    guarded_void(env, [&] {
        runs = sam3n::host::bf16_attention_runs(bf16_attention_body(body)) ? JNI_TRUE : JNI_FALSE;
    });
    return runs;
}

JNIEXPORT void JNICALL Java_io_sam3stream_device_Bf16Attention_run(JNIEnv* env, jclass, jobject q, jobject k,
                                                                    jobject v, jobject out, jlong batch,
                                                                    jlong q_tokens, jlong kv_tokens, jint heads,
                                                                    jint head_dim, jlong row_stride, jfloat scale,
                                                                    jint threads, jint body) {
    guarded_void(env, [&] {
        sam3n::require_argument(batch > 0 && q_tokens > 0 && kv_tokens > 0 && heads > 0 && head_dim > 0 &&
                                    batch <= (int64_t{1} << 20) && q_tokens <= (int64_t{1} << 24) &&
                                    kv_tokens <= (int64_t{1} << 24) && heads <= 4096 && head_dim <= 4096 &&
                                    row_stride >= int64_t{heads} * head_dim && row_stride <= (int64_t{1} << 24),
                                "bfloat16 attention: every dimension must be positive and of a sane size, and "
                                "the row stride at least heads x head_dim");
        const sam3n::host::Bf16AttentionShape shape{batch, q_tokens, kv_tokens, heads, head_dim, row_stride};
        const int64_t width = int64_t{heads} * head_dim;
        // the last row of an input ends width values after its start; rows before it take row_stride each
        auto input_bytes = [&](int64_t rows) { return ((batch * rows - 1) * row_stride + width) * 2; };
        const auto* qa = static_cast<const uint16_t*>(direct_address(env, "q", q, input_bytes(q_tokens)));
        const auto* ka = static_cast<const uint16_t*>(direct_address(env, "k", k, input_bytes(kv_tokens)));
        const auto* va = static_cast<const uint16_t*>(direct_address(env, "v", v, input_bytes(kv_tokens)));
        auto* oa = static_cast<uint16_t*>(direct_address(env, "out", out, batch * q_tokens * width * 2));
        bf16_attention_on(threads, qa, ka, va, oa, shape, scale, bf16_attention_body(body));
    });
}

JNIEXPORT jboolean JNICALL Java_io_sam3stream_device_ZlibInflate_libraryLoads(JNIEnv*, jclass) {
    return sam3n::host::zlib_inflate_available() ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jboolean JNICALL Java_io_sam3stream_device_ZlibInflate_inflate(JNIEnv* env, jclass, jbyteArray in,
                                                                       jint offset, jint length, jbyteArray out) {
    jboolean inflated = JNI_FALSE;
    guarded_void(env, [&] {
        sam3n::require_argument(in != nullptr && out != nullptr, "zlib inflate: null array");
        const jsize in_length = env->GetArrayLength(in);
        sam3n::require_argument(offset >= 0 && length >= 0 && offset <= in_length - length,
                                "zlib inflate: the input range lies outside its array");
        const jsize out_length = env->GetArrayLength(out);
        // Critical access lends the arrays' own memory (no copy); the collector waits until both are released,
        // which is one inflate, and no JNI call is made in between.
        auto* source = static_cast<uint8_t*>(env->GetPrimitiveArrayCritical(in, nullptr));
        if (source == nullptr) {
            throw JavaExceptionPending{};
        }
        auto* target = static_cast<uint8_t*>(env->GetPrimitiveArrayCritical(out, nullptr));
        if (target == nullptr) {
            env->ReleasePrimitiveArrayCritical(in, source, JNI_ABORT);
            throw JavaExceptionPending{};
        }
        const bool done = sam3n::host::zlib_inflate_exactly(source + offset, static_cast<size_t>(length), target,
                                                            static_cast<size_t>(out_length));
        env->ReleasePrimitiveArrayCritical(out, target, 0);
        env->ReleasePrimitiveArrayCritical(in, source, JNI_ABORT);
        inflated = done ? JNI_TRUE : JNI_FALSE;
    });
    return inflated;
}

JNIEXPORT jstring JNICALL Java_io_sam3stream_device_MklFeatureDispatch_loadGlobally(JNIEnv* env, jclass,
                                                                                jstring path) {
    return guarded(env, jstring{nullptr}, [&]() -> jstring {
        const Utf8 file(env, path);
        // RTLD_GLOBAL puts the library's symbols ahead of those of every library loaded without it (as the JVM
        // loads libtorch), for the lookups those libraries make through their procedure linkage tables. The
        // handle is never closed: the library must stay for the life of the process.
        if (dlopen(file.get(), RTLD_NOW | RTLD_GLOBAL) != nullptr) {
            return nullptr;
        }
        const char* reason = dlerror();
        return env->NewStringUTF(ascii(reason == nullptr ? "dlopen failed" : reason).c_str());
    });
}

JNIEXPORT jstring JNICALL Java_io_sam3stream_device_MklFeatureDispatch_globalDefinitionFile(JNIEnv* env, jclass,
                                                                                       jstring symbol) {
    return guarded(env, jstring{nullptr}, [&]() -> jstring {
        const Utf8 name(env, symbol);
        void* address = dlsym(RTLD_DEFAULT, name.get());
        Dl_info info{};
        if (address == nullptr || dladdr(address, &info) == 0 || info.dli_fname == nullptr) {
            return nullptr;
        }
        return env->NewStringUTF(ascii(info.dli_fname).c_str());
    });
}

}  // extern "C"
