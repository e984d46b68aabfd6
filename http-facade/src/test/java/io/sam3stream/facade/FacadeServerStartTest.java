package io.sam3stream.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.ConfigException;
import io.sam3stream.config.Settings;
import io.sam3stream.facade.testing.TestStack;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestStack.class)
class FacadeServerStartTest {

    @Test
    void aConfiguredReplyPartitionTheTopicLacksFailsTheStartAndLeavesNothingRunning() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        FacadeServer server = new FacadeServer(FacadeConfig.from(Settings.from(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", TestStack.bootstrapServers(),
                "SCHEMA_REGISTRY_URL", TestStack.registryUrl(),
                "SAM3_PORT", Integer.toString(port),
                "SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"),
                "SAM3_TOPIC_PARTITIONS", "2",
                "SAM3_REPLY_PARTITIONS", "1,2")), "127.0.0.1"));

        ConfigException refused = assertThrows(ConfigException.class, server::start);

        assertTrue(refused.getMessage().contains("names partition 2"), refused.getMessage());
        try (ServerSocket stillFree = new ServerSocket(port)) {
            assertEquals(port, stillFree.getLocalPort());
        }
        assertThrows(IllegalStateException.class, server::start, "a server starts once");
    }

    @Test
    void theBodyLimitLeavesRoomForABase64RecordAndItsJson() {
        FacadeConfig config = FacadeConfig.from(Settings.from(Map.of("SAM3_MAX_MESSAGE_BYTES", "3000000")), "h");

        assertEquals(4_000_000 + 64 * 1024, config.maxBodyBytes());
    }

    @Test
    void replyPartitionsMustBePartitionNumbers() {
        Settings settings = Settings.from(Map.of("SAM3_REPLY_PARTITIONS", "0, x"));

        assertThrows(ConfigException.class, () -> FacadeConfig.from(settings, "h"));
        assertEquals(java.util.List.of(3, 1),
                FacadeConfig.from(Settings.from(Map.of("SAM3_REPLY_PARTITIONS", "3,1,3")), "h").replyPartitions());
    }
}
