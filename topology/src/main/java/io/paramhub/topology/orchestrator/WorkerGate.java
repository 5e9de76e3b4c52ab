package io.paramhub.topology.orchestrator;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.topology.Topic;
import io.paramhub.topology.errors.DeadLetters;
import io.paramhub.topology.jobs.WorkerIds;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code telemetry} → the planner, or {@code dead-letters} ({@code UNKNOWN_WORKER}) for a record whose worker is not
 * in its job: an id not of the form {@code worker-NNN} ({@link WorkerIds}), or, for a job with a spec in
 * {@link OrchestratorTopology#JOB_SPEC_STORE}, an index not below its {@code expectedWorkers}. Such a worker never
 * joins a job's speeds, so no plan names it (the aggregator would refuse that plan as {@code INVALID_COMMAND}). A job
 * without a spec yet keeps the planner's rule (the workers seen so far). Forwards a {@link Gated} either way.
 */
final class WorkerGate implements Processor<String, IterationTelemetry, String, WorkerGate.Gated> {

    /** A record of {@code telemetry} to plan with, or its dead letter instead. */
    record Gated(IterationTelemetry telemetry, DeadLetter letter) {

        boolean refused() {
            return letter != null;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(WorkerGate.class);

    private final Topic<String, IterationTelemetry> source;
    private final OrchestratorMetrics metrics;
    private ProcessorContext<String, Gated> context;
    private KeyValueStore<String, JobSpec> specs;

    WorkerGate(final Topic<String, IterationTelemetry> source, final OrchestratorMetrics metrics) {
        this.source = source;
        this.metrics = metrics;
    }

    @Override
    public void init(final ProcessorContext<String, Gated> context) {
        this.context = context;
        this.specs = context.getStateStore(OrchestratorTopology.JOB_SPEC_STORE);
    }

    @Override
    public void process(final Record<String, IterationTelemetry> record) {
        final IterationTelemetry telemetry = record.value();
        final String problem = telemetry == null ? null : problem(telemetry);
        if (problem == null) {
            context.forward(record.withValue(new Gated(telemetry, null)));
            return;
        }
        final RecordMetadata metadata = context.recordMetadata().orElse(null);
        final DeadLetter letter = DeadLetters.of(
                source.name(),
                metadata == null ? -1 : metadata.partition(),
                metadata == null ? -1 : metadata.offset(),
                DeadLetterReason.UNKNOWN_WORKER,
                problem,
                source.valueSerde().serializer().serialize(source.name(), telemetry),
                record.timestamp());
        log.warn(
                "dead-lettered topic: {}, partition: {}, offset: {}, reason: {}: {}",
                source.name(),
                letter.getPartition(),
                letter.getOffset(),
                DeadLetterReason.UNKNOWN_WORKER,
                problem);
        metrics.refused();
        context.forward(record.withValue(new Gated(null, letter)));
    }

    /** Why {@code telemetry}'s worker is not in its job, or null when it may be. */
    private String problem(final IterationTelemetry telemetry) {
        final String worker = telemetry.getWorker();
        if (WorkerIds.indexOf(worker) < 0) {
            return "telemetry of job " + telemetry.getJob() + " from '" + worker + "', not a worker id (worker-NNN)";
        }
        final JobSpec spec = specs.get(telemetry.getJob());
        if (spec == null || WorkerIds.belongsTo(spec, worker)) {
            return null;
        }
        return "telemetry of job " + telemetry.getJob() + " from '" + worker + "', not one of its "
                + spec.getExpectedWorkers() + " workers (" + WorkerIds.of(0) + " to "
                + WorkerIds.of(spec.getExpectedWorkers() - 1) + ")";
    }
}
