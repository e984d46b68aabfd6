package io.sam3stream.backend.nativebridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.ConfigException;
import io.sam3stream.config.Settings;
import io.sam3stream.device.DeviceOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceSettingsTest {

    @Test
    void takesEveryDeviceKnobFromTheEnvironmentAndTheHostThreadsFromTheEngine() {
        Settings settings = Settings.from(Map.of("TT_DEVICE_ID", "1", "SAM3_L1_SMALL_SIZE", "32768",
                "SAM3_TRACE_REGION_SIZE", "6434816", "TT_FUSED", "0"));

        assertEquals(new DeviceOptions(1, 32768, 6434816, 3, false), DeviceSettings.options(settings, 3));
    }

    @Test
    void defaultsAreTheSeedsFusedDevice() {
        DeviceOptions options = DeviceSettings.options(Settings.from(Map.of()), 2);

        assertEquals(new DeviceOptions(0, 0, 90_000_000, 2, true), options);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1x1", "(1, 1)", "1,1", " 1x1 ", "(1,1)", "1 , 1"})
    void theReferencesSpellingsOfOneChipAreAccepted(String shape) {
        assertArrayEquals(new int[] {1, 1},
                DeviceSettings.meshShape(Settings.from(Map.of("TT_MESH_SHAPE", shape))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2x2", "1x2", "(2, 1)", "1", "1x1x1", "(1x1)", "(1, 1",
        "one", "1;1", "-1x1"})
    void everyOtherMeshShapeIsRefusedAtStart(String shape) {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> DeviceSettings.meshShape(Settings.from(Map.of("TT_MESH_SHAPE", shape))));
        assertTrue(e.getMessage().contains("TT_MESH_SHAPE="), e.getMessage());
    }
}
