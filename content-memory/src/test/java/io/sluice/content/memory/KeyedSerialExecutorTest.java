package io.sluice.content.memory;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class KeyedSerialExecutorTest {

    @Test
    void execute_sameKey_runsInSubmissionOrder() {
        QueuedExecutor executor = new QueuedExecutor();
        KeyedSerialExecutor serial = new KeyedSerialExecutor(executor, 4);
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int task = i;
            serial.execute("key", () -> ran.add(task));
        }
        executor.runAll();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            expected.add(i);
        }
        assertEquals(expected, ran);
    }

    @Test
    void execute_nothingRunsUntilExecutorDoes() {
        QueuedExecutor executor = new QueuedExecutor();
        List<String> ran = new ArrayList<>();
        new KeyedSerialExecutor(executor, 4).execute("key", () -> ran.add("task"));
        assertEquals(List.of(), ran);
        executor.runAll();
        assertEquals(List.of("task"), ran);
    }

    @Test
    void execute_rejectingExecutor_runsOnCallingThread() {
        List<String> ran = new ArrayList<>();
        new KeyedSerialExecutor(task -> { throw new RejectedExecutionException("closed"); }, 4)
                .execute("key", () -> ran.add(Thread.currentThread().getName()));
        assertEquals(List.of(Thread.currentThread().getName()), ran);
    }

    @Test
    void constructor_noStripes_namesCount() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> new KeyedSerialExecutor(Runnable::run, 0));
        assertEquals("Stripe count must be positive, but was 0", e.getMessage());
    }

}
