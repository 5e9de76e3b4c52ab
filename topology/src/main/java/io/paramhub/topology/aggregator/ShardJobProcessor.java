package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ShardState;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a shard when its job arrives on {@code shard-jobs}: stores the job and the initial state
 * and publishes version 0 to {@code model}, which is what workers wait for before their first
 * iteration. The same job again changes nothing; a job resubmitted under the same name with a new
 * {@code createdAt} restarts the shard from its initial parameters.
 */
final class ShardJobProcessor implements Processor<String, JobSpec, String, ModelShard> {

    private static final Logger log = LoggerFactory.getLogger(ShardJobProcessor.class);

    private ProcessorContext<String, ModelShard> context;
    private KeyValueStore<String, JobSpec> jobs;
    private KeyValueStore<String, ShardState> states;
    private PendingGradients pending;

    @Override
    public void init(final ProcessorContext<String, ModelShard> context) {
        this.context = context;
        this.jobs = context.getStateStore(AggregatorTopology.SHARD_JOB_STORE);
        this.states = context.getStateStore(AggregatorTopology.SHARD_STATE_STORE);
        this.pending = new PendingGradients(context.getStateStore(AggregatorTopology.PENDING_GRADIENT_STORE));
    }

    @Override
    public void process(final Record<String, JobSpec> record) {
        final JobSpec spec = record.value();
        final int shard = Integer.parseInt(record.key().substring(record.key().lastIndexOf('/') + 1));
        final JobSpec known = jobs.get(record.key());
        if (known != null && known.getCreatedAt().equals(spec.getCreatedAt())) {
            return;
        }
        if (known != null) {
            log.warn("job {} resubmitted (created {} after {}): shard {} restarts from its initial parameters",
                spec.getJob(), spec.getCreatedAt(), known.getCreatedAt(), shard);
            pending.deleteShard(spec.getJob(), shard);
        }
        final ShardState initial = ShardUpdate.initial(spec, shard);
        jobs.put(record.key(), spec);
        states.put(record.key(), initial);
        context.forward(record.withValue(ShardUpdate.published(spec, initial, Instant.now())));
    }
}
