package io.sam3stream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The neighbour of {@code bench prompt-path} runs as a process of its own and leaves none behind when closed. */
class NeighbourTest {

    private static List<ProcessHandle> children() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    }

    @Test
    void closingStopsTheNeighboursProcess() throws Exception {
        assertEquals(List.of(), children(), "no child before the test");
        Neighbour neighbour = Neighbour.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (children().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        List<ProcessHandle> running = children();
        assertEquals(1, running.size(), "one neighbour process: " + running);
        // a JVM (its arguments, past the long class path, are cut short in what Linux reports)
        assertTrue(running.get(0).info().command().orElse("").endsWith("java"), running.get(0).info().command()
                .toString());

        neighbour.close();

        assertEquals(List.of(), children(), "the neighbour's process outlived close()");
        neighbour.check(); // stopped by close(), not on its own: no failure to report
    }
}
