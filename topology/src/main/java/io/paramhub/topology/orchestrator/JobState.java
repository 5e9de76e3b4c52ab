package io.paramhub.topology.orchestrator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * What the orchestrator knows of one job, the value of {@link OrchestratorTopology#JOB_STATE_STORE}
 * (key = job): every worker's speed window, reported threads and share, its planned share and threads
 * and straggler flag, and the job's plan bookkeeping (last plan version, clock of the last plan, hysteresis
 * streak). Workers are kept in name order, so plans are deterministic.
 *
 * <p>Stored in a small versioned binary format ({@link #serde()}), internal to the orchestrator.
 */
public final class JobState {

    private static final byte FORMAT = 1;
    static final long NONE = -1L;

    private final SortedMap<String, Worker> workers = new TreeMap<>();
    long planVersion = NONE;
    long lastPlanRound = NONE;
    long lastEvaluatedRound = NONE;
    int gainStreak;

    /** Every worker seen for the job, by name. */
    public SortedMap<String, Worker> workers() {
        return Collections.unmodifiableSortedMap(workers);
    }

    /** Version of the last plan issued (0 for the first), -1 if none. */
    public long planVersion() {
        return planVersion;
    }

    /** Round (smallest clock every worker has reported) at which the last plan went out, -1 if none. */
    public long lastPlanRound() {
        return lastPlanRound;
    }

    Worker worker(final String name) {
        return workers.computeIfAbsent(name, n -> new Worker());
    }

    /** One worker: its last {@code window} iterations and what it last reported and was told. */
    public static final class Worker {
        final Deque<Iteration> window = new ArrayDeque<>();
        long lastClock = NONE;
        int threads = 1;
        double share;
        long appliedPlanVersion = NONE;
        double plannedShare = Double.NaN;
        int plannedThreads;
        boolean straggler;
        double speed;

        void record(final long clock, final int sampleCount, final double ms, final int size) {
            lastClock = clock;
            if (sampleCount <= 0 || !(ms > 0) || Double.isInfinite(ms)) {
                return;
            }
            window.addLast(new Iteration(clock, sampleCount, ms));
            while (window.size() > size) {
                window.removeFirst();
            }
            long total = 0;
            double seconds = 0;
            for (final Iteration it : window) {
                total += it.samples();
                seconds += it.computeMs() / 1000.0;
            }
            speed = total / seconds;
        }

        /** Samples per compute-second over the window, 0 before a usable iteration. */
        public double speed() {
            return speed;
        }

        /**
         * Relative standard error of {@link #speed()}: the standard deviation of the window's per-iteration
         * speeds over their mean, over the square root of the window size; 0 with fewer than 2 iterations.
         */
        public double noise() {
            final int n = window.size();
            if (n < 2) {
                return 0;
            }
            double sum = 0;
            double squares = 0;
            for (final Iteration it : window) {
                final double x = it.samples() / (it.computeMs() / 1000.0);
                sum += x;
                squares += x * x;
            }
            final double mean = sum / n;
            final double variance = Math.max(0, (squares - n * mean * mean) / (n - 1));
            return Math.sqrt(variance) / mean / Math.sqrt(n);
        }

        /** Compute threads in the worker's last telemetry. */
        public int threads() {
            return threads;
        }

        /** Batch share in the worker's last telemetry. */
        public double share() {
            return share;
        }

        /** Clock of the worker's last telemetry. */
        public long lastClock() {
            return lastClock;
        }

        /** Plan version the worker last reported applying, -1 if none. */
        public long appliedPlanVersion() {
            return appliedPlanVersion;
        }

        /** Share of the last plan, NaN if none. */
        public double plannedShare() {
            return plannedShare;
        }

        /** Threads of the last plan, 0 if none. */
        public int plannedThreads() {
            return plannedThreads;
        }

        /** Whether the last evaluation found it a straggler. */
        public boolean straggler() {
            return straggler;
        }

        /** Iterations in the window. */
        public int windowSize() {
            return window.size();
        }
    }

    /** One iteration in a speed window. */
    record Iteration(long clock, int samples, double computeMs) {
    }

    /** The store serde. */
    public static Serde<JobState> serde() {
        return Serdes.serdeFrom(new StateSerializer(), new StateDeserializer());
    }

    private static final class StateSerializer implements Serializer<JobState> {
        @Override
        public byte[] serialize(final String topic, final JobState state) {
            if (state == null) {
                return null;
            }
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeByte(FORMAT);
                out.writeLong(state.planVersion);
                out.writeLong(state.lastPlanRound);
                out.writeLong(state.lastEvaluatedRound);
                out.writeInt(state.gainStreak);
                out.writeInt(state.workers.size());
                for (final var entry : state.workers.entrySet()) {
                    final Worker w = entry.getValue();
                    out.writeUTF(entry.getKey());
                    out.writeLong(w.lastClock);
                    out.writeInt(w.threads);
                    out.writeDouble(w.share);
                    out.writeLong(w.appliedPlanVersion);
                    out.writeDouble(w.plannedShare);
                    out.writeInt(w.plannedThreads);
                    out.writeBoolean(w.straggler);
                    out.writeDouble(w.speed);
                    out.writeInt(w.window.size());
                    for (final Iteration it : w.window) {
                        out.writeLong(it.clock());
                        out.writeInt(it.samples());
                        out.writeDouble(it.computeMs());
                    }
                }
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }
    }

    private static final class StateDeserializer implements Deserializer<JobState> {
        @Override
        public JobState deserialize(final String topic, final byte[] data) {
            if (data == null) {
                return null;
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
                final byte format = in.readByte();
                if (format != FORMAT) {
                    throw new IllegalStateException("unknown orchestrator job state format " + format);
                }
                final JobState state = new JobState();
                state.planVersion = in.readLong();
                state.lastPlanRound = in.readLong();
                state.lastEvaluatedRound = in.readLong();
                state.gainStreak = in.readInt();
                final int count = in.readInt();
                for (int i = 0; i < count; i++) {
                    final Worker w = state.worker(in.readUTF());
                    w.lastClock = in.readLong();
                    w.threads = in.readInt();
                    w.share = in.readDouble();
                    w.appliedPlanVersion = in.readLong();
                    w.plannedShare = in.readDouble();
                    w.plannedThreads = in.readInt();
                    w.straggler = in.readBoolean();
                    w.speed = in.readDouble();
                    final int size = in.readInt();
                    for (int j = 0; j < size; j++) {
                        w.window.addLast(new Iteration(in.readLong(), in.readInt(), in.readDouble()));
                    }
                }
                return state;
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
