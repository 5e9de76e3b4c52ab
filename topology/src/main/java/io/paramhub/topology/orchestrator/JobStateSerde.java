package io.paramhub.topology.orchestrator;

import io.paramhub.avro.CostFitState;
import io.paramhub.avro.OrchestratorJobState;
import io.paramhub.avro.OrchestratorWorkerState;
import io.paramhub.avro.SpeedSample;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The serde of {@link OrchestratorTopology#JOB_STATE_STORE}: a {@link JobState} is written as the Avro
 * record {@code OrchestratorJobState} through the Avro serde it is given (the registry's wire format, as
 * every other store), and read back from that or from the hand-written binary format the orchestrator
 * stored before (its changelog may still hold such records). The two are told apart by their first byte:
 * 0, the wire format's magic byte, or 1, the old format's version byte. A state read in the old format is
 * written back as Avro the next time its job's telemetry is taken in; it has no cost fit ({@link CostFit#NONE}).
 */
public final class JobStateSerde implements Serde<JobState> {

    /** The first byte of a state in the format stored before {@code OrchestratorJobState}. */
    static final byte LEGACY_FORMAT = 1;

    private final Serde<OrchestratorJobState> avro;

    /** A serde storing states through {@code avro}: {@code SerdeFactory.valueSerde(OrchestratorJobState.class)}. */
    public JobStateSerde(final Serde<OrchestratorJobState> avro) {
        this.avro = avro;
    }

    @Override
    public void configure(final Map<String, ?> configs, final boolean isKey) {
        avro.configure(configs, isKey);
    }

    @Override
    public void close() {
        avro.close();
    }

    @Override
    public Serializer<JobState> serializer() {
        return (topic, state) -> state == null ? null : avro.serializer().serialize(topic, toAvro(state));
    }

    @Override
    public Deserializer<JobState> deserializer() {
        return (topic, data) -> {
            if (data == null) {
                return null;
            }
            if (data.length > 0 && data[0] == LEGACY_FORMAT) {
                return readLegacy(data);
            }
            return fromAvro(avro.deserializer().deserialize(topic, data));
        };
    }

    static OrchestratorJobState toAvro(final JobState state) {
        final List<OrchestratorWorkerState> workers =
                new ArrayList<>(state.workers().size());
        state.workers().forEach((name, w) -> {
            final List<SpeedSample> window = new ArrayList<>(w.window().size());
            for (final JobState.Iteration it : w.window()) {
                window.add(new SpeedSample(it.clock(), it.samples(), it.computeMs()));
            }
            workers.add(OrchestratorWorkerState.newBuilder()
                    .setWorker(name)
                    .setLastClock(w.lastClock())
                    .setThreads(w.threads())
                    .setShare(w.share())
                    .setAppliedPlanVersion(w.appliedPlanVersion())
                    .setPlannedShare(w.plannedShare())
                    .setPlannedThreads(w.plannedThreads())
                    .setStraggler(w.straggler())
                    .setSpeed(w.speed())
                    .setWindow(window)
                    .setCost(toAvro(w.cost()))
                    .build());
        });
        return OrchestratorJobState.newBuilder()
                .setPlanVersion(state.planVersion())
                .setLastPlanRound(state.lastPlanRound())
                .setLastEvaluatedRound(state.lastEvaluatedRound())
                .setGainStreak(state.gainStreak())
                .setWorkers(workers)
                .build();
    }

    static JobState fromAvro(final OrchestratorJobState stored) {
        final SortedMap<String, JobState.Worker> workers = new TreeMap<>();
        for (final OrchestratorWorkerState w : stored.getWorkers()) {
            final List<JobState.Iteration> window =
                    new ArrayList<>(w.getWindow().size());
            for (final SpeedSample it : w.getWindow()) {
                window.add(new JobState.Iteration(it.getClock(), it.getSamples(), it.getComputeMs()));
            }
            workers.put(
                    w.getWorker(),
                    new JobState.Worker(
                            window,
                            w.getLastClock(),
                            w.getThreads(),
                            w.getShare(),
                            w.getAppliedPlanVersion(),
                            w.getPlannedShare(),
                            w.getPlannedThreads(),
                            w.getStraggler(),
                            w.getSpeed(),
                            fromAvro(w.getCost())));
        }
        return new JobState(
                workers,
                stored.getPlanVersion(),
                stored.getLastPlanRound(),
                stored.getLastEvaluatedRound(),
                stored.getGainStreak());
    }

    private static CostFitState toAvro(final CostFit cost) {
        return CostFit.NONE.equals(cost)
                ? null
                : new CostFitState(
                        cost.weight(),
                        cost.samples(),
                        cost.ms(),
                        cost.samplesSq(),
                        cost.samplesMs(),
                        cost.msSq(),
                        cost.fixedSamples());
    }

    private static CostFit fromAvro(final CostFitState cost) {
        return cost == null
                ? CostFit.NONE
                : new CostFit(
                        cost.getWeight(),
                        cost.getSamples(),
                        cost.getMs(),
                        cost.getSamplesSquared(),
                        cost.getSamplesTimesMs(),
                        cost.getMsSquared(),
                        cost.getFixedSamples());
    }

    /**
     * A state in the format stored before {@code OrchestratorJobState} ({@link java.io.DataOutputStream},
     * big-endian): the byte {@value #LEGACY_FORMAT}; plan version, last plan round, last evaluated round
     * (longs); gain streak and worker count (ints); then per worker its name (modified UTF-8), last clock
     * (long), threads (int), share (double), applied plan version (long), planned share (double), planned
     * threads (int), straggler (boolean), speed (double), window size (int) and per iteration its clock
     * (long), samples (int) and compute time (double).
     */
    static JobState readLegacy(final byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            final byte format = in.readByte();
            if (format != LEGACY_FORMAT) {
                throw new IllegalStateException("unknown orchestrator job state format " + format);
            }
            final long planVersion = in.readLong();
            final long lastPlanRound = in.readLong();
            final long lastEvaluatedRound = in.readLong();
            final int gainStreak = in.readInt();
            final int count = in.readInt();
            final SortedMap<String, JobState.Worker> workers = new TreeMap<>();
            for (int i = 0; i < count; i++) {
                final String name = in.readUTF();
                final long lastClock = in.readLong();
                final int threads = in.readInt();
                final double share = in.readDouble();
                final long applied = in.readLong();
                final double plannedShare = in.readDouble();
                final int plannedThreads = in.readInt();
                final boolean straggler = in.readBoolean();
                final double speed = in.readDouble();
                final int size = in.readInt();
                final List<JobState.Iteration> window = new ArrayList<>(size);
                for (int j = 0; j < size; j++) {
                    window.add(new JobState.Iteration(in.readLong(), in.readInt(), in.readDouble()));
                }
                workers.put(
                        name,
                        new JobState.Worker(
                                window,
                                lastClock,
                                threads,
                                share,
                                applied,
                                plannedShare,
                                plannedThreads,
                                straggler,
                                speed,
                                CostFit.NONE));
            }
            return new JobState(workers, planVersion, lastPlanRound, lastEvaluatedRound, gainStreak);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
