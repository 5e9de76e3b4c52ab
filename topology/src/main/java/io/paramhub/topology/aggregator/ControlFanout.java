package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.List;
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
 * every job (in {@code job-spec-store}) when its workers' records come. A tombstone on {@code jobs} deletes
 * the job: it leaves {@code job-spec-store} and one tombstone per shard goes to {@code shard-jobs}.
 */
final class ControlFanout {

    private static final Logger log = LoggerFactory.getLogger(ControlFanout.class);

    private ControlFanout() {}

    /** {@code jobs} → {@code shard-jobs}; an invalid job is logged and skipped; a tombstone fans out as tombstones. */
    static final class Jobs implements Processor<String, JobSpec, String, JobSpec> {
        private ProcessorContext<String, JobSpec> context;
        private KeyValueStore<String, JobSpec> specs;

        @Override
        public void init(final ProcessorContext<String, JobSpec> context) {
            this.context = context;
            this.specs = context.getStateStore(AggregatorTopology.JOB_SPEC_STORE);
        }

        @Override
        public void process(final Record<String, JobSpec> record) {
            final JobSpec spec = record.value();
            if (spec == null) {
                delete(record);
                return;
            }
            final List<String> problems = JobSpecs.problems(spec);
            if (!problems.isEmpty()) {
                log.error("skipping invalid job {}: {}", spec.getJob(), String.join("; ", problems));
                return;
            }
            specs.put(spec.getJob(), spec);
            for (int shard = 0; shard < spec.getShards(); shard++) {
                context.forward(record.withKey(ShardKeys.shard(spec.getJob(), shard)));
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
                context.forward(tombstone.withKey(ShardKeys.shard(job, shard)));
            }
            log.info("job {} deleted: its {} shards drop their state", job, known.getShards());
            context.commit();
        }
    }

    /**
     * {@code commands} → {@code shard-commands}, to shard 0 only: the plan rides with shard 0's model
     * versions, so that every BSP worker computing clock c splits the batch by the same plan.
     */
    static final class Commands implements Processor<String, ResourceCommand, String, ResourceCommand> {
        private ProcessorContext<String, ResourceCommand> context;
        private KeyValueStore<String, JobSpec> specs;

        @Override
        public void init(final ProcessorContext<String, ResourceCommand> context) {
            this.context = context;
            this.specs = context.getStateStore(AggregatorTopology.JOB_SPEC_STORE);
        }

        @Override
        public void process(final Record<String, ResourceCommand> record) {
            final ResourceCommand command = record.value();
            if (command != null && specs.get(command.getJob()) != null) {
                context.forward(record.withKey(ShardKeys.shard(command.getJob(), 0)));
                context.commit();
            }
        }
    }

    /** {@code membership} → {@code shard-membership}, for jobs already known. */
    static final class Members implements Processor<String, WorkerStatus, String, WorkerStatus> {
        private ProcessorContext<String, WorkerStatus> context;
        private KeyValueStore<String, JobSpec> specs;

        @Override
        public void init(final ProcessorContext<String, WorkerStatus> context) {
            this.context = context;
            this.specs = context.getStateStore(AggregatorTopology.JOB_SPEC_STORE);
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
            for (int shard = 0; shard < spec.getShards(); shard++) {
                context.forward(record.withKey(ShardKeys.shard(spec.getJob(), shard)));
            }
            // a join or departure can complete a clock the others wait for; a heartbeat waits for the
            // next commit (a round's, or the commit interval), which is well within a session timeout
            if (status.getState() != WorkerState.HEARTBEAT) {
                context.commit();
            }
        }
    }
}
