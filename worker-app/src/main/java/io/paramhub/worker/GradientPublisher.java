package io.paramhub.worker;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OffsetRange;
import io.paramhub.ml.GradientSum;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts a worker's gradient into one {@code GradientShard} per shard it writes (its stage's) and sends them to
 * {@code gradients}: the gradient rounded to float32, then as the job's encoding asks ({@code BFLOAT16}: with
 * this worker's error feedback, which a clock without samples leaves alone); a topic-mode gradient's shard 0 record
 * carries the offset ranges of its examples. A worker that sums on its host ({@link HostSum}) hands its gradient
 * in instead; whichever worker completes a clock sends the host's sum: the float32 gradients added in double in
 * the order of the workers' indexes, as {@code FLOAT64} with the workers as {@code contributors}, which the
 * aggregator adds exactly as it would have added each of them.
 */
final class GradientPublisher {

    private final JobContext job;
    private final String workerId;
    private final int workerIndex;
    private final WorkerTransport transport;
    private final HostSum hostSum;

    /** A publisher of the worker's own gradients. */
    GradientPublisher(final JobContext job, final String workerId, final WorkerTransport transport) {
        this(job, workerId, -1, transport, null);
    }

    /** A publisher that hands each gradient of worker {@code workerIndex} in to {@code hostSum} (null: none). */
    GradientPublisher(
            final JobContext job,
            final String workerId,
            final int workerIndex,
            final WorkerTransport transport,
            final HostSum hostSum) {
        this.job = job;
        this.workerId = workerId;
        this.workerIndex = workerIndex;
        this.transport = transport;
        this.hostSum = hostSum;
    }

    /** Sends {@code work}'s gradient of {@code clock}, computed on the shards' {@code baseVersions}. */
    void publish(final long clock, final long[] baseVersions, final ClockWork work) {
        final float[] float32 = job.buffers().float32Of(work.gradient());
        final float[] wire = work.samples() > 0 ? job.rounding().round(float32) : float32;
        if (hostSum == null) {
            sendOwn(
                    clock,
                    baseVersions,
                    wire,
                    work.samples(),
                    work.loss(),
                    work.online() != null ? work.online().ranges() : List.of(),
                    true);
            return;
        }
        final List<HostSum.Part> parts = hostSum.add(new HostSum.Part(
                clock, workerIndex, workerId, wire.clone(), work.samples(), work.loss(), baseVersions.clone(), this));
        if (!parts.isEmpty()) {
            sendSum(parts);
        }
    }

    /**
     * This worker leaves its host's sum (its job over, stopped or failed): sends, through their first workers,
     * the clocks its leaving completed.
     */
    static void leave(final HostSum hostSum, final int workerIndex) {
        final List<List<HostSum.Part>> completed = hostSum.leave(workerIndex);
        for (final List<HostSum.Part> parts : completed) {
            final GradientPublisher first = parts.get(0).publisher();
            first.sendSum(parts);
            first.transport.flush();
        }
    }

    /**
     * Sends one clock's parts: as one host's sum when there are several, all computed on the same versions; else
     * each as its worker's own gradient.
     */
    private void sendSum(final List<HostSum.Part> parts) {
        final long clock = parts.get(0).clock();
        final long[] baseVersions = parts.get(0).baseVersions();
        if (parts.size() == 1 || !parts.stream().allMatch(part -> Arrays.equals(part.baseVersions(), baseVersions))) {
            for (final HostSum.Part part : parts) {
                // maybe another worker's thread: its packing buffer is not this one's to use
                part.publisher()
                        .sendOwn(
                                clock,
                                part.baseVersions(),
                                part.gradient(),
                                part.samples(),
                                part.loss(),
                                List.of(),
                                false);
            }
            return;
        }
        // in double, in the parts' (the workers') order, by a kernel C2 compiles (scripts/compiler-directives.json)
        final GradientSum sum = new GradientSum(parts.get(0).gradient().length);
        double loss = 0;
        for (final HostSum.Part part : parts) {
            sum.add(part.gradient(), part.samples());
            loss += part.loss();
        }
        final int samples = sum.samples();
        final List<String> contributors =
                parts.stream().map(HostSum.Part::workerId).toList();
        final ShardLayout layout = job.layout();
        for (final int shard : job.shards()) {
            transport.publishGradient(record(clock, shard, baseVersions[shard], samples, loss)
                    .setWorker(contributors.get(0))
                    .setValues(FloatPacking.packFloat64(sum.values(), layout.first(shard), layout.length(shard)))
                    .setEncoding(GradientEncoding.FLOAT64)
                    .setContributors(contributors)
                    .build());
        }
    }

    private void sendOwn(
            final long clock,
            final long[] baseVersions,
            final float[] wire,
            final int samples,
            final double loss,
            final List<OffsetRange> examples,
            final boolean reuseBuffer) {
        final JobSpec spec = job.spec();
        final ShardLayout layout = job.layout();
        final boolean bfloat16 = spec.getGradientEncoding() == GradientEncoding.BFLOAT16;
        for (final int shard : job.shards()) {
            final GradientShard record = record(clock, shard, baseVersions[shard], samples, loss)
                    .setValues(
                            bfloat16
                                    ? FloatPacking.packBfloat16(layout.slice(wire, shard))
                                    : reuseBuffer
                                            ? job.buffers().pack(wire, layout.first(shard), layout.length(shard))
                                            : FloatPacking.pack(layout.slice(wire, shard)))
                    .setEncoding(spec.getGradientEncoding())
                    .setExamples(shard == 0 ? examples : List.of())
                    .build();
            // serialized here and now: the reused packed bytes are free again for the next shard
            transport.publishGradient(record);
        }
    }

    private GradientShard.Builder record(
            final long clock, final int shard, final long baseVersion, final int samples, final double loss) {
        return GradientShard.newBuilder()
                .setJob(job.spec().getJob())
                .setShard(shard)
                .setWorker(workerId)
                .setClock(clock)
                .setBaseVersion(baseVersion)
                .setSampleCount(samples)
                .setLoss(loss);
    }
}
