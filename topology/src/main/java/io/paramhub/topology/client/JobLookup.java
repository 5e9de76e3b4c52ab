package io.paramhub.topology.client;

import io.paramhub.avro.JobSpec;
import io.paramhub.topology.Topic;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a job's newest valid {@link JobSpec} on the compacted {@code jobs} topic, waiting for it to be
 * submitted. A spec that fails {@link JobSpecs#problems} is logged and passed over (the aggregator sets it
 * aside on {@code dead-letters}), so that a bad resubmission cannot replace a running job's spec.
 */
public final class JobLookup {

    private static final Logger log = LoggerFactory.getLogger(JobLookup.class);

    private JobLookup() {}

    /** As {@link #await(Topic, Properties, String, Duration, UndecodableRecordHandler)}, logging undecodable records. */
    public static JobSpec await(
            final Topic<String, JobSpec> jobs,
            final Properties clientProperties,
            final String job,
            final Duration timeout) {
        return await(jobs, clientProperties, job, timeout, UndecodableRecordHandler.LOG);
    }

    /** The job's newest valid spec, handing records that do not deserialize to {@code undecodable}. */
    public static JobSpec await(
            final Topic<String, JobSpec> jobs,
            final Properties clientProperties,
            final String job,
            final Duration timeout,
            final UndecodableRecordHandler undecodable) {
        final Instant deadline = Instant.now().plus(timeout);
        final AtomicReference<JobSpec> found = new AtomicReference<>();
        try (TopicReader<String, JobSpec> reader = new TopicReader<>(jobs, clientProperties, Map.of(), undecodable)) {
            while (true) {
                final int read = reader.poll(Duration.ofMillis(100), record -> {
                    if (job.equals(record.key()) && record.value() != null) {
                        final List<String> problems = JobSpecs.problems(record.value());
                        if (problems.isEmpty()) {
                            found.set(record.value());
                        } else {
                            log.warn(
                                    "passed over an invalid spec of job {} at offset {}: {}",
                                    job,
                                    record.offset(),
                                    String.join("; ", problems));
                        }
                    }
                });
                if (found.get() != null && read == 0) {
                    return found.get();
                }
                if (Instant.now().isAfter(deadline)) {
                    if (found.get() != null) {
                        return found.get();
                    }
                    throw new IllegalStateException("job '" + job + "' was not found on topic " + jobs.name()
                            + " within " + timeout.toSeconds() + " s: submit it first");
                }
            }
        }
    }
}
