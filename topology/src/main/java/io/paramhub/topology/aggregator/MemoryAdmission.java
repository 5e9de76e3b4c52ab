package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Admits a job against the aggregator's memory budget ({@link AggregatorTopology#JOB_MEMORY_BUDGET_CONFIG}) across
 * jobs: the job's estimate ({@link JobMemory}) plus the estimates of every live job already admitted (each one in
 * {@code job-spec-store}; the job itself left out when it is submitted again) must fit. Reads and writes no topic.
 *
 * <p>Why every live job and not those of one instance or task: {@code jobs} has one partition, so one task
 * ({@link ControlFanout.Jobs}) admits every job of the application, and it cannot know where the shards will be
 * served. The shards of all live jobs spread over the {@code gradients} partitions, and when the other instances
 * are down Kafka Streams moves every task onto the one left: the sum over all live jobs is what one instance may
 * have to hold, and any smaller sum would admit jobs that do not fit after a failover. A deleted job (a tombstone
 * on {@code jobs}) leaves the store and releases its share; a finished one keeps its state in the shard stores until
 * it is deleted, so it counts until then.
 */
final class MemoryAdmission {

    private MemoryAdmission() {}

    /** {@code bytes} in MiB, and exactly: jobs close to the budget differ by less than a tenth of a MiB. */
    static String figure(final long bytes) {
        return JobMemory.mib(bytes) + " (" + bytes + " bytes)";
    }

    /**
     * Why {@code spec} is refused under {@code budget} with the jobs of {@code admitted}, or {@code null} when it
     * fits: its own figures when it alone is over, else its estimate, the others' and the budget.
     */
    static String refusal(
            final JobSpec spec, final long budget, final ReadOnlyKeyValueStore<String, JobSpec> admitted) {
        final JobMemory own = JobMemory.of(spec);
        final String alone = own.overBudget(spec, budget);
        if (alone != null) {
            return alone;
        }
        long others = 0;
        int count = 0;
        try (KeyValueIterator<String, JobSpec> all = admitted.all()) {
            while (all.hasNext()) {
                final KeyValue<String, JobSpec> next = all.next();
                if (next.value != null && !next.key.equals(spec.getJob())) {
                    others += JobMemory.of(next.value).total();
                    count++;
                }
            }
        }
        if (own.total() + others <= budget) {
            return null;
        }
        return "estimated memory " + figure(own.total()) + " + " + figure(others) + " of the " + count + " live job"
                + (count == 1 ? "" : "s") + " already admitted > budget " + figure(budget) + " ("
                + AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG + ", across live jobs): delete a finished job or raise "
                + "the budget";
    }
}
