package io.paramhub.topology.orchestrator;

import io.paramhub.avro.JobSpec;
import io.paramhub.topology.jobs.ExternalModels;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every valid job of {@code jobs} in the global {@link OrchestratorTopology#JOB_SPEC_STORE}; a tombstone
 * removes it. An invalid spec ({@link JobSpecs#problems}) is logged and skipped: the aggregator sets it aside
 * on {@code dead-letters}, and a global store's processor has no way to write one.
 */
final class JobSpecLoader implements Processor<String, JobSpec, Void, Void> {

    private static final Logger log = LoggerFactory.getLogger(JobSpecLoader.class);

    private KeyValueStore<String, JobSpec> specs;

    @Override
    public void init(final ProcessorContext<Void, Void> context) {
        this.specs = context.getStateStore(OrchestratorTopology.JOB_SPEC_STORE);
    }

    @Override
    public void process(final Record<String, JobSpec> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            specs.delete(record.key());
            return;
        }
        final List<String> problems = JobSpecs.problems(record.value());
        if (problems.isEmpty()) {
            specs.put(record.key(), ExternalModels.withoutParameters(record.value()));
        } else {
            log.warn("skipped invalid job {}: {}", record.key(), String.join("; ", problems));
        }
    }
}
