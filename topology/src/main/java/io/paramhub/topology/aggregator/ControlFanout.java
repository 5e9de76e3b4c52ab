package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.Topic;
import io.paramhub.topology.jobs.ExternalModels;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.PlanChecks;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans {@code jobs} and {@code membership} out to one record per shard, keyed {@code job/shard}, for
 * {@code shard-jobs} and {@code shard-membership}, and {@code commands} to shard 0: partitioned like {@code gradients}, so each
 * shard's task learns its job and its workers. Both sources have one partition, so this task knows
 * every job (in {@code job-spec-store}) when its workers' records come. Invalid jobs (jobs over the memory
 * budget too, with the live jobs already admitted: {@link MemoryAdmission}), invalid commands and membership
 * records stamped far from the broker's time or of workers not of the job go to {@code dead-letters} instead. A
 * tombstone on {@code jobs} deletes the job: it leaves {@code job-spec-store} and one tombstone per shard goes to
 * {@code shard-jobs}.
 */
final class ControlFanout {

    private static final Logger log = LoggerFactory.getLogger(ControlFanout.class);

    private ControlFanout() {}

    /**
     * {@code jobs} → {@code shard-jobs}; an invalid job goes to {@code dead-letters} ({@code INVALID_JOB})
     * instead; a tombstone fans out as tombstones.
     */
    static final class Jobs implements Processor<String, JobSpec, String, SpecificRecord> {
        private final Topic<String, JobSpec> source;
        private final AggregatorMetrics metrics;
        private ProcessorContext<String, SpecificRecord> context;
        private KeyValueStore<String, JobSpec> specs;
        private long memoryBudget;

        Jobs(final Topic<String, JobSpec> source, final AggregatorMetrics metrics) {
            this.source = source;
            this.metrics = metrics;
        }

        @Override
        public void init(final ProcessorContext<String, SpecificRecord> context) {
            this.context = context;
            this.specs = context.getStateStore(AggregatorTopology.JOB_SPEC_STORE);
            this.memoryBudget = AggregatorTopology.jobMemoryBudget(context.appConfigs());
        }

        @Override
        public void process(final Record<String, JobSpec> record) {
            final JobSpec spec = record.value();
            if (spec == null) {
                delete(record);
                return;
            }
            final List<String> problems = new ArrayList<>(JobSpecs.problems(spec));
            if (problems.isEmpty()) {
                final String overBudget = MemoryAdmission.refusal(spec, memoryBudget, specs);
                if (overBudget != null) {
                    problems.add(overBudget);
                }
            }
            if (!problems.isEmpty()) {
                deadLetter(
                        context,
                        metrics,
                        source,
                        record,
                        new Rejection(
                                DeadLetterReason.INVALID_JOB,
                                "invalid job " + spec.getJob() + ": " + String.join("; ", problems)));
                return;
            }
            // an external model's version 0 reaches each shard as its own slice, and is not kept here
            specs.put(spec.getJob(), ExternalModels.withoutParameters(spec));
            for (int shard = 0; shard < spec.getShards(); shard++) {
                context.forward(
                        record.withKey(ShardKeys.shard(spec.getJob(), shard))
                                .withValue((SpecificRecord) ExternalModels.forShard(spec, shard)),
                        AggregatorTopology.SHARD_JOBS_SINK);
            }
            context.commit();
        }

        private void delete(final Record<String, JobSpec> tombstone) {
            final String job = tombstone.key();
            final JobSpec known = job == null ? null : specs.get(job);
            if (known == null) {
                log.debug("tombstone of unknown job {} ignored", job);
                return;
            }
            specs.delete(job);
            for (int shard = 0; shard < known.getShards(); shard++) {
                context.forward(
                        tombstone.withKey(ShardKeys.shard(job, shard)).withValue((SpecificRecord) null),
                        AggregatorTopology.SHARD_JOBS_SINK);
            }
            log.info("job {} deleted: its {} shards drop their state", job, known.getShards());
            context.commit();
        }
    }

    /**
     * {@code commands} → {@code shard-commands}, to shard 0 only: the plan rides with shard 0's model
     * versions, so that every BSP worker computing clock c splits the batch by the same plan. A command the
     * orchestrator cannot have issued ({@link PlanChecks#problems}: a share outside [0, 1], threads outside the cap,
     * empty speeds, a worker not of the job) goes to {@code dead-letters} ({@code INVALID_COMMAND}) instead; shard 0
     * checks what needs the plan (the epoch's step, the whole plan's shares).
     */
    static final class Commands implements Processor<String, ResourceCommand, String, SpecificRecord> {
        private final Topic<String, ResourceCommand> source;
        private final AggregatorMetrics metrics;
        private ProcessorContext<String, SpecificRecord> context;
        private KeyValueStore<String, JobSpec> specs;

        Commands(final Topic<String, ResourceCommand> source, final AggregatorMetrics metrics) {
            this.source = source;
            this.metrics = metrics;
        }

