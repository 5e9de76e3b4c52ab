package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns each job on {@code jobs} into one record per shard, keyed {@code job/shard}, for
 * {@code shard-jobs}: partitioned like {@code gradients}, so each shard's task learns its job.
 * An invalid job is logged and skipped.
 */
final class JobFanoutProcessor implements Processor<String, JobSpec, String, JobSpec> {

    private static final Logger log = LoggerFactory.getLogger(JobFanoutProcessor.class);

    private ProcessorContext<String, JobSpec> context;

    @Override
    public void init(final ProcessorContext<String, JobSpec> context) {
        this.context = context;
    }

    @Override
    public void process(final Record<String, JobSpec> record) {
        final JobSpec spec = record.value();
        if (spec == null) {
            return;
        }
        final List<String> problems = JobSpecs.problems(spec);
        if (!problems.isEmpty()) {
            log.error("skipping invalid job {}: {}", spec.getJob(), String.join("; ", problems));
            return;
        }
        for (int shard = 0; shard < spec.getShards(); shard++) {
            context.forward(record.withKey(ShardKeys.shard(spec.getJob(), shard)));
        }
    }
}
