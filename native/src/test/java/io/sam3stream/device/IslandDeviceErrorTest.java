package io.sam3stream.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Every way of misusing the islands ends in a {@link DeviceException} that says what was wrong, and the JVM
 * and the device carry on.
 */
class IslandDeviceErrorTest {

    private static final String QKV = "backbone.vision_backbone.trunk.blocks.0.attn.qkv.weight";

    @Test
    void openRejectsAWindowThatDoesNotDivideTheGrid() {
        BackboneConfig bad = new BackboneConfig(28, 28, 14, 8, 2, 2, 16, 3, new int[] {1});

        DeviceException e = expect(DeviceStatus.INVALID_ARGUMENT,
                () -> IslandDevice.open(DeviceOptions.host(1), bad, TinyIslands.ENCODER));

        assertMentions(e, "grid 2 is not a multiple of window_size 3");
    }

    @Test
    void uploadRejectsANameOutsideTheIslands() {
        try (IslandDevice device = TinyIslands.open()) {
            String name = "transformer.decoder.layers.0.linear1.weight";

            DeviceException e = expect(DeviceStatus.INVALID_ARGUMENT,
                    () -> device.uploadWeight(name, DeviceTensor.allocate(ElementType.F32, 16, 8)));

            assertMentions(e, name);
        }
    }

    @Test
    void uploadRejectsAWrongShapeNamingTheExpectedOne() {
        try (IslandDevice device = TinyIslands.open()) {
            DeviceException e = expect(DeviceStatus.INVALID_ARGUMENT,
                    () -> device.uploadWeight(QKV, DeviceTensor.allocate(ElementType.F32, 8, 24)));

            assertMentions(e, "expected shape (24, 8), got (8, 24)");
        }
    }

    @Test
    void uploadRejectsASecondCopyOfAWeight() {
        try (IslandDevice device = TinyIslands.open()) {
            device.uploadWeight(QKV, DeviceTensor.allocate(ElementType.F32, 24, 8));

            DeviceException e = expect(DeviceStatus.INVALID_ARGUMENT,
                    () -> device.uploadWeight(QKV, DeviceTensor.allocate(ElementType.F32, 24, 8)));

            assertMentions(e, "uploaded already");
        }
    }

    @Test
    void uploadRejectsIntegerWeights() {
        try (IslandDevice device = TinyIslands.open()) {
            DeviceException e = expect(DeviceStatus.INVALID_ARGUMENT,
                    () -> device.uploadWeight(QKV, DeviceTensor.allocate(ElementType.U8, 24, 8)));

            assertMentions(e, "F32, BF16 or F16");
        }
    }

    @Test
    void commitNamesTheWeightsThatNeverArrived() {
        try (IslandDevice device = TinyIslands.open()) {
            for (RequiredWeight w : device.requiredWeights()) {
                if (!w.name().equals(QKV)) {
                    device.uploadWeight(w.name(), DeviceTensor.allocate(ElementType.F32, w.shape()));
                }
            }

            DeviceException e = expect(DeviceStatus.MISSING_WEIGHT, device::commitWeights);

            assertMentions(e, "1 of 46 required weights were not uploaded: " + QKV);
        }
    }

    @Test
    void runningBeforeTheWeightsAreCommittedIsAnInvalidState() {
        try (IslandDevice device = TinyIslands.open()) {
            DeviceException e = expect(DeviceStatus.INVALID_STATE, () -> device.runBackbone(TinyIslands.image()));

            assertMentions(e, "not committed");
        }
    }

    @Test
    void backboneRejectsAnImageOfAnotherSize() {
        try (IslandDevice device = committedDevice()) {
            DeviceException e = expect(DeviceStatus.INVALID_ARGUMENT,
                    () -> device.runBackbone(DeviceTensor.allocate(ElementType.F32, 1, 3, 14, 14)));

            assertMentions(e, "image: expected shape (1, 3, 28, 28), got (1, 3, 14, 14)");
        }
    }

    @Test
    void encoderRejectsFeaturesOfAnotherWidth() {
        try (IslandDevice device = committedDevice()) {
            DeviceException e = expect(DeviceStatus.INVALID_ARGUMENT,
                    () -> device.runFusionEncoder(DeviceTensor.allocate(ElementType.F32, 1, 3, 4),
                            DeviceTensor.allocate(ElementType.F32, 3, 8),
                            DeviceTensor.allocate(ElementType.F32, 1, 5, 8), TinyIslands.mask(1, 5)));

            assertMentions(e, "image_features: expected F32 (1, HW, 8), got F32 (1, 3, 4)");
        }
    }

    @Test
    void encoderRejectsAPromptThatIsAllPadding() {
        try (IslandDevice device = committedDevice()) {
            boolean[] allPadding = {true, true, true};

            DeviceException e = expect(DeviceStatus.INVALID_ARGUMENT,
                    () -> device.runFusionEncoder(DeviceTensor.allocate(ElementType.F32, 1, 3, 8),
                            DeviceTensor.allocate(ElementType.F32, 3, 8),
                            DeviceTensor.allocate(ElementType.F32, 1, 3, 8),
                            DeviceTensor.ofBooleans(allPadding, 1, 3)));

            assertMentions(e, "every token of prompt 0 is padding");
        }
    }

    @Test
    void callsAfterCloseAreRejected() {
        IslandDevice device = committedDevice();
        device.close();

        DeviceException e = expect(DeviceStatus.INVALID_HANDLE, () -> device.runBackbone(TinyIslands.image()));

        assertMentions(e, "is not open");
    }

    @Test
    void closingTwiceIsRejected() {
        IslandDevice device = TinyIslands.open();
        device.close();

        DeviceException e = expect(DeviceStatus.INVALID_HANDLE, device::close);

        assertMentions(e, "close: handle");
    }

    @Test
    void tensorsMustLiveInDirectLittleEndianBuffersOfTheirExactSize() {
        expect(DeviceStatus.INVALID_ARGUMENT, () -> DeviceTensor.of(ElementType.F32, new long[] {2},
                ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)));
        expect(DeviceStatus.INVALID_ARGUMENT,
                () -> DeviceTensor.of(ElementType.F32, new long[] {2}, ByteBuffer.allocateDirect(8)));
        expect(DeviceStatus.INVALID_ARGUMENT, () -> DeviceTensor.of(ElementType.F32, new long[] {3},
                ByteBuffer.allocateDirect(8).order(ByteOrder.LITTLE_ENDIAN)));
    }

    @Test
    void deviceKeepsWorkingAfterRejectedCalls() {
        try (IslandDevice device = TinyIslands.open()) {
            TinyIslands.uploadZeroNetwork(device);
            expect(DeviceStatus.INVALID_STATE, device::commitWeights);
            expect(DeviceStatus.INVALID_ARGUMENT,
                    () -> device.runBackbone(DeviceTensor.allocate(ElementType.F32, 1, 3, 28, 27)));

            DeviceTensor out = device.runBackbone(TinyIslands.image());

            assertEquals(TinyIslands.zeroNetworkTrunk(0), out.asFloatBuffer().get(0), 1e-6f);
        }
    }

    private static IslandDevice committedDevice() {
        IslandDevice device = TinyIslands.open();
        TinyIslands.uploadZeroNetwork(device);
        return device;
    }

    private static DeviceException expect(DeviceStatus status, Executable call) {
        DeviceException e = assertThrows(DeviceException.class, call);
        assertEquals(status, e.status(), e.getMessage());
        return e;
    }

    private static void assertMentions(DeviceException e, String text) {
        assertTrue(e.getMessage().contains(text), "message '" + e.getMessage() + "' lacks '" + text + "'");
    }
}
