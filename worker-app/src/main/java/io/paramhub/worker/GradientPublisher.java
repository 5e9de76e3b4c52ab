package io.paramhub.worker;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import java.util.List;

/**
 * Cuts a worker's gradient into one {@code GradientShard} per shard it writes (its stage's) and sends them to
 * {@code gradients}: the gradient rounded to float32, then as the job's encoding asks ({@code BFLOAT16}: with
 * this worker's error feedback, which a clock without samples leaves alone); a topic-mode gradient's shard 0 record
 * carries the offset ranges of its examples.
 */
final class GradientPublisher {

    private final JobContext job;
    private final String workerId;
    private final WorkerTransport transport;

    GradientPublisher(final JobContext job, final String workerId, final WorkerTransport transport) {
        this.job = job;
        this.workerId = workerId;
        this.transport = transport;
    }

    /** Sends {@code work}'s gradient of {@code clock}, computed on the shards' {@code baseVersions}. */
    void publish(final long clock, final long[] baseVersions, final ClockWork work) {
        final JobSpec spec = job.spec();
        final ShardLayout layout = job.layout();
        final boolean bfloat16 = spec.getGradientEncoding() == GradientEncoding.BFLOAT16;
        final float[] float32 = job.buffers().float32Of(work.gradient());
        final float[] wire = work.samples() > 0 ? job.rounding().round(float32) : float32;
        for (final int shard : job.shards()) {
            final GradientShard record = GradientShard.newBuilder()
                    .setJob(spec.getJob())
                    .setShard(shard)
                    .setWorker(workerId)
                    .setClock(clock)
                    .setBaseVersion(baseVersions[shard])
                    .setSampleCount(work.samples())
                    .setLoss(work.loss())
                    .setValues(
                            bfloat16
                                    ? FloatPacking.packBfloat16(layout.slice(wire, shard))
                                    : job.buffers().pack(wire, layout.first(shard), layout.length(shard)))
                    .setEncoding(spec.getGradientEncoding())
                    .setExamples(
                            shard == 0 && work.online() != null ? work.online().ranges() : List.of())
                    .build();
            // serialized here and now: the reused packed bytes are free again for the next shard
            transport.publishGradient(record);
        }
    }
}
