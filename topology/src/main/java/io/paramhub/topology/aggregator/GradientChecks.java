package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OffsetRange;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.WorkerIds;
import java.util.HashSet;
import java.util.List;

/**
 * Checks a decoded gradient against its job (length of its shard, sample count, finite values, well-formed
 * example ranges, that it comes from a worker of the job, and last that a host's sum names sound contributors) and
 * unpacks it, float32, bfloat16 or (a host's sum only) float64 as its {@code encoding} says.
 */
final class GradientChecks {

    private GradientChecks() {}

    /** A gradient's values, unpacked once, or why it cannot be applied (then {@code values} is null). */
    record Checked(GradientValues values, Rejection rejection) {}

    static Checked check(final JobSpec spec, final GradientShard gradient) {
        return check(spec, JobSpecs.layout(spec), gradient);
    }

    /** The workers whose gradients {@code gradient} holds: a host's sum's contributors, else its own worker. */
    static List<String> workersOf(final GradientShard gradient) {
        return gradient.getContributors().isEmpty() ? List.of(gradient.getWorker()) : gradient.getContributors();
    }

    /** As {@link #check(JobSpec, GradientShard)} with the job's shard layout already at hand. */
    static Checked check(final JobSpec spec, final ShardLayout layout, final GradientShard gradient) {
        final GradientEncoding encoding = gradient.getEncoding();
        // a host's sum of k >= 2 workers in 8 bytes a value stays within their k float32 gradients' memory
        if (encoding == GradientEncoding.FLOAT64 && gradient.getContributors().size() < 2) {
            return reject(
                    DeadLetterReason.MALFORMED,
                    "encoding FLOAT64 is for a host's sum of two or more workers, and this gradient names "
                            + gradient.getContributors().size() + " contributors");
        }
        final int expected = layout.length(gradient.getShard());
        final int actual = switch (encoding) {
            case BFLOAT16 -> FloatPacking.countBfloat16(gradient.getValues());
            case FLOAT64 -> FloatPacking.countFloat64(gradient.getValues());
            default -> FloatPacking.count(gradient.getValues());
        };
        if (actual != expected) {
            return reject(
                    DeadLetterReason.WRONG_LENGTH,
                    "shard " + gradient.getShard() + " has " + expected
                            + " parameters but the gradient has "
                            + (actual < 0
                                    ? gradient.getValues().remaining() + " bytes, not a multiple of "
                                            + bytesPerValue(encoding)
                                    : actual + " values"));
        }
        if (gradient.getSampleCount() < 0) {
            return reject(DeadLetterReason.MALFORMED, "sampleCount must be >= 0, not " + gradient.getSampleCount());
        }
        if (!Double.isFinite(gradient.getLoss())) {
            return reject(DeadLetterReason.NON_FINITE, "loss is " + gradient.getLoss());
        }
        final GradientValues values = switch (encoding) {
            case BFLOAT16 -> GradientValues.of(FloatPacking.unpackBfloat16(gradient.getValues()));
            case FLOAT64 -> GradientValues.of(FloatPacking.unpackFloat64(gradient.getValues()));
            default -> GradientValues.of(FloatPacking.unpack(gradient.getValues()));
        };
        final Rejection problem = values.wide() == null
                ? valuesProblem(values.narrow(), gradient.getSampleCount())
                : valuesProblem(values.wide(), gradient.getSampleCount());
        if (problem != null) {
            return new Checked(null, problem);
        }
        final Rejection examples = examplesProblem(gradient.getExamples());
        if (examples != null) {
            return new Checked(null, examples);
        }
        if (!WorkerIds.belongsTo(spec, gradient.getWorker())) {
            return reject(
                    DeadLetterReason.UNKNOWN_WORKER,
                    "worker '" + gradient.getWorker() + "' is not one of the " + spec.getExpectedWorkers()
                            + " workers of job " + spec.getJob() + " (" + WorkerIds.of(0) + " to "
                            + WorkerIds.of(spec.getExpectedWorkers() - 1) + ")");
        }
        final Rejection contributors = contributorsProblem(spec, gradient);
        return contributors != null ? new Checked(null, contributors) : new Checked(values, null);
    }

