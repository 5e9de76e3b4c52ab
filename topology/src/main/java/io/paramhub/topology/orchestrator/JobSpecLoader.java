package io.paramhub.topology.orchestrator;

import io.paramhub.avro.JobSpec;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Keeps every job of {@code jobs} in the global {@link OrchestratorTopology#JOB_SPEC_STORE}; a tombstone removes it. */
final class JobSpecLoader implements Processor<String, JobSpec, Void, Void> {

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
        } else {
            specs.put(record.key(), record.value());
        }
    }
}
