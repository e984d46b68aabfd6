/*
 * sam3native: the C API between the JVM and SAM3's two accelerator islands, the ViT backbone
 * (docs/MODEL.md §3) and the fusion encoder (§7). Everything else of the model stays on the host.
 *
 * Two implementations sit behind this header, selected when the library is linked:
 *   - "host": portable C++17, fp32, multi-threaded; the reference the device is checked against.
 *   - "ttnn": the islands on a Tenstorrent Blackhole p150a through ttnn.
 *
 * Life cycle of a handle:
 *   sam3n_open -> sam3n_upload_weight (each name of sam3n_required_weight, once)
 *   -> sam3n_commit_weights -> sam3n_run_backbone / sam3n_run_fusion_encoder (any number of times)
 *   -> sam3n_close.
 *
 * Errors: every call returns a sam3n_status. On anything but SAM3N_OK, sam3n_last_error() gives a
 * human-readable explanation, kept per calling thread until that thread's next sam3n_* call. No call
 * throws a C++ exception or aborts the process.
 *
 * Threading: a handle may be used from any thread, but calls on one handle are serialised by the
 * library. The ttnn implementation additionally expects every call on a handle to come from the same
 * thread (ttnn resolves command queues per thread), so callers should confine a handle to one thread.
 *
 * Tensors: C-order, little-endian, densely packed; shapes are checked on every call and a mismatch is
 * reported as SAM3N_INVALID_ARGUMENT naming the argument, the expected and the received shape.
 */
#ifndef SAM3NATIVE_H
#define SAM3NATIVE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define SAM3N_API __attribute__((visibility("default")))
#else
#define SAM3N_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this API; changes whenever a signature, struct or enum value changes incompatibly. */
#define SAM3N_API_VERSION 2

/** Highest tensor rank the API passes. */
#define SAM3N_MAX_RANK 4

typedef enum sam3n_status {
    SAM3N_OK = 0,
    /** A shape, dtype, byte size, name or value the call cannot accept. */
    SAM3N_INVALID_ARGUMENT = 1,
    /** The handle is not open: it was never returned by sam3n_open, or it was closed already. */
    SAM3N_INVALID_HANDLE = 2,
    /** The call is not allowed in the handle's current state (e.g. running before the weights are committed). */
    SAM3N_INVALID_STATE = 3,
    /** sam3n_commit_weights found required weights that were never uploaded. */
    SAM3N_MISSING_WEIGHT = 4,
    /** The accelerator or its runtime reported a failure. */
    SAM3N_DEVICE_ERROR = 5,
    /** Host or device memory ran out. */
    SAM3N_OUT_OF_MEMORY = 6,
    /** An unexpected failure inside the library (a bug). */
    SAM3N_INTERNAL = 7
} sam3n_status;

typedef enum sam3n_dtype {
    SAM3N_F32 = 0,
    SAM3N_BF16 = 1,
    SAM3N_F16 = 2,
    /** Unsigned byte; used for boolean masks (non-zero = true). */
    SAM3N_U8 = 3
} sam3n_dtype;

/** An open island device. 0 is never a valid handle, and a closed handle's value is never reused. */
typedef uint64_t sam3n_handle;

/** A borrowed, densely packed C-order tensor. The library reads inputs and writes outputs in place; it
 *  keeps no pointer into the buffer after the call returns. */
typedef struct sam3n_tensor {
    void* data;
    /** Size of the buffer at data in bytes; must equal the element count times the dtype's size. */
    uint64_t bytes;
    sam3n_dtype dtype;
    int32_t rank;
    int64_t shape[SAM3N_MAX_RANK];
} sam3n_tensor;

/** How to open the device. Fields an implementation does not use are ignored. */
typedef struct sam3n_open_options {
    /** ttnn: device id of the card (TT_DEVICE_ID). */
    int32_t device_id;
    /** ttnn: bytes of L1_SMALL per core (SAM3_L1_SMALL_SIZE); 0 = ttnn's default. */
    uint64_t l1_small_size;
    /** ttnn: DRAM bytes reserved for metal traces (SAM3_TRACE_REGION_SIZE). */
    uint64_t trace_region_size;
    /** host: compute threads; 0 = every hardware thread. */
    int32_t num_threads;
    /** ttnn: non-zero runs the fused paths (TT_FUSED): traced encoder, fused matmul epilogues. */
    int32_t fused;
} sam3n_open_options;

/** The ViT trunk (upstream _create_vit_backbone). Full size: 1008, 336, 14, 1024, 32, 16, 4736, 24, {7,15,23,31}. */
typedef struct sam3n_vit_config {
    /** Input side R in pixels; the input must be exactly R x R. */
    int32_t image_size;
    /** Side the absolute position embedding was trained at; its grid (pretrain_image_size / patch_size)
     *  is tiled over the input grid. */
    int32_t pretrain_image_size;
    int32_t patch_size;
    int32_t embed_dim;
    int32_t depth;
    int32_t num_heads;
    /** MLP hidden width, int(embed_dim * mlp_ratio). */
    int32_t mlp_hidden;
    /** Window side in tokens of the windowed blocks; must divide the grid. */
    int32_t window_size;
    int32_t num_global_blocks;
    /** Indices of the global-attention blocks (copied at open). The trunk's output is the state after
     *  the last of them, as upstream ViT.forward returns it. */
    const int32_t* global_blocks;
} sam3n_vit_config;

