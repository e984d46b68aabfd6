package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.CheckpointLoader;
import io.sam3stream.weights.PickleBuilder;
import io.sam3stream.weights.PytorchCheckpoint;
import io.sam3stream.weights.TorchArchiveBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code .pt} pickle can name any Python callable and call it with REDUCE; {@code torch.load} without
 * {@code weights_only} runs it. Every such pickle must be refused by name before anything runs. Each payload,
 * were it run, would create a marker file; the tests check the refusal and that the marker never appears.
 */
class PickleGlobalsSafetyTest {

    @TempDir
    Path dir;

    /**
     * Callables that run commands, evaluate code, import modules or load further pickles, under the names pickles
     * use for them (posix/nt are what {@code os.system} pickles as on Linux/Windows, __builtin__ is Python 2's
     * builtins).
     */
    static Stream<String> codeRunningGlobals() {
        return Stream.of("os.system", "posix.system", "nt.system", "builtins.eval", "builtins.exec",
                "__builtin__.eval", "builtins.getattr", "builtins.__import__", "subprocess.Popen",
                "subprocess.check_output", "torch.load", "torch.serialization.load",
                "torch.storage._load_from_bytes", "pickle.loads", "runpy._run_code",
                "numpy.core.multiarray._reconstruct");
    }

    private String command() {
        return "touch " + marker();
    }

    private Path marker() {
        return dir.resolve("executed");
    }

    /** {@code module.name(command)} for a dotted global. */
    private PickleBuilder callThroughGlobal(String dotted) {
        int dot = dotted.lastIndexOf('.');
        return new PickleBuilder().proto(2).global(dotted.substring(0, dot), dotted.substring(dot + 1))
                .string(command()).op(0x85).op('R'); // TUPLE1, REDUCE
    }

    private String refusal(byte[] pickle) throws IOException {
        Path file = new TorchArchiveBuilder("evil").pickle(pickle).floatStorage("0", 0, 1)
                .writeTo(dir.resolve("evil.pt"));
        String message = assertThrows(CheckpointException.class, () -> PytorchCheckpoint.open(file)).getMessage();
        assertFalse(Files.exists(marker()), "the payload ran");
        return message;
    }

    private static void assertMentions(String message, String expected) {
        assertTrue(message.contains(expected), message);
    }

    @ParameterizedTest
    @MethodSource("codeRunningGlobals")
    void refusesTheGlobalThroughGlobal(String dotted) throws IOException {
        assertMentions(refusal(callThroughGlobal(dotted).op('.').bytes()), "refusing to load global " + dotted);
    }

    @ParameterizedTest
    @MethodSource("codeRunningGlobals")
    void refusesTheGlobalThroughStackGlobal(String dotted) throws IOException {
        int dot = dotted.lastIndexOf('.');
        byte[] pickle = new PickleBuilder().proto(4).frame(0)
                .stackGlobal(dotted.substring(0, dot), dotted.substring(dot + 1))
                .shortString(command()).op(0x85).op('R').op('.').bytes();
        assertMentions(refusal(pickle), "refusing to load global " + dotted);
    }

    @ParameterizedTest
    @MethodSource("codeRunningGlobals")
    void refusesTheGlobalAsAValueDeepInsideAValidStateDict(String dotted) throws IOException {
        // {"w": tensor, "model": {"hook": [global(command)]}}: the refusal does not depend on where the call sits
        PickleBuilder pickle = new PickleBuilder().proto(2).op('}')
                .string("w").tensor("FloatStorage", "0", 2, 0, new long[] {2}, new long[] {1}).op('s')
                .string("model").op('}').string("hook").op(']');
        int dot = dotted.lastIndexOf('.');
        pickle.global(dotted.substring(0, dot), dotted.substring(dot + 1)).string(command()).op(0x85).op('R')
                .op('a').op('s').op('s').op('.');
        assertMentions(refusal(pickle.bytes()), "refusing to load global " + dotted);
    }

    /** Names that look like the allowed ones: attribute paths through them, neighbours, other torch rebuilders. */
    @ParameterizedTest
    @ValueSource(strings = {"torch._utils._rebuild_tensor_v2.__globals__", "torch._utils._rebuild_tensor_v3",
        "torch._utils._rebuild_parameter", "torch._utils._rebuild_device_tensor_from_numpy",
        "collections.OrderedDict.fromkeys", "collections.OrderedDict.__init__", "torch.FloatStorage.from_file",
        "torch.Tensor", "torch.nn.Module"})
    void refusesAllowedLookingNamesCalledThroughReduce(String dotted) throws IOException {
        assertMentions(refusal(callThroughGlobal(dotted).op('.').bytes()), "refusing to load global " + dotted);
    }

    @Test
    void refusesCallingAnAllowedGlobalThatIsOnlyData() throws IOException {
        // torch.FloatStorage is allowed as the type tag of a persistent id, never as a callable
        byte[] pickle = callThroughGlobal("torch.FloatStorage").op('.').bytes();
        assertMentions(refusal(pickle), "pickle calls a non-callable");
    }

    @Test
    void refusesAnOrderedDictBuiltFromArguments() throws IOException {
        byte[] pickle = new PickleBuilder().proto(2).global("collections", "OrderedDict")
                .op(']').mark().string(command()).integer(1).op('t').op('a').op(0x85).op('R').op('.').bytes();
        assertMentions(refusal(pickle), "OrderedDict is only supported empty");
    }

    @Test
    void refusesRebuildingATensorFromAnythingButAStorage() throws IOException {
        byte[] pickle = new PickleBuilder().proto(2).global("torch._utils", "_rebuild_tensor_v2").mark()
                .string(command()).integer(0).intTuple(1).intTuple(1).op(0x89).op('}').op('t').op('R').op('.')
                .bytes();
        assertMentions(refusal(pickle), "unexpected arguments to _rebuild_tensor_v2");
    }

    /** INST, OBJ, NEWOBJ and NEWOBJ_EX construct arbitrary objects; they are refused as opcodes, whatever they name. */
    @ParameterizedTest
    @ValueSource(ints = {'i', 'o', 0x81, 0x92})
    void refusesObjectConstructingOpcodes(int opcode) throws IOException {
        PickleBuilder pickle = new PickleBuilder().proto(2).mark();
        if (opcode == 'i') {
            pickle.string(command()).op('i').raw("os\nsystem\n".getBytes(StandardCharsets.US_ASCII));
        } else {
            pickle.op(')').string(command()).op(0x85).op(opcode);
        }
        assertMentions(refusal(pickle.op('.').bytes()), String.format("unsupported pickle opcode 0x%02x", opcode));
    }

    @Test
    void theLoaderPassesTheRefusalOn() throws IOException {
        Path file = new TorchArchiveBuilder("evil").pickle(callThroughGlobal("os.system").op('.').bytes())
                .writeTo(dir.resolve("evil.pt"));
        String message = assertThrows(CheckpointException.class, () -> CheckpointLoader.open(file)).getMessage();
        assertMentions(message, "refusing to load global os.system");
        assertFalse(Files.exists(marker()), "the payload ran");
    }
}
