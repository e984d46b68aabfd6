package io.sam3stream.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerTest {

    @TempDir
    Path dataDir;

    @Test
    void keepsTopicsAndRecordsAcrossARestartOnTheSameDataDirectory() throws Exception {
        int brokerPort = LoopbackPorts.free();
        int controllerPort = LoopbackPorts.free();
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dataDir, brokerPort, controllerPort, 1 << 20)) {
            broker.start();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("kept", 1, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    "bootstrap.servers", broker.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("kept", "k", "before restart")).get();
            }
        }
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dataDir, brokerPort, controllerPort, 1 << 20)) {
            broker.start();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                assertEquals(Set.of("kept"), admin.listTopics().names().get());
            }
            Properties props = new Properties();
            props.put("bootstrap.servers", broker.bootstrapServers());
            props.put("group.id", "reader");
            props.put("auto.offset.reset", "earliest");
            try (KafkaConsumer<String, String> consumer =
                    new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("kept"));
                String value = null;
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (value == null && System.nanoTime() < deadline) {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                    if (!records.isEmpty()) {
                        value = records.iterator().next().value();
                    }
                }
                assertEquals("before restart", value);
            }
        }
    }

}
