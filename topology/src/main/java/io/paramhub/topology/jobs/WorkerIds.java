package io.paramhub.topology.jobs;

import io.paramhub.avro.JobSpec;

/**
 * The worker ids of a job: {@code worker-<index>}, zero-padded to three digits so that ids sort like
 * indices, for each index below the job's {@code expectedWorkers}. Workers name themselves so on every
 * record; the aggregator refuses a gradient from any other id. Reads and writes no topic.
 */
public final class WorkerIds {

    private static final String PREFIX = "worker-";

    private WorkerIds() {}

    /** The id of the worker with {@code index}. Called several times a clock, so no {@code String.format}. */
    public static String of(final int index) {
        final String digits = Integer.toString(index);
        return digits.length() >= 3 ? PREFIX + digits : PREFIX + "000".substring(digits.length()) + digits;
    }

    /** Whether {@code worker} is the id of one of {@code spec}'s expected workers. */
    public static boolean belongsTo(final JobSpec spec, final String worker) {
        final int index = indexOf(worker);
        return index >= 0 && index < spec.getExpectedWorkers();
    }

    /** The index {@code worker} is the id of ({@link #of}), or -1 for a string that is no worker id. */
    public static int indexOf(final String worker) {
        if (worker == null || !worker.startsWith(PREFIX)) {
            return -1;
        }
        final String digits = worker.substring(PREFIX.length());
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        final int index = Integer.parseInt(digits);
        return of(index).equals(worker) ? index : -1;
    }
}
