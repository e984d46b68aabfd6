package io.sam3stream.model.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ModuleClockTest {

    private static void busy(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    @Test
    void eachLapIsChargedToTheModuleThatFinished() {
        try (ModuleClock clock = ModuleClock.start()) {
            busy(30);
            ModuleClock.lap("vit_trunk");
            busy(10);
            ModuleClock.lap("neck");
            busy(5);
            ModuleClock.lap("vit_trunk");
            assertEquals(List.of("vit_trunk", "neck"), List.copyOf(clock.seconds().keySet()));
            // two laps summed for the trunk, one for the neck
            assertTrue(clock.seconds().get("vit_trunk") >= 0.035, clock.seconds().toString());
            assertTrue(clock.seconds().get("neck") >= 0.010, clock.seconds().toString());
        }
    }

    @Test
    void timeBeforeResumeIsChargedToNoModule() {
        try (ModuleClock clock = ModuleClock.start()) {
            busy(200);
            clock.resume();
            ModuleClock.lap("decoder");
            assertTrue(clock.seconds().get("decoder") < 0.2, clock.seconds().toString());
        }
    }

    @Test
    void lapsOutsideAClockAreIgnoredAndAnInnerClockHandsBackToTheOuter() {
        ModuleClock.lap("vit_trunk"); // no clock: nothing to charge, nothing thrown
        try (ModuleClock outer = ModuleClock.start()) {
            try (ModuleClock inner = ModuleClock.start()) {
                ModuleClock.lap("neck");
                assertEquals(List.of("neck"), List.copyOf(inner.seconds().keySet()));
            }
            ModuleClock.lap("decoder");
            assertEquals(List.of("decoder"), List.copyOf(outer.seconds().keySet()));
        }
    }
}
