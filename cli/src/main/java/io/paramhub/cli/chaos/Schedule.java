package io.paramhub.cli.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The nemesis's plan: the faults of a run in order, drawn from a seed, written to a JSON file and read back from
 * one so that {@code --replay FILE} injects the same faults at the same clocks.
 */
record Schedule(long seed, List<Fault> faults) {

    /** Clocks let pass after a fault healed before the next, at least and at most. */
    static final int MIN_GAP_CLOCKS = 2;

    static final int MAX_GAP_CLOCKS = 6;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    Schedule {
        faults = List.copyOf(faults);
    }

    /** How long after its session timeout a worker kept down past it comes back, at least and at most. */
    static final long PAST_SESSION_MIN_MS = 1_000;

    static final long PAST_SESSION_MAX_MS = 6_000;

    /**
     * {@code count} faults drawn from {@code seed} over {@code topology}'s processes. A killed worker of the BSP job
     * stays down for less than a quarter of its job's session timeout, so that it is back (a JVM start included)
     * before the aggregator takes it for dead and that job's live set never changes; one of the other jobs comes
     * back either so (half the draws) or 1-6 s after its session timeout, the same single draw deciding which and
     * how long, so that every fault takes four draws and a seed's kinds do not depend on its targets.
     */
    static Schedule generate(final long seed, final int count, final ChaosTopology topology) {
        final SplittableRandom random = new SplittableRandom(seed);
        final FaultKind[] kinds = FaultKind.values();
        final List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            final FaultKind kind = kinds[random.nextInt(kinds.length)];
            final int gap = random.nextInt(MIN_GAP_CLOCKS, MAX_GAP_CLOCKS + 1);
            final int target = random.nextInt(topology.targets(kind));
            if (kind == FaultKind.WORKER_KILL) {
                faults.add(workerKill(topology.workers().get(target), target, gap, random.nextLong(Long.MAX_VALUE)));
            } else {
                faults.add(new Fault(kind, target, gap, holdMs(kind, random), false));
            }
        }
        return new Schedule(seed, faults);
    }

    /** A kill of {@code worker}, its hold and whether it outlasts the session timeout made from one draw. */
    private static Fault workerKill(
            final ChaosTopology.WorkerTarget worker, final int target, final int gap, final long draw) {
        final long within = Math.max(1, worker.sessionTimeoutMs() / 4);
        final long past = PAST_SESSION_MAX_MS - PAST_SESSION_MIN_MS + 1;
        if (!worker.mayOutliveSession() || draw % 2 == 0) {
            return new Fault(FaultKind.WORKER_KILL, target, gap, (draw / 2) % within, false);
        }
        return new Fault(
                FaultKind.WORKER_KILL,
                target,
                gap,
                worker.sessionTimeoutMs() + PAST_SESSION_MIN_MS + (draw / 2) % past,
                true);
    }

    private static long holdMs(final FaultKind kind, final SplittableRandom random) {
        return switch (kind) {
            // up to 10 s frozen: past the Streams consumer's 6 s session, so some pauses wake a fenced zombie
            case AGGREGATOR_PAUSE -> random.nextLong(1_000, 10_001);
            case BROKER_KILL -> random.nextLong(1_000, 8_001);
            case AGGREGATOR_KILL, ORCHESTRATOR_KILL, REGISTRY_KILL, WORKER_KILL -> random.nextLong(0, 3_001);
        };
    }

    void write(final Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            JSON.writeValue(file.toFile(), this);
        } catch (final IOException e) {
            throw new UncheckedIOException("could not write the schedule to " + file, e);
        }
    }

    static Schedule read(final Path file) {
        try {
            return JSON.readValue(file.toFile(), Schedule.class);
        } catch (final IOException e) {
            throw new UncheckedIOException("could not read a schedule from " + file + ": " + e.getMessage(), e);
        }
    }
}
