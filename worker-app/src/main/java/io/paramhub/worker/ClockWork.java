package io.paramhub.worker;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OffsetRange;
import io.paramhub.avro.OnlineClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What a worker's {@link ClockCompute} did in one clock: the gradient summed over its samples, how many
 * samples, their summed loss, the time spent computing and waiting for neighbouring stages, its compute
 * threads, the epoch of the plan it followed (-1 for none), what a pipeline stage adds, and what a topic-mode
 * worker read (null otherwise). Reads and writes no topic: {@link #telemetry} is what the worker publishes on
 * {@code telemetry}.
 */
record ClockWork(
        double[] gradient,
        int samples,
        double loss,
        double computeMs,
        double waitMs,
        int threads,
        long commandEpoch,
        StageWork stage,
        OnlineWork online) {

    /** The work of a worker that reads no topic of examples. */
    ClockWork(
            final double[] gradient,
            final int samples,
            final double loss,
            final double computeMs,
            final double waitMs,
            final int threads,
            final long commandEpoch,
            final StageWork stage) {
        this(gradient, samples, loss, computeMs, waitMs, threads, commandEpoch, stage, null);
    }

    /**
     * What a topic-mode clock read and must commit with its gradient: its report, the offset ranges of the examples
     * it trained (on shard 0's gradient), the bad examples to set aside, and its input offsets for {@code group}.
     */
    record OnlineWork(
            OnlineClock report,
            List<OffsetRange> ranges,
            List<ClockInput.BadExample> bad,
            Map<TopicPartition, OffsetAndMetadata> offsets,
            ConsumerGroupMetadata group) {}

    /** What a pipeline stage reports of a clock: its index, activation bytes and wait, parameters held. */
    record StageWork(int index, long activationBytes, double activationWaitMs, long parametersHeld) {

        /** A worker that computes the whole model: the telemetry's defaults. */
        static final StageWork WHOLE_MODEL = new StageWork(0, 0, 0.0, 0);
    }

    /** This work, as long as {@code ms} to compute. */
    ClockWork withComputeMs(final double ms) {
        return new ClockWork(gradient, samples, loss, ms, waitMs, threads, commandEpoch, stage, online);
    }

    /** The telemetry of {@code worker}'s {@code clock} of {@code spec}, which waited {@code modelWaitMs} for its model. */
    IterationTelemetry telemetry(final JobSpec spec, final String worker, final long clock, final double modelWaitMs) {
        return IterationTelemetry.newBuilder()
                .setJob(spec.getJob())
                .setWorker(worker)
                .setClock(clock)
                .setSamples(samples)
                .setComputeMs(computeMs)
                .setWaitMs(modelWaitMs + waitMs)
                .setThreads(threads)
                .setBatchShare((double) samples / spec.getGlobalBatch())
                .setCommandEpoch(commandEpoch)
                .setLoss(loss)
                .setTimestamp(Instant.now())
                .setStage(stage.index())
                .setActivationBytes(stage.activationBytes())
                .setActivationWaitMs(stage.activationWaitMs())
                .setParametersHeld(stage.parametersHeld())
                .setOnline(online == null ? null : online.report())
                .build();
    }
}
