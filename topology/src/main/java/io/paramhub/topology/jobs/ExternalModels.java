package io.paramhub.topology.jobs;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.TensorShape;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Jobs whose model the aggregator does not know ({@code model = external}): a PyTorch network trained by workers
 * in another language, say. Their spec carries the parameter layout ({@code tensors}) and version 0
 * ({@code initialParameters}, from the submitter); the aggregator checks both, seeds each shard from its slice and
 * otherwise sums and steps flat vectors exactly as for its own models. Reads and writes no topic.
 */
public final class ExternalModels {

    /** The model kind of such a job. */
    public static final String KIND = "external";

    /**
     * Parameters an external model may have: 2^24, whose version 0 (64 MiB of float32) travels in one {@code jobs}
     * record (ParamHub creates {@code jobs} to take it: {@code TopicCatalog.JOBS_MAX_MESSAGE_BYTES}).
     */
    public static final int MAX_PARAMETERS = 1 << 24;

    /** Dimensions a tensor may have. */
    public static final int MAX_RANK = 8;

    /** Tensors a model may have. */
    public static final int MAX_TENSORS = 10_000;

    private ExternalModels() {}

    /** Whether {@code spec}'s model is external. */
    public static boolean isExternal(final JobSpec spec) {
        return KIND.equals(spec.getModel());
    }

    /** What is wrong with {@code spec}'s external layout and version 0 (or, for a built-in model, that it has one). */
    static List<String> problems(final JobSpec spec) {
        final List<String> problems = new ArrayList<>();
        if (!isExternal(spec)) {
            if (!spec.getTensors().isEmpty() || spec.getInitialParameters() != null) {
                problems.add("only an external model carries tensors and initialParameters; model " + spec.getModel()
                        + " is built in");
            }
            return problems;
        }
        if (spec.getParameters() > MAX_PARAMETERS) {
            problems.add("an external model may have at most " + MAX_PARAMETERS + " parameters, not "
                    + spec.getParameters());
        }
        final long values = tensorProblems(spec.getTensors(), problems);
        if (values >= 0 && values != spec.getParameters()) {
            problems.add("the tensors hold " + values + " values but parameters is " + spec.getParameters());
        }
        final ByteBuffer initial = spec.getInitialParameters();
        if (initial == null) {
            problems.add("an external model needs initialParameters, its version 0");
        } else if (initial.remaining() != 4L * spec.getParameters()) {
            problems.add("initialParameters has " + initial.remaining() + " bytes, not 4 x parameters = "
                    + 4L * spec.getParameters());
        } else {
            final int bad = firstNonFinite(FloatPacking.unpack(initial));
            if (bad >= 0) {
                problems.add("initialParameters holds a NaN or infinite value at index " + bad);
            }
        }
        return problems;
    }

    /** The values {@code tensors} hold, adding their problems; -1 when they cannot be counted. */
    private static long tensorProblems(final List<TensorShape> tensors, final List<String> problems) {
        if (tensors.isEmpty() || tensors.size() > MAX_TENSORS) {
            problems.add("an external model needs 1 to " + MAX_TENSORS + " tensors, not " + tensors.size());
            return -1;
        }
        final Set<String> names = new HashSet<>();
        long total = 0;
        for (final TensorShape tensor : tensors) {
            if (tensor.getName().isEmpty() || !names.add(tensor.getName())) {
                problems.add("tensor names must be non-empty and distinct: '" + tensor.getName() + "'");
                return -1;
            }
            if (tensor.getShape().size() > MAX_RANK) {
                problems.add("tensor " + tensor.getName() + " has "
                        + tensor.getShape().size() + " dimensions, more than " + MAX_RANK);
                return -1;
            }
            long size = 1;
            for (final int dimension : tensor.getShape()) {
                if (dimension < 1 || dimension > MAX_PARAMETERS) {
                    problems.add("tensor " + tensor.getName() + " has dimension " + dimension + " (1 to "
                            + MAX_PARAMETERS + ")");
                    return -1;
                }
                size *= dimension;
                if (size > MAX_PARAMETERS) {
                    problems.add("tensor " + tensor.getName() + " holds more than " + MAX_PARAMETERS + " values");
                    return -1;
                }
            }
            total += size;
        }
        return total;
    }

    private static int firstNonFinite(final float[] values) {
        for (int i = 0; i < values.length; i++) {
            if (!Float.isFinite(values[i])) {
                return i;
            }
        }
        return -1;
    }

    /**
     * What {@code shard}'s task is told of a valid {@code spec}: for an external model, the spec with
     * {@code initialParameters} cut to the shard's slice, so that no shard's record carries the whole model;
     * a built-in model's spec as it is.
     */
    public static JobSpec forShard(final JobSpec spec, final int shard) {
        if (!isExternal(spec)) {
            return spec;
        }
        final ShardLayout layout = JobSpecs.layout(spec);
        final ByteBuffer whole = spec.getInitialParameters().duplicate();
        whole.position(whole.position() + 4 * layout.first(shard));
        whole.limit(whole.position() + 4 * layout.length(shard));
        final ByteBuffer slice =
                ByteBuffer.allocate(whole.remaining()).put(whole).flip();
        return JobSpec.newBuilder(spec).setInitialParameters(slice).build();
    }

    /** {@code spec} without its version 0: what the aggregator keeps of a job once the shards are told. */
    public static JobSpec withoutParameters(final JobSpec spec) {
        return spec.getInitialParameters() == null
                ? spec
                : JobSpec.newBuilder(spec).setInitialParameters(null).build();
    }

    /**
     * Version 0 of {@code shard} from a spec {@link #forShard} made: its slice of {@code initialParameters}.
     *
     * @throws IllegalStateException when the slice does not fit the shard
     */
    public static float[] initialShard(final JobSpec shardSpec, final int shard) {
        final int size = JobSpecs.layout(shardSpec).length(shard);
        final ByteBuffer slice = shardSpec.getInitialParameters();
        if (slice == null || slice.remaining() != 4 * size) {
            throw new IllegalStateException("job " + shardSpec.getJob() + " shard " + shard
                    + ": the version 0 slice holds " + (slice == null ? 0 : slice.remaining() / 4) + " values, not "
                    + size);
        }
        return FloatPacking.unpack(slice);
    }
}
