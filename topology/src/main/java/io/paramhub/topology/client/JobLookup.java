package io.paramhub.topology.client;

import io.paramhub.avro.JobSpec;
import io.paramhub.topology.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

/** Finds a job's newest {@link JobSpec} on the compacted {@code jobs} topic, waiting for it to be submitted. */
public final class JobLookup {

    private JobLookup() {}

    public static JobSpec await(
            final Topic<String, JobSpec> jobs,
            final Properties clientProperties,
            final String job,
            final Duration timeout) {
        final Instant deadline = Instant.now().plus(timeout);
        final AtomicReference<JobSpec> found = new AtomicReference<>();
        try (TopicReader<String, JobSpec> reader = new TopicReader<>(jobs, clientProperties)) {
            while (true) {
                final int read = reader.poll(Duration.ofMillis(100), record -> {
                    if (job.equals(record.key())) {
                        found.set(record.value());
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
