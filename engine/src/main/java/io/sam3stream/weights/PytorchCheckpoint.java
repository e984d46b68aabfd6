package io.sam3stream.weights;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A state dict saved by {@code torch.save} (the zip format of PyTorch 1.6 and later), such as Meta's
 * {@code sam3.pt}, read without Python.
 *
 * <p>The archive holds {@code <name>/data.pkl}, a pickle of the dict whose tensors refer to their storages by
 * persistent id {@code ('storage', torch.FloatStorage, key, location, numel)}, and one stored entry
 * {@code <name>/data/<key>} per storage with its raw little-endian bytes. The pickle is read by {@code Unpickler}
 * with exactly the globals a state dict needs: {@code torch._utils._rebuild_tensor_v2}, the typed storages of
 * {@code TorchStorageType} and {@code collections.OrderedDict}; any other global is refused by name and nothing
 * from the file is executed.
 *
 * <p>Both forms upstream's {@code _load_checkpoint} accepts are read: the state dict itself, or a dict whose
 * {@code "model"} entry is the state dict. Tensors are exposed under the stored names; entries that are not
 * tensors are ignored. A contiguous tensor is a memory-mapped window of its storage; any other view (offset,
 * strides) is copied into C order when it is read.
 */
public final class PytorchCheckpoint implements WeightSource {

    private record StorageRef(TorchStorageType type, String entry, long elementCount) {}

    private record TensorRef(StorageRef storage, StridedView view) {}

    private final ZipArchive archive;
    private final Map<String, TensorRef> tensors;

    private PytorchCheckpoint(ZipArchive archive, Map<String, TensorRef> tensors) {
        this.archive = archive;
        this.tensors = tensors;
    }

    /**
     * Opens a checkpoint and reads its pickle; tensor bytes are mapped only when requested.
     *
     * @throws CheckpointException if the file is not a readable PyTorch archive or its pickle asks for anything
     *     beyond plain tensors and containers
     */
    public static PytorchCheckpoint open(Path path) {
        ZipArchive archive = ZipArchive.open(path);
        try {
            String root = archiveRoot(archive);
            String byteOrder = root + "/byteorder";
            if (archive.names().contains(byteOrder)
                    && !StandardCharsets.US_ASCII.decode(archive.contents(byteOrder)).toString().equals("little")) {
                throw new CheckpointException(path + " was saved on a big-endian machine; it is not supported");
            }
            Object pickled;
            try {
                pickled = Unpickler.load(archive.contents(root + "/data.pkl"), allowedGlobals(),
                        pid -> storage(archive, root, pid));
            } catch (CheckpointException e) {
                throw new CheckpointException(path + ": " + e.getMessage(), e);
            }
            return new PytorchCheckpoint(archive, stateDictTensors(path, pickled));
        } catch (RuntimeException e) {
            archive.close();
            throw e;
        }
    }

    /** The archive's top folder: the one holding {@code data.pkl} (torch names it after the saved file). */
    private static String archiveRoot(ZipArchive archive) {
        List<String> pickles = archive.names().stream()
                .filter(n -> n.endsWith("/data.pkl") && n.indexOf('/') == n.length() - "/data.pkl".length())
                .toList();
        if (pickles.size() != 1) {
            throw new CheckpointException(archive.path() + " is not a torch.save archive: expected one"
                    + " <name>/data.pkl entry, found " + pickles);
        }
        return pickles.get(0).substring(0, pickles.get(0).indexOf('/'));
    }

    private static Map<String, Object> allowedGlobals() {
        Map<String, Object> globals = new HashMap<>();
        globals.put("collections.OrderedDict", (Unpickler.PythonCallable) args -> {
            if (!args.isEmpty()) {
                throw new CheckpointException("OrderedDict is only supported empty, filled item by item");
            }
            return new LinkedHashMap<>();
        });
        globals.put("torch._utils._rebuild_tensor_v2", (Unpickler.PythonCallable) PytorchCheckpoint::rebuildTensor);
        for (TorchStorageType type : TorchStorageType.values()) {
            globals.put(type.globalName(), type);
        }
        return globals;
    }