/** The fusion encoder (upstream TransformerEncoderFusion). Full size: 256, 6, 8, 2048. */
typedef struct sam3n_encoder_config {
    int32_t d_model;
    int32_t num_layers;
    int32_t num_heads;
    int32_t dim_feedforward;
} sam3n_encoder_config;

/** SAM3N_API_VERSION of the loaded library. */
SAM3N_API int32_t sam3n_api_version(void);

/** "host" or "ttnn". Static storage. */
SAM3N_API const char* sam3n_implementation(void);

/** Why the calling thread's most recent sam3n_* call failed; "" after a success. Valid until that
 *  thread's next sam3n_* call. */
SAM3N_API const char* sam3n_last_error(void);

/** Opens the device and fixes the islands' sizes. On success *handle is the new handle. */
SAM3N_API sam3n_status sam3n_open(const sam3n_open_options* options, const sam3n_vit_config* vit,
                                  const sam3n_encoder_config* encoder, sam3n_handle* handle);

/** Number of weights sam3n_commit_weights requires. */
SAM3N_API sam3n_status sam3n_required_weight_count(sam3n_handle handle, int32_t* count);

/** Required weight number index (0-based): its canonical name, e.g.
 *  "backbone.vision_backbone.trunk.blocks.0.attn.qkv.weight" or "transformer.encoder.layers.0.norm1.bias",
 *  and its upstream shape (rank values written to shape, which holds SAM3N_MAX_RANK). The name lives as
 *  long as the handle. */
SAM3N_API sam3n_status sam3n_required_weight(sam3n_handle handle, int32_t index, const char** name, int32_t* rank,
                                             int64_t* shape);

/**
 * Copies one weight under its canonical name (F32, BF16 or F16, upstream shape). Each name is uploaded
 * once, before sam3n_commit_weights. The absolute position embedding may come with or without its cls
 * row (pretrain_grid^2 + 1 or pretrain_grid^2 rows); the cls row is dropped.
 */
SAM3N_API sam3n_status sam3n_upload_weight(sam3n_handle handle, const char* name, const sam3n_tensor* weight);

/** Checks that every required weight was uploaded and prepares them for running (packing, device
 *  upload, trace capture). SAM3N_MISSING_WEIGHT lists the absent names. */
SAM3N_API sam3n_status sam3n_commit_weights(sam3n_handle handle);

/**
 * The ViT trunk. image: F32 (1, 3, R, R), preprocessed as Sam3Processor does (values in [-1, 1]).
 * trunk_out: F32 (1, C, G, G) with G = R / patch_size, channels first as upstream ViT.forward returns
 * it (`vit.out`) and as the neck consumes it.
 */
SAM3N_API sam3n_status sam3n_run_backbone(sam3n_handle handle, const sam3n_tensor* image,
                                          const sam3n_tensor* trunk_out);

/**
 * The fusion encoder over B prompts of one image, batch-first.
 *   image_features: F32 (1 or B, HW, d): the 1x neck level flattened row-major (token = y * W + x);
 *                   a batch of 1 is shared by all B prompts.
 *   pos:            F32 (HW, d): that level's sine position encoding, flattened the same way.
 *   prompt:         F32 (B, P, d): text tokens followed by geometry tokens.
 *   prompt_mask:    U8  (B, P): non-zero = padding, ignored by the cross-attention (key_padding_mask).
 *                   Every prompt needs at least one valid token.
 *   memory:         F32 (B, HW, d): the encoder output. Upstream returns it sequence-first (HW, B, d).
 */
SAM3N_API sam3n_status sam3n_run_fusion_encoder(sam3n_handle handle, const sam3n_tensor* image_features,
                                                const sam3n_tensor* pos, const sam3n_tensor* prompt,
                                                const sam3n_tensor* prompt_mask, const sam3n_tensor* memory);

/** One line describing the implementation and device state (threads and kernels; card, traces
 *  captured). The string is valid until the next call with this handle. */
SAM3N_API sam3n_status sam3n_describe(sam3n_handle handle, const char** text);

/** How the fusion encoder's runs went through metal traces. */
typedef struct sam3n_encoder_trace {
    int32_t expected;    /* non-zero when this device should run the encoder through traces (ttnn, fused) */
    int32_t captured;    /* non-zero once a trace of the encoder has been recorded */
    int64_t traced_runs; /* encoder runs that replayed a trace */
    int64_t eager_runs;  /* encoder runs that executed op by op (the host implementation: every run) */
} sam3n_encoder_trace;

/** The encoder's trace counters, for a worker that refuses READY unless its warm-up ran through the trace. */
SAM3N_API sam3n_status sam3n_encoder_trace_status(sam3n_handle handle, sam3n_encoder_trace* status);

/** Releases the device (traces first) and every resource of the handle. The handle is invalid afterwards. */
SAM3N_API sam3n_status sam3n_close(sam3n_handle handle);

#ifdef __cplusplus
}
#endif

#endif /* SAM3NATIVE_H */