    private static int bytesPerValue(final GradientEncoding encoding) {
        return switch (encoding) {
            case BFLOAT16 -> 2;
            case FLOAT64 -> 8;
            default -> 4;
        };
    }

    /** A value that is not finite, or one that is not zero in a gradient of no samples; null when none is. */
    private static Rejection valuesProblem(final float[] values, final int samples) {
        for (int i = 0; i < values.length; i++) {
            if (!Float.isFinite(values[i])) {
                return new Rejection(DeadLetterReason.NON_FINITE, "value " + i + " is " + values[i]);
            }
            // a worker whose plan share is empty still answers the barrier, with nothing in it
            if (samples == 0 && values[i] != 0) {
                return notZero(i, values[i]);
            }
        }
        return null;
    }

    private static Rejection valuesProblem(final double[] values, final int samples) {
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                return new Rejection(DeadLetterReason.NON_FINITE, "value " + i + " is " + values[i]);
            }
            if (samples == 0 && values[i] != 0) {
                return notZero(i, values[i]);
            }
        }
        return null;
    }

    private static Rejection notZero(final int index, final Number value) {
        return new Rejection(
                DeadLetterReason.MALFORMED,
                "a gradient of 0 samples holds value " + index + " = " + value + "; it must be all zeros");
    }

    /**
     * A host's sum (protocol 2): its contributors are distinct workers of the job, its own worker among them
     * ({@code MALFORMED} or {@code UNKNOWN_WORKER} otherwise); null for a sound list or none.
     */
    private static Rejection contributorsProblem(final JobSpec spec, final GradientShard gradient) {
        final List<String> contributors = gradient.getContributors();
        if (contributors.isEmpty()) {
            return null;
        }
        if (!contributors.contains(gradient.getWorker())) {
            return new Rejection(
                    DeadLetterReason.MALFORMED,
                    "worker " + gradient.getWorker() + " sent a host's sum it is not among the contributors of: "
                            + contributors);
        }
        if (new HashSet<>(contributors).size() != contributors.size()) {
            return new Rejection(DeadLetterReason.MALFORMED, "contributors named twice in " + contributors);
        }
        for (final String contributor : contributors) {
            if (!WorkerIds.belongsTo(spec, contributor)) {
                return new Rejection(
                        DeadLetterReason.UNKNOWN_WORKER,
                        "contributor '" + contributor + "' is not one of the " + spec.getExpectedWorkers()
                                + " workers of job " + spec.getJob());
            }
        }
        return null;
    }

    /**
     * A topic-mode gradient's example ranges: each a non-empty {@code [start, end)} of offsets 0 or more of a
     * partition 0 or more ({@code MALFORMED} otherwise), no offset named twice ({@code DUPLICATE}: an example
     * trained twice).
     */
    private static Rejection examplesProblem(final List<OffsetRange> examples) {
        for (final OffsetRange range : examples) {
            if (range.getPartition() < 0 || range.getStart() < 0 || range.getEnd() <= range.getStart()) {
                return new Rejection(
                        DeadLetterReason.MALFORMED,
                        "example range [" + range.getStart() + ", " + range.getEnd() + ") of partition "
                                + range.getPartition() + " is not a non-empty range of offsets >= 0");
            }
        }
        return ExampleLineage.overlapAmong(examples)
                .map(twice -> new Rejection(
                        DeadLetterReason.DUPLICATE,
                        "examples [" + twice.getStart() + ", " + twice.getEnd() + ") of partition "
                                + twice.getPartition() + " are named twice by the gradient's ranges"))
                .orElse(null);
    }

    private static Checked reject(final DeadLetterReason reason, final String message) {
        return new Checked(null, new Rejection(reason, message));
    }
}
