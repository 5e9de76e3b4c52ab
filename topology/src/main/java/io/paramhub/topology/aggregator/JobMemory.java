package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Model;
import io.paramhub.ml.PipelineModel;
import io.paramhub.topology.jobs.ExternalModels;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.sync.SyncPolicy;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * What one valid job costs in memory, all its shards together, by part, in bytes: its parameters
 * ({@code float[]} in {@link HotShard}), its optimizer state (Adam 2 slots, SGD with momentum 1, plain SGD 0),
 * the gradients a BSP shard buffers until its barrier (every expected worker for each clock of the sync mode's
 * window; SSP and ASP apply on arrival), the copies in the shard stores (parameters and optimizer state in both
 * {@code shard-state-store} and {@code shard-snapshot-store}, the newest version in {@code shard-model-store}),
 * and for a staged job the activations and their gradients at each stage boundary for a clock's global batch.
 * {@link MemoryAdmission} refuses a job whose total, alone or with the live jobs', is over
 * {@link AggregatorTopology#JOB_MEMORY_BUDGET_CONFIG}. Reads and writes no topic.
 */
record JobMemory(long parameters, long optimizerState, long bufferedGradients, long snapshots, long activations) {

    private static final String BUDGET_CONFIG = AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG;
    private static final double MIB = 1024.0 * 1024.0;

    /** The estimate for {@code spec}, which {@link JobSpecs#problems} finds nothing wrong with. */
    static JobMemory of(final JobSpec spec) {
        final long vector = (long) spec.getParameters() * Float.BYTES;
        final int slots = JobSpecs.optimizer(spec).stateSlots();
        final SyncPolicy policy = SyncPolicy.of(spec);
        final long buffered = policy.mode() == SyncMode.BSP
                ? (long) spec.getExpectedWorkers() * (policy.clockBound() + 1) * vector
                : 0;
        return new JobMemory(vector, slots * vector, buffered, 2L * (1 + slots) * vector + vector, activations(spec));
    }

    /** A staged job's activations and their gradients at every stage boundary, for one clock's global batch. */
    private static long activations(final JobSpec spec) {
        if (spec.getStages() <= 1 || ExternalModels.isExternal(spec)) {
            return 0;
        }
        final Model model = JobSpecs.model(spec);
        if (!(model instanceof PipelineModel pipeline)) {
            return 0;
        }
        long widths = 0;
        for (int stage = 0; stage < spec.getStages() - 1; stage++) {
            widths += pipeline.stage(stage, spec.getStages()).outputWidth();
        }
        return 2L * widths * spec.getGlobalBatch() * Float.BYTES;
    }

    long total() {
        return parameters + optimizerState + bufferedGradients + snapshots + activations;
    }

    /** Why {@code spec} is refused under {@code budget}, or {@code null} when its estimate fits. */
    String overBudget(final JobSpec spec, final long budget) {
        if (total() <= budget) {
            return null;
        }
        return "estimated memory " + mib(total()) + " > budget " + mib(budget) + " (" + BUDGET_CONFIG + "): "
                + "parameters " + mib(parameters)
                + ", optimizer state " + mib(optimizerState) + " (" + spec.getOptimizer() + ", "
                + (parameters == 0 ? 0 : optimizerState / parameters) + " slots)"
                + ", buffered gradients " + mib(bufferedGradients) + " (" + spec.getSyncMode() + ", "
                + spec.getExpectedWorkers() + " workers)"
                + ", snapshots " + mib(snapshots)
                + ", activations " + mib(activations) + " (" + spec.getStages() + " stages)";
    }

    /**
     * {@link #BUDGET_CONFIG} from the app's settings, or half of {@code maxHeap}; at least 1. Throws Kafka's
     * {@code ConfigException} naming the setting otherwise.
     */
    static long budget(final Map<?, ?> appConfigs, final long maxHeap) {
        final Object value = appConfigs.get(BUDGET_CONFIG);
        if (value == null) {
            return Math.max(1, maxHeap / 2);
        }
        final long budget;
        try {
            budget = Long.parseLong(value.toString().trim());
        } catch (final NumberFormatException e) {
            throw new ConfigException(BUDGET_CONFIG, value, "must be a whole number of bytes");
        }
        if (budget < 1) {
            throw new ConfigException(BUDGET_CONFIG, value, "must be at least 1");
        }
        return budget;
    }

    static String mib(final long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / MIB);
    }
}