        @Override
        public void init(final ProcessorContext<String, SpecificRecord> context) {
            this.context = context;
            this.specs = context.getStateStore(AggregatorTopology.JOB_SPEC_STORE);
        }

        @Override
        public void process(final Record<String, ResourceCommand> record) {
            final ResourceCommand command = record.value();
            final JobSpec spec = command == null ? null : specs.get(command.getJob());
            if (spec == null) {
                return;
            }
            final List<String> problems = PlanChecks.problems(command, spec);
            if (!problems.isEmpty()) {
                deadLetter(
                        context,
                        metrics,
                        source,
                        record,
                        new Rejection(DeadLetterReason.INVALID_COMMAND, String.join("; ", problems)));
                return;
            }
            context.forward(
                    record.withKey(ShardKeys.shard(command.getJob(), 0)).withValue((SpecificRecord) command),
                    AggregatorTopology.SHARD_COMMANDS_SINK);
            context.commit();
        }
    }

    /**
     * {@code membership} → {@code shard-membership}, for jobs already known. A record whose worker's stamp
     * ({@code WorkerStatus.timestamp}) is more than the tolerance
     * ({@link AggregatorTopology#membershipClockToleranceMs}) from the record's time, the broker's append time
     * ({@code membership} is a {@code LogAppendTime} topic), goes to {@code dead-letters} ({@code CLOCK_SKEW})
     * instead. The shards judge liveness by record time, so no producer can post-date a record to drop the
     * other workers; the check tells of a client whose clock, or intent, is off. A record of a worker id not of
     * the job goes there too ({@link MemberChecks#problem}: {@code UNKNOWN_WORKER}).
     */
    static final class Members implements Processor<String, WorkerStatus, String, SpecificRecord> {
        private final Topic<String, WorkerStatus> source;
        private final AggregatorMetrics metrics;
        private ProcessorContext<String, SpecificRecord> context;
        private KeyValueStore<String, JobSpec> specs;
        private long toleranceMs;

        Members(final Topic<String, WorkerStatus> source, final AggregatorMetrics metrics) {
            this.source = source;
            this.metrics = metrics;
        }

        @Override
        public void init(final ProcessorContext<String, SpecificRecord> context) {
            this.context = context;
            this.specs = context.getStateStore(AggregatorTopology.JOB_SPEC_STORE);
            this.toleranceMs = AggregatorTopology.membershipClockToleranceMs(context.appConfigs());
        }

        @Override
        public void process(final Record<String, WorkerStatus> record) {
            final WorkerStatus status = record.value();
            if (status == null) {
                return;
            }
            final JobSpec spec = specs.get(status.getJob());
            if (spec == null) {
                log.debug("membership of unknown job {} from {} ignored", status.getJob(), status.getWorker());
                return;
            }
            final Rejection skew = skew(status, record.timestamp());
            final Rejection refused = skew != null ? skew : MemberChecks.problem(spec, status);
            if (refused != null) {
                deadLetter(context, metrics, source, record, refused);
                return;
            }
            for (int shard = 0; shard < spec.getShards(); shard++) {
                context.forward(
                        record.withKey(ShardKeys.shard(spec.getJob(), shard)).withValue((SpecificRecord) status),
                        AggregatorTopology.SHARD_MEMBERSHIP_SINK);
            }
            // a join or departure can complete a clock the others wait for; a heartbeat waits for the
            // next commit (a round's, or the commit interval), which is well within a session timeout
            if (status.getState() != WorkerState.HEARTBEAT) {
                context.commit();
            }
        }

        private Rejection skew(final WorkerStatus status, final long recordTime) {
            final long stamped = status.getTimestamp().toEpochMilli();
            if (Math.abs(stamped - recordTime) <= toleranceMs) {
                return null;
            }
            return new Rejection(
                    DeadLetterReason.CLOCK_SKEW,
                    status.getWorker() + " stamped its " + status.getState() + " " + (stamped - recordTime)
                            + " ms from the broker's time; the tolerance is " + toleranceMs + " ms");
        }
    }

    /** Sends {@code record} of {@code source} to {@code dead-letters} with its bytes, logged and counted. */
    private static <V extends SpecificRecord> void deadLetter(
            final ProcessorContext<String, SpecificRecord> context,
            final AggregatorMetrics metrics,
            final Topic<String, V> source,
            final Record<String, V> record,
            final Rejection rejection) {
        final byte[] bytes = source.valueSerde().serializer().serialize(source.name(), record.value());
        final DeadLetter letter = rejection.letter(context, source.name(), bytes, record.timestamp());
        log.warn(
                "dead-lettered topic: {}, partition: {}, offset: {}, reason: {}: {}",
                source.name(),
                letter.getPartition(),
                letter.getOffset(),
                rejection.reason(),
                rejection.message());
        metrics.deadLetter(rejection.reason());
        context.forward(record.withValue((SpecificRecord) letter), AggregatorTopology.FANOUT_DEAD_LETTER_SINK);
    }
}
