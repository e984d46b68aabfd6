package io.sam3stream.model.nn;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.engine.PtSymbolBlock;
import ai.djl.pytorch.jni.IValue;
import ai.djl.pytorch.jni.IValueUtils;
import ai.djl.pytorch.jni.JniUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A stateless TorchScript class compiled by libtorch from a source file on the class path
 * ({@code <ClassName>.torchscript} beside this class, packaged by {@link TorchScriptArchive}), whose methods are
 * called with tensors and return tensors. Compiled once per process and safe for concurrent use: a method's state
 * is its arguments.
 */
final class ScriptModule {

    private final NDManager manager = NDManager.newBaseManager();
    private final PtSymbolBlock block;

    private ScriptModule(String className) {
        byte[] archive = TorchScriptArchive.of(className, source(className));
        try {
            block = JniUtils.loadModule((PtNDManager) manager, new ByteArrayInputStream(archive), false, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load the TorchScript module " + className, e);
        }
    }

    /** Compiles {@code className.torchscript}; the module lives as long as the process. */
    static ScriptModule compile(String className) {
        return new ScriptModule(className);
    }

    /**
     * Runs {@code method} and returns its result flattened into tensors, in {@code manager}: a tuple's elements in
     * order, each a tensor or a list of tensors (a list contributes its elements, possibly none). The inputs are
     * closed with the call; results must only be read (libtorch returns them as inference tensors).
     */
    NDList runTensors(String method, NDManager manager, ScriptCall arguments) {
        NDList out = new NDList();
        try (arguments; IValue result = IValueUtils.runMethod(block, method, arguments.values())) {
            flatten(result, (PtNDManager) manager, out);
        }
        return out;
    }

    private static void flatten(IValue value, PtNDManager manager, NDList out) {
        if (value.isTensor()) {
            out.add(value.toTensor(manager));
        } else if (value.isTensorList()) {
            for (PtNDArray array : value.toTensorArray(manager)) {
                out.add(array);
            }
        } else if (value.isTuple()) {
            for (IValue element : value.toIValueTuple()) {
                try (element) {
                    flatten(element, manager, out);
                }
            }
        } else {
            throw new IllegalStateException("a TorchScript method returned " + value.getType()
                    + ", expected tensors");
        }
    }

    private static String source(String className) {
        String file = className + ".torchscript";
        try (InputStream in = ScriptModule.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException(file + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
