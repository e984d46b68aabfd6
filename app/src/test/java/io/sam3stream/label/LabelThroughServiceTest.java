package io.sam3stream.label;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.Settings;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.FacadeServer;
import io.sam3stream.kafka.ChildWorker;
import io.sam3stream.kafka.ClientProperties;
import io.sam3stream.kafka.KafkaTestStack;
import io.sam3stream.kafka.RunningWorker;
import io.sam3stream.kafka.TestClients;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sam3 label} against a running service: through a facade over HTTP, and straight onto the request topic
 * with two workers in one group, one of them killed in the middle of the run. Every image ends up in the COCO file
 * once, with the engine's own masks.
 */
@ExtendWith(KafkaTestStack.class)
class LabelThroughServiceTest {

    private static final Duration READY = Duration.ofSeconds(180);

    @TempDir
    Path dir;

    @Test
    void throughTheFacade() throws Exception {
        List<DatasetImage> dataset = DatasetImages.find(LabelledDataset.create(
                Files.createDirectories(dir.resolve("images")), 3).toString());
        Map<String, String> env = KafkaTestStack.workerEnvironment("label-http");
        Map<String, String> facadeEnv = new HashMap<>(env);
        facadeEnv.put("SAM3_REPLY_TOPIC", env.get("SAM3_REQUESTS_TOPIC") + ".replies");
        facadeEnv.put("SAM3_PORT", "0");
        Path coco = dir.resolve("http.json");
        try (RunningWorker worker = RunningWorker.start(env);
                Sam3Segmenter reference = LabelledDataset.engine(Settings.from(env))) {
            FacadeServer facade = new FacadeServer(FacadeConfig.from(Settings.from(facadeEnv), "127.0.0.1")).start();
            try (Labeller http = new HttpLabeller(URI.create("http://127.0.0.1:" + facade.port()), null,
                    Duration.ofSeconds(60), 3)) {
                LabelRun.Summary summary = new LabelRun(dataset, LabelledDataset.QUERY, coco)
                        .run(http, LabelRun.ProgressListener.SILENT);
                assertEquals(List.of(), summary.failures());
                assertEquals(dataset.size(), summary.labelled());
            } finally {
                facade.stop();
            }
            LabelledDataset.assertMatchesEngine(coco, dataset, reference);
        }
    }

    /** Two child JVMs and a kill: about a minute and a half on two cores, so it runs with the reliability group. */
    @Test
    @Tag("reliability")
    void straightToKafkaWithTwoWorkersOneKilledMidRun() throws Exception {
        List<DatasetImage> dataset = DatasetImages.find(LabelledDataset.create(
                Files.createDirectories(dir.resolve("images")), 12).toString());
        Map<String, String> env = KafkaTestStack.workerEnvironment("label-kafka");
        env.put("SAM3_TOPIC_PARTITIONS", "4");
        TestClients.createTopic(env.get("SAM3_REQUESTS_TOPIC"), 4);
        Path coco = dir.resolve("kafka.json");
        Map<String, String> first = new HashMap<>(env);
        first.put("SAM3_WORKER_ID", env.get("SAM3_WORKER_ID") + "-a");
        Map<String, String> second = new HashMap<>(env);
        second.put("SAM3_WORKER_ID", env.get("SAM3_WORKER_ID") + "-b");
        try (ChildWorker a = ChildWorker.start(first, dir.resolve("a.ready"), dir.resolve("a.log"));
                ChildWorker b = ChildWorker.start(second, dir.resolve("b.ready"), dir.resolve("b.log"));
                Sam3Segmenter reference = LabelledDataset.engine(Settings.from(env))) {
            assertTrue(a.awaitReady(READY), a.logTail());
            assertTrue(b.awaitReady(READY), b.logTail());
            ClientProperties clients = new ClientProperties(KafkaTestStack.bootstrapServers(),
                    KafkaTestStack.MAX_MESSAGE_BYTES, new Properties());
            try (Labeller kafka = new KafkaLabeller(clients, KafkaTestStack.registryClient(),
                    env.get("SAM3_REQUESTS_TOPIC"), env.get("SAM3_RESULTS_TOPIC"), false, Duration.ofSeconds(120),
                    4)) {
                CompletableFuture<LabelRun.Summary> run = CompletableFuture.supplyAsync(() -> {
                    try {
                        return new LabelRun(dataset, LabelledDataset.QUERY, coco).run(kafka,
                                LabelRun.ProgressListener.SILENT);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
                Path log = LabelRun.logPath(coco);
                while (!run.isDone() && (!Files.exists(log) || LabelledDataset.resultLinesPerFile(log).size() < 3)) {
                    Thread.sleep(20);
                }
                assertFalse(run.isDone(), "the kill must come before the last answer");
                a.kill(); // in the middle of the run: its partitions move to b, which answers their records
                LabelRun.Summary summary = run.get(5, TimeUnit.MINUTES);
                assertEquals(List.of(), summary.failures(), b.logTail());
                assertEquals(dataset.size(), summary.labelled());
                LabelledDataset.resultLinesPerFile(log)
                        .forEach((file, n) -> assertEquals(1, n, file + " labelled " + n + " times"));
            }
            LabelledDataset.assertMatchesEngine(coco, dataset, reference);
        }
    }
}
