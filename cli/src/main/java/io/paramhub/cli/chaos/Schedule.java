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

    /**
     * {@code count} faults drawn from {@code seed} over {@code topology}'s processes. A worker stays down for less
     * than a quarter of {@code sessionTimeoutMs}, so that it is back (a JVM start included) before the aggregator
     * takes it for dead and the live set of the job never changes.
     */
    static Schedule generate(
            final long seed, final int count, final ChaosTopology topology, final long sessionTimeoutMs) {
        final SplittableRandom random = new SplittableRandom(seed);
        final FaultKind[] kinds = FaultKind.values();
        final List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            final FaultKind kind = kinds[random.nextInt(kinds.length)];
            final int gap = random.nextInt(MIN_GAP_CLOCKS, MAX_GAP_CLOCKS + 1);
            faults.add(new Fault(
                    kind, random.nextInt(topology.targets(kind)), gap, holdMs(kind, random, sessionTimeoutMs)));
        }
        return new Schedule(seed, faults);
    }

    private static long holdMs(final FaultKind kind, final SplittableRandom random, final long sessionTimeoutMs) {
        return switch (kind) {
            // up to 10 s frozen: past the Streams consumer's 6 s session, so some pauses wake a fenced zombie
            case AGGREGATOR_PAUSE -> random.nextLong(1_000, 10_001);
            case WORKER_KILL -> random.nextLong(0, Math.max(1, sessionTimeoutMs / 4));
            case BROKER_KILL -> random.nextLong(1_000, 8_001);
            case AGGREGATOR_KILL, ORCHESTRATOR_KILL, REGISTRY_KILL -> random.nextLong(0, 3_001);
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
