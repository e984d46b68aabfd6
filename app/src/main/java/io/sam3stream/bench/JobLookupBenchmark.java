package io.sam3stream.bench;

import io.sam3stream.avro.Box;
import io.sam3stream.avro.CocoRle;
import io.sam3stream.avro.Instance;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.ModelIdentity;
import io.sam3stream.avro.PromptResult;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.Timing;
import io.sam3stream.broker.EmbeddedKafkaBroker;
import io.sam3stream.broker.LoopbackPorts;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.FacadeServer;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import io.sam3stream.schemas.serde.AvroSerializer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code sam3 bench jobs}: the latency of {@code GET /v1/jobs/{id}} on loopback with many jobs stored. It starts an
 * embedded broker, registry and one facade (no worker: the jobs are results produced straight to the results topic,
 * as an event pipeline's would be, each with one prompt, one instance and a compressed RLE mask), waits until every
 * job is readable, then reads random ids one after another from one client and records every latency.
 */
public final class JobLookupBenchmark {

    /**
     * @param latencyMicros every timed GET, microseconds
     * @param stored        jobs stored
     * @param resultBytes   the encoded size of one stored result
     */
    public record Result(Histogram latencyMicros, int stored, int resultBytes) {

        /** A percentile of the latency, milliseconds. */
        public double millis(double percentile) {
            return latencyMicros.getValueAtPercentile(percentile) / 1000.0;
        }
    }

    private static final int PARTITIONS = 4;
    private static final Duration READY_WITHIN = Duration.ofMinutes(2);

    private JobLookupBenchmark() {
    }

    /**
     * @param jobs     jobs to store
     * @param requests timed GETs (after one untimed GET of every job, which also checks they are all there)
     */
    public static Result run(int jobs, int requests, Consumer<String> log) throws IOException, InterruptedException {
        Path dataDir = Files.createTempDirectory("sam3-bench-jobs");
        Settings base = Settings.fromEnvironment();
        try (EmbeddedKafkaBroker broker = startBroker(dataDir, base);
                EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(
                        new InetSocketAddress("127.0.0.1", 0), broker.bootstrapServers())) {
            Settings settings = base.with(Knob.KAFKA_BOOTSTRAP_SERVERS, broker.bootstrapServers())
                    .with(Knob.SCHEMA_REGISTRY_URL, registry.url().toString())
                    .with(Knob.SAM3_PORT, "0")
                    .with(Knob.SAM3_JOB_STATE_DIR, dataDir.resolve("jobs").toString());
            createWorkerTopics(settings);
            try (FacadeServer facade = new FacadeServer(FacadeConfig.from(settings, "127.0.0.1")).start()) {
                if (!facade.awaitJobStore(READY_WITHIN)) {
                    throw new IllegalStateException("the job store did not start within " + READY_WITHIN);
                }
                log.accept("storing " + jobs + " jobs ...");
                int resultBytes = produceResults(settings, registry.url(), jobs);
                URI base2 = URI.create("http://127.0.0.1:" + facade.port() + "/v1/jobs/");
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                awaitAllReadable(client, base2, jobs);
                log.accept(String.format(Locale.ROOT, "every job readable (%d bytes of result each); %d timed GETs",
                        resultBytes, requests));
                Histogram latency = new Histogram(60_000_000L, 3);
                SplittableRandom random = new SplittableRandom(20);
                for (int i = 0; i < requests; i++) {
                    HttpRequest get = HttpRequest.newBuilder(base2.resolve(id(random.nextInt(jobs)))).GET().build();
                    long start = System.nanoTime();
                    HttpResponse<byte[]> response = client.send(get, HttpResponse.BodyHandlers.ofByteArray());
                    long micros = (System.nanoTime() - start) / 1000;
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException("GET " + get.uri() + " answered " + response.statusCode());
                    }
                    latency.recordValue(Math.max(1, micros));
                }
                return new Result(latency, jobs, resultBytes);
            }
        } finally {
            OverheadBenchmark.deleteTree(dataDir);
        }
    }

    private static EmbeddedKafkaBroker startBroker(Path dataDir, Settings settings) throws IOException {
        int port = LoopbackPorts.freePair();
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dataDir.resolve("kafka"), port, port + 1,
                settings.getLong(Knob.SAM3_MAX_MESSAGE_BYTES));
        broker.start();
        return broker;
    }

    /** The topics a worker would create, which the job store waits for. */
    private static void createWorkerTopics(Settings settings) throws InterruptedException {
        Properties p = new Properties();
        p.put("bootstrap.servers", settings.get(Knob.KAFKA_BOOTSTRAP_SERVERS));
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(Stream.of(Knob.SAM3_REQUESTS_TOPIC, Knob.SAM3_RESULTS_TOPIC)
                    .map(k -> new NewTopic(settings.get(k), PARTITIONS, (short) 1)).toList()).all().get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("cannot create the topics: " + e.getCause(), e.getCause());
        }
    }

    private static int produceResults(Settings settings, URI registryUrl, int jobs) {
        Properties p = new Properties();
        p.put("bootstrap.servers", settings.get(Knob.KAFKA_BOOTSTRAP_SERVERS));
        p.put("linger.ms", "5");
        AvroSerializer<SpecificRecord> serializer = new AvroSerializer<>(
                SchemaRegistryClient.builder(registryUrl).build(), true);
        String topic = settings.get(Knob.SAM3_RESULTS_TOPIC);
        int size = serializer.serialize(topic, result(id(0))).length;
        try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(p, new StringSerializer(),
                serializer)) {
            for (int i = 0; i < jobs; i++) {
                producer.send(new ProducerRecord<>(topic, id(i), result(id(i))));
            }
            producer.flush();
        }
        return size;
    }

    private static void awaitAllReadable(HttpClient client, URI base, int jobs) throws InterruptedException {
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        for (int i = 0; i < jobs; i++) {
            HttpRequest get = HttpRequest.newBuilder(base.resolve(id(i))).GET().build();
            while (status(client, get) != 200) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("job " + id(i) + " not readable within " + READY_WITHIN);
                }
                Thread.sleep(50);
            }
        }
    }

    private static int status(HttpClient client, HttpRequest get) throws InterruptedException {
        try {
            return client.send(get, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    private static String id(int i) {
        return "bench-job-" + i;
    }

    /** A typical small result: one prompt, one instance, a compressed RLE mask of a 640×480 image. */
    private static SegmentationResult result(String id) {
        Instance instance = Instance.newBuilder().setScore(0.9f).setBoxXyxy(new Box(10f, 20f, 300f, 400f))
                .setMaskArea(52_000L).setMaskPng(null)
                .setMaskRle(new CocoRle(List.of(480, 640), "PPYo0`0U1e0ZOf0Zo0`0U1e0ZOf0Zo0`0U1e0ZOf0Zo0")).build();
        return SegmentationResult.newBuilder()
                .setRequestId(id)
                .setStatus(Status.OK)
                .setError(null)
                .setWidth(640).setHeight(480).setInputSize(1008).setThreshold(0.5f)
                .setMaskFormat(MaskFormat.rle_compressed)
                .setResults(List.of(new PromptResult("a red car", 0.95f, 1, List.of(instance))))
                .setTimingMs(Timing.newBuilder().setQueue(1).setDecode(2).setPreprocess(3).setForward(40)
                        .setForwardPerPrompt(40).setPostprocess(5).setTotal(50).build())
                .setWorkerId("bench")
                .setModel(new ModelIdentity("facebook/sam3", "3c879f39826c281e95690f02c7821c4de09afae7"))
                .setDevice("cpu")
                .setMetadata(Map.of())
                .build();
    }
}
