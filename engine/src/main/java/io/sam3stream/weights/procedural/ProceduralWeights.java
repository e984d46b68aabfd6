package io.sam3stream.weights.procedural;

import io.sam3stream.weights.CheckpointException;
import io.sam3stream.weights.DType;
import io.sam3stream.weights.RawTensor;
import io.sam3stream.weights.WeightSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The full-size SAM3 image model's weights generated on demand from the deterministic recipe of the
 * {@code sam3-full-procedural} golden set, so that the real model sizes can be run and checked against upstream
 * without distributing a checkpoint. Nothing is cached: each {@link #get} generates a fresh float32 tensor in a direct
 * little-endian buffer, splitting large tensors into chunks that worker threads fill in parallel (SplitMix64 can jump
 * to any position). Safe for concurrent use.
 */
public final class ProceduralWeights implements WeightSource {

    /** Elements per parallel task; smaller tensors are generated on the calling thread. */
    private static final int CHUNK_ELEMENTS = 1 << 18;

    private final Map<String, TensorRecipe> recipes;
    private final ExecutorService workers;
    private final int threads;
    private volatile boolean closed;

    private ProceduralWeights(Map<String, long[]> shapes, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        Map<String, TensorRecipe> byName = new LinkedHashMap<>();
        shapes.forEach((name, shape) -> byName.put(name, TensorRecipe.of(name, shape)));
        this.recipes = Collections.unmodifiableMap(byName);
        this.threads = threads;
        this.workers = threads == 1 ? null : Executors.newFixedThreadPool(threads, daemonThreads());
    }

    /** The SAM3 image model's 1102 parameters, generated with one thread per available processor. */
    public static ProceduralWeights sam3Image() {
        return sam3Image(Runtime.getRuntime().availableProcessors());
    }

    /** The demo model's parameters ({@code Sam3Config.demo()}), generated on the calling thread. */
    public static ProceduralWeights demo() {
        return new ProceduralWeights(ParameterLayout.demo(), 1);
    }

    /** The SAM3 image model's 1102 parameters, generated with {@code threads} threads (1: on the caller's). */
    public static ProceduralWeights sam3Image(int threads) {
        return new ProceduralWeights(ParameterLayout.sam3Image(), threads);
    }

    /** The canonical names, in upstream state-dict order. */
    @Override
    public Set<String> names() {
        return recipes.keySet();
    }

    /**
     * Generates the named tensor: float32, the upstream shape, in a new direct little-endian buffer.
     *
     * @throws CheckpointException if the model has no such parameter or this source is closed
     */
    @Override
    public RawTensor get(String name) {
        if (closed) {
            throw new CheckpointException(description() + " is closed");
        }
        TensorRecipe recipe = recipes.get(name);
        if (recipe == null) {
            throw new CheckpointException(description() + " has no tensor " + name);
        }
        int count = Math.toIntExact(recipe.elementCount());
        ByteBuffer bytes = ByteBuffer.allocateDirect(Math.multiplyExact(count, Float.BYTES))
                .order(ByteOrder.LITTLE_ENDIAN);
        FloatBuffer values = bytes.asFloatBuffer();
        if (workers == null || count <= CHUNK_ELEMENTS) {
            recipe.fill(values, 0, count);
        } else {
            fillInParallel(recipe, values, count);
        }
        return new RawTensor(DType.F32, recipe.shape(), bytes);
    }

    private void fillInParallel(TensorRecipe recipe, FloatBuffer values, int count) {
        List<Callable<Void>> chunks = new ArrayList<>();
        for (int first = 0; first < count; first += CHUNK_ELEMENTS) {
            int start = first;
            int length = Math.min(CHUNK_ELEMENTS, count - first);
            chunks.add(() -> {
                recipe.fill(values, start, length);
                return null;
            });
        }
        try {
            for (Future<Void> done : workers.invokeAll(chunks)) {
                done.get();
            }
        } catch (RejectedExecutionException e) {
            throw new CheckpointException(description() + " was closed while generating " + recipe.name(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CheckpointException("interrupted while generating " + recipe.name(), e);
        } catch (ExecutionException e) {
            throw new CheckpointException("cannot generate " + recipe.name() + ": " + e.getCause(), e.getCause());
        }
    }

    @Override
    public String description() {
        return "procedural SAM3 image weights (" + recipes.size() + " tensors, sam3-full-procedural recipe, "
                + threads + " threads)";
    }

    /** Stops the worker threads; tensors generated earlier stay valid. */
    @Override
    public void close() {
        closed = true;
        if (workers != null) {
            workers.shutdownNow();
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger counter = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "procedural-weights-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