    /** Resolves a persistent id {@code ('storage', storage_type, key, location, numel)} to its data entry. */
    private static StorageRef storage(ZipArchive archive, String root, Object pid) {
        if (!(pid instanceof List<?> id) || id.size() != 5 || !"storage".equals(id.get(0))
                || !(id.get(1) instanceof TorchStorageType type) || !(id.get(2) instanceof String key)
                || !(id.get(4) instanceof Long numel)) {
            throw new CheckpointException("unsupported persistent id " + Unpickler.describe(pid));
        }
        String entry = root + "/data/" + key;
        if (!archive.names().contains(entry)) {
            throw new CheckpointException("storage " + key + " has no entry " + entry);
        }
        // Every element takes at least a byte; a larger count is a lie that would overflow the byte size later.
        if (numel < 0 || numel > archive.size(entry)) {
            throw new CheckpointException("storage " + key + " claims " + numel + " elements but " + entry
                    + " holds " + archive.size(entry) + " bytes");
        }
        return new StorageRef(type, entry, numel);
    }

    /** {@code _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])}. */
    private static TensorRef rebuildTensor(List<Object> args) {
        if ((args.size() != 6 && args.size() != 7) || !(args.get(0) instanceof StorageRef storage)
                || !(args.get(1) instanceof Long offset)) {
            throw new CheckpointException("unexpected arguments to _rebuild_tensor_v2: " + Unpickler.describe(args));
        }
        StridedView view = new StridedView(offset, longs(args.get(2)), longs(args.get(3)));
        if (view.storageExtent() > storage.elementCount()) {
            throw new CheckpointException("tensor view " + Unpickler.describe(args.subList(1, 4)) + " runs past the "
                    + storage.elementCount() + " elements of " + storage.entry());
        }
        // A view repeating elements (stride 0) is copied out in full when read: a few bytes could claim gigabytes.
        if (view.elementCount() > storage.elementCount()) {
            throw new CheckpointException("tensor view " + Unpickler.describe(args.subList(1, 4)) + " has more"
                    + " elements than its storage of " + storage.elementCount() + " (" + storage.entry() + ")");
        }
        return new TensorRef(storage, view);
    }

    private static long[] longs(Object tuple) {
        if (!(tuple instanceof List<?> items) || !items.stream().allMatch(Long.class::isInstance)) {
            throw new CheckpointException("expected a tuple of ints, found " + Unpickler.describe(tuple));
        }
        return items.stream().mapToLong(Long.class::cast).toArray();
    }

    /** The tensor entries of the state dict, unwrapping upstream's {@code {"model": state_dict}} form. */
    private static Map<String, TensorRef> stateDictTensors(Path path, Object pickled) {
        if (!(pickled instanceof Map<?, ?> dict)) {
            throw new CheckpointException(path + " does not hold a dict");
        }
        Map<?, ?> stateDict = dict.get("model") instanceof Map<?, ?> model ? model : dict;
        Map<String, TensorRef> tensors = new LinkedHashMap<>();
        stateDict.forEach((key, value) -> {
            if (key instanceof String name && value instanceof TensorRef tensor) {
                tensors.put(name, tensor);
            }
        });
        return Collections.unmodifiableMap(tensors);
    }

    @Override
    public Set<String> names() {
        return tensors.keySet();
    }

    /**
     * {@inheritDoc}
     *
     * @throws CheckpointException also for a complex tensor, which has no {@link DType}
     */
    @Override
    public RawTensor get(String name) {
        TensorRef t = tensors.get(name);
        if (t == null) {
            throw new CheckpointException(archive.path() + " has no tensor " + name);
        }
        DType dtype;
        try {
            dtype = t.storage().type().dtype();
        } catch (CheckpointException e) {
            throw new CheckpointException(archive.path() + ": cannot read " + name + ": " + e.getMessage(), e);
        }
        int elementSize = dtype.byteSize();
        String entry = t.storage().entry();
        long storageBytes = Math.multiplyExact(t.storage().elementCount(), elementSize);
        if (archive.size(entry) != storageBytes) {
            throw new CheckpointException(archive.path() + ": " + entry + " has " + archive.size(entry)
                    + " bytes but its storage of " + t.storage().elementCount() + " " + dtype + " needs "
                    + storageBytes);
        }
        StridedView view = t.view();
        ByteBuffer data = view.isContiguous()
                ? archive.map(entry, view.offset() * elementSize, view.elementCount() * elementSize)
                : view.toContiguous(archive.map(entry, 0, view.storageExtent() * elementSize), elementSize);
        return new RawTensor(dtype, view.size(), data);
    }

    @Override
    public String description() {
        return archive.path().toString();
    }

    @Override
    public void close() {
        archive.close();
    }
}
