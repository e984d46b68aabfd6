package io.sam3stream.bench;

import io.sam3stream.broker.EmbeddedKafkaBroker;
import io.sam3stream.broker.LoopbackPorts;
import io.sam3stream.imaging.SyntheticPicture;
import io.sam3stream.kafka.ClientProperties;
import io.sam3stream.label.DatasetImage;
import io.sam3stream.label.DatasetImages;
import io.sam3stream.label.KafkaLabeller;
import io.sam3stream.label.LabelQuery;
import io.sam3stream.label.LabelRun;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * Dataset labelling through Kafka ({@code sam3 label --kafka}) with one worker against several in one consumer
 * group, on the same machine and the same images in one run: each worker is its own process ({@code sam3 worker},
 * as deployed), the cores split evenly between the workers of a configuration, and every configuration labels
 * the same generated pictures (all different, so no cache answers). The figure is images per second from the
 * first request to the COCO file.
 */
public final class LabelBenchmark {

    /** What one configuration measured. */
    public record Measurement(int workers, int threadsPerWorker, int images, double seconds) {
        public double imagesPerSecond() {
            return images / seconds;
        }
    }

    private static final Duration READY = Duration.ofMinutes(5);
    private static final int MAX_MESSAGE_BYTES = 16 << 20;
    private static final LabelQuery QUERY = new LabelQuery(List.of("object"), List.of("object"), 0.5f, 10);

    private LabelBenchmark() {}

    /**
     * @param checkpoint   a small checkpoint (the tiny golden one), with its config
     * @param workerCounts the configurations, e.g. 1 and 2
     * @param cores        cores split between the workers of each configuration
     * @param images       pictures labelled by each configuration
     * @param inFlight     images in flight per worker
     */
    public static List<Measurement> run(Path checkpoint, Path config, List<Integer> workerCounts, int cores,
            int images, int inFlight, Consumer<String> log) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory("sam3-bench-label");
        try (EmbeddedKafkaBroker broker = broker(work)) {
            broker.start();
            try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(
                    new InetSocketAddress("127.0.0.1", 0), broker.bootstrapServers())) {
                Path dataset = pictures(work.resolve("images"), images);
                List<Measurement> results = new ArrayList<>();
                for (int workers : workerCounts) {
                    int threads = Math.max(1, cores / workers);
                    log.accept("labelling " + images + " images with " + workers + " worker(s) of " + threads
                            + " thread(s) ...");
                    results.add(measure(broker.bootstrapServers(), registry.url().toString(), checkpoint, config,
                            work.resolve("run-" + workers), DatasetImages.find(dataset.toString()), workers, threads,
                            inFlight, log));
                }
                return results;
            }
        } finally {
            OverheadBenchmark.deleteTree(work);
        }
    }

    private static Measurement measure(String bootstrap, String registryUrl, Path checkpoint, Path config, Path dir,
            List<DatasetImage> dataset, int workers, int threads, int inFlight, Consumer<String> log)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String deployment = dir.getFileName().toString();
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrap);
        env.put("SCHEMA_REGISTRY_URL", registryUrl);
        env.put("SAM3_PRECISION", "fp32");
        env.put("SAM3_NUM_THREADS", Integer.toString(threads));
        env.put("SAM3_CONSUMER_GROUP", deployment + ".workers");
        env.put("SAM3_REQUESTS_TOPIC", deployment + ".requests");
        env.put("SAM3_RESULTS_TOPIC", deployment + ".results");
        env.put("SAM3_DLQ_TOPIC", deployment + ".dlq");
        env.put("SAM3_WORKERS_TOPIC", deployment + ".workers");
        env.put("SAM3_TOPIC_PARTITIONS", Integer.toString(Math.max(4, 2 * workers)));
        env.put("SAM3_WARMUP_RUNS", "1");
        List<Process> processes = new ArrayList<>();
        try {
            List<Path> readyFiles = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                Map<String, String> own = new HashMap<>(env);
                own.put("SAM3_WORKER_ID", deployment + "-" + w);
                Path ready = dir.resolve("worker-" + w + ".ready");
                readyFiles.add(ready);
                processes.add(startWorker(own, checkpoint, config, ready, dir.resolve("worker-" + w + ".log")));
            }
            awaitReady(processes, readyFiles);
            ClientProperties clients = new ClientProperties(bootstrap, MAX_MESSAGE_BYTES, new Properties());
            try (KafkaLabeller labeller = new KafkaLabeller(clients, SchemaRegistryClient.builder(URI.create(registryUrl))
                    .build(), env.get("SAM3_REQUESTS_TOPIC"),
                    env.get("SAM3_RESULTS_TOPIC"), false, Duration.ofMinutes(5), inFlight * workers)) {
                long start = System.nanoTime();
                LabelRun.Summary summary = new LabelRun(dataset, QUERY, dir.resolve("labels.json"))
                        .run(labeller, LabelRun.ProgressListener.SILENT);
                double seconds = (System.nanoTime() - start) / 1e9;
                if (!summary.failures().isEmpty()) {
                    throw new IllegalStateException("images failed: " + summary.failures());
                }
                log.accept(String.format(Locale.ROOT, "  %d images in %.1f s", dataset.size(), seconds));
                return new Measurement(workers, threads, dataset.size(), seconds);
            }
        } finally {
            for (Process p : processes) {
                p.destroy();
            }
            for (Process p : processes) {
                p.waitFor();
            }
        }
    }

    /** {@code sam3 worker} in its own JVM, from this process's own class path. */
    private static Process startWorker(Map<String, String> env, Path checkpoint, Path config, Path ready, Path log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-XX:+UseSerialGC", "-Dai.djl.offline=true",
                "-cp", System.getProperty("java.class.path"),
                "io.sam3stream.worker.WorkerCommand",
                "--checkpoint", checkpoint.toString(), "--config", config.toString(),
                "--ready-file", ready.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        return builder.start();
    }

    private static void awaitReady(List<Process> processes, List<Path> readyFiles) throws InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        for (int i = 0; i < processes.size(); i++) {
            while (!Files.exists(readyFiles.get(i))) {
                if (!processes.get(i).isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("worker " + i + " did not become READY; see "
                            + readyFiles.get(i).resolveSibling("worker-" + i + ".log"));
                }
                Thread.sleep(100);
            }
        }
    }

    private static EmbeddedKafkaBroker broker(Path work) throws IOException {
        int port = LoopbackPorts.freePair();
        return new EmbeddedKafkaBroker(work.resolve("kafka"), port, port + 1, MAX_MESSAGE_BYTES);
    }

    /** {@code count} different 640×480 pictures. */
    private static Path pictures(Path dir, int count) throws IOException {
        Files.createDirectories(dir);
        for (int i = 0; i < count; i++) {
            Files.write(dir.resolve(String.format(Locale.ROOT, "picture-%04d.png", i)),
                    SyntheticPicture.png(640, 480, i));
        }
        return dir;
    }
}
