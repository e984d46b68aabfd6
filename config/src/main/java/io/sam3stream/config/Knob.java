package io.sam3stream.config;

/**
 * Every environment variable sam3-stream reads, with its default and meaning. The README's configuration table
 * lists exactly these (a test keeps the two in step). Kafka client properties are passed through separately:
 * {@code KAFKA_<PROPERTY>} becomes {@code <property>} with {@code _} turned into {@code .} (see {@link Settings}).
 */
public enum Knob {
    HF_MODEL("facebook/sam3", "Hugging Face repository of the weights"),
    TT_WEIGHTS_REVISION("3c879f39826c281e95690f02c7821c4de09afae7",
            "pinned revision of the weights (commit hash, or a ref resolved through the cache's refs/)"),
    SAM3_WEIGHTS_DIR("", "folder with sam3.pt or model.safetensors (+ config.json); skips the Hugging Face cache"),
    HF_HUB_CACHE("", "Hugging Face hub cache (default $HF_HOME/hub, else ~/.cache/huggingface/hub)"),
    HF_HOME("", "Hugging Face home folder"),
    SAM3_BPE_PATH("", "BPE vocabulary bpe_simple_vocab_16e6.txt.gz (default: weights folder, else the bundled copy)"),
    SAM3_BACKEND("cpu", "model backend: cpu (DJL/PyTorch), native-host (JNI bridge, host C++), tt (JNI bridge, p150a)"),
    SAM3_NATIVE_LIB("", "native islands library to load instead of the one bundled in the jar (the ttnn build on a p150)"),
    SAM3_PRECISION("auto", "number format of the cpu backend: auto (bf16 where the CPU has amx_bf16 or avx512_bf16"
            + " and the model's ViT is at least 512 wide, else fp32), fp32 (upstream's numerics), bf16 (bfloat16 weights and products)"),
    SAM3_NUM_THREADS("0", 0, 256, "intra-op threads of the model (0 = every core for a model of the released size,"
            + " one for a small one such as the demo model, whose operators are too small to split)"),
    OMP_WAIT_POLICY("", "what libtorch's OpenMP threads do at the end of an operator (read by libgomp when libtorch"
            + " loads): PASSIVE, which the launcher and the worker image set, makes them sleep at once, and then the"
            + " small-operator modules keep every intra-op thread; unset or ACTIVE, they spin first, and those"
            + " modules run on one thread"),
    SAM3_ALLOCATOR("jemalloc", "C allocator of the model's tensors, chosen by the launcher (sam3) and the worker image:"
            + " jemalloc (preloaded where libjemalloc.so.2 is installed; activations reuse freed pages) or glibc"
            + " (glibc's malloc: every large activation mapped afresh, a peak 0.15-0.3 GB lower); the engine's"
            + " start-up log says which one the process runs with"),
    SAM3_MKL_KERNELS("auto", "which float32 kernels libtorch's MKL runs: auto (chosen by the CPU's instruction sets:"
            + " AVX-512 also on AMD CPUs that have it, where MKL by itself takes AVX2; its products up to 2.4x as fast"
            + " there) or vendor (MKL's own choice); the engine's start-up log says which"),
    SAM3_MAX_PROMPTS("4", 1, 64, "most prompts per request"),
    SAM3_MAX_SIDE("4096", 1, 65535, "largest accepted image side in pixels"),
    SAM3_MAX_PIXELS("16777216", 1, 1L << 28, "largest accepted decoded image in pixels (width × height)"),
    SAM3_TEXT_CACHE_MAX("256", 0, 1 << 20, "text-feature LRU entries"),
    SAM3_IMAGE_CACHE_MAX("4", 0, 1024, "image-feature LRU entries (keyed by a hash of the decoded pixels)"),
    SAM3_WARMUP_RUNS("2", 0, 100, "warm-up forwards before a worker reports READY"),
    SAM3_IMAGE_ROOT("", "root folder that file:// claim-check image URIs must lie under (empty = claim checks refused)"),
    TT_DEVICE_ID("0", 0, 1023, "Tenstorrent device id"),
    TT_MESH_SHAPE("1x1",
            "Tenstorrent mesh shape, written 1x1, (1, 1) or 1,1: one chip; anything else is refused at start"),
    TT_FUSED("1", "run the device islands through the fused paths"),
    SAM3_L1_SMALL_SIZE("0", 0, 1L << 40, "ttnn l1_small_size at device open (0 = ttnn default)"),
    SAM3_TRACE_REGION_SIZE("90000000", 0, 1L << 40, "ttnn trace region size at device open"),
    KAFKA_BOOTSTRAP_SERVERS("localhost:9092", "Kafka bootstrap servers"),
    SCHEMA_REGISTRY_URL("http://localhost:8081", "Confluent-API schema registry"),
    SAM3_WORKER_ID("", "worker id and static group.instance.id (default: host name + device id)"),
    SAM3_CONSUMER_GROUP("sam3-workers", "consumer group of the workers"),
    SAM3_REQUESTS_TOPIC("sam3.requests", "request topic"),
    SAM3_RESULTS_TOPIC("sam3.results", "result topic (requests without reply headers)"),
    SAM3_DLQ_TOPIC("sam3.requests.dlq", "dead-letter topic for records that cannot be decoded"),
    SAM3_WORKERS_TOPIC("sam3.workers", "compacted topic of worker heartbeats"),
    SAM3_TOPIC_PARTITIONS("4", 1, 1024, "partitions of topics created when missing"),
    SAM3_WORKER_HTTP_PORT("-1", -1, 65535,
            "HTTP port of the worker's /metrics, /health/live and /health/ready (-1 = off, 0 = any free port)"),
    OTEL_EXPORTER_OTLP_ENDPOINT("", "OpenTelemetry collector (OTLP over HTTP, e.g. http://collector:4318) that spans"
            + " are exported to; empty = no spans are recorded, an incoming traceparent is still passed on"),
    SAM3_MAX_MESSAGE_BYTES("16777216", 1 << 16, 1 << 28,
            "largest Kafka message (topic, producer and consumer sizes are set from it)"),
    SAM3_PORT("20000", 0, 65535, "HTTP port of the facade"),
    SAM3_MAX_IN_FLIGHT("64", 1, 1_000_000, "HTTP requests waiting for a reply before new ones get 429"),
    SAM3_REPLY_TIMEOUT_MS("300000", 1, 86_400_000L, "deadline of an HTTP request waiting for its reply (504 after it)"),
    SAM3_API_KEYS("", "comma-separated bearer tokens; empty = no auth (/health is always open)"),
    SAM3_REPLY_TOPIC("sam3.replies", "topic the facades receive replies on"),
    SAM3_REPLY_PARTITIONS("", "reply partitions this facade owns (comma-separated; default: leased automatically)"),
    SAM3_JOB_RETENTION("24h", "how long a finished job stays readable at /v1/jobs/{id}: a duration such as 90s, 30m,"
            + " 24h or 7d (1s to 365d)"),
    SAM3_JOBS_TOPIC("sam3.jobs", "compacted topic of the job store's view: one record per job, a tombstone once it"
            + " expires (created by the facade)"),
    SAM3_JOB_SUBMISSIONS_TOPIC("sam3.jobs.submissions", "topic of job submissions, partitioned as the results topic"
            + " (created by the facade)"),
    SAM3_JOB_STATE_DIR("", "folder of the facade's job store (RocksDB); empty = a fresh temporary folder, rebuilt"
            + " from Kafka at each start");

    private final String defaultValue;
    private final String description;
    private final long min;
    private final long max;

    /** A text, boolean or choice knob. */
    Knob(String defaultValue, String description) {
        this(defaultValue, 0, -1, description);
    }

    /** An integer knob whose every value in [min, max] is safe to run with. */
    Knob(String defaultValue, long min, long max, String description) {
        this.defaultValue = defaultValue;
        this.description = description;
        this.min = min;
        this.max = max;
    }

    /** True for integer knobs, which have a {@link #min} and {@link #max}. */
    public boolean isNumeric() {
        return max >= min;
    }

    /** Smallest allowed value of an integer knob. */
    public long min() {
        requireNumeric();
        return min;
    }

    /** Largest allowed value of an integer knob. */
    public long max() {
        requireNumeric();
        return max;
    }

    private void requireNumeric() {
        if (!isNumeric()) {
            throw new IllegalStateException(name() + " is not an integer knob");
        }
    }

    /** The value used when the variable is unset or empty ("" = no value). */
    public String defaultValue() {
        return defaultValue;
    }

    /** One line for the README table. */
    public String description() {
        return description;
    }
}
