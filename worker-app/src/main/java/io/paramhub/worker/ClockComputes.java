package io.paramhub.worker;

import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.PipelineStage;
import io.paramhub.ml.TopicSpec;
import io.paramhub.topology.jobs.StagePlan;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses, once at start-up, how a worker computes its clocks: the whole model on a pool of threads
 * ({@link DataParallelCompute}) or one pipeline stage ({@link StageCompute}, with its link to the neighbouring
 * stages on {@code activations} and {@code activation-gradients}), each wrapped in its emulated compute cost
 * when the settings ask for one, or, for a job whose examples stream from a topic, {@link StreamCompute}. The one
 * place that knows about emulation.
 */
final class ClockComputes {

    private static final Logger log = LoggerFactory.getLogger(ClockComputes.class);

    private ClockComputes() {}

    /**
     * The compute of {@code settings}' worker for {@code job}; {@code stopping} says when to stop waiting for
     * neighbours, {@code stop} stops the worker.
     */
    static ClockCompute forJob(
            final JobContext job,
            final WorkerSettings settings,
            final WorkerTransport transport,
            final BooleanSupplier stopping,
            final Runnable stop) {
        final ComputeEmulation emulation = settings.emulation();
        if (job.streamed()) {
            final ClockCompute streamed = streamed(job, settings, transport, stopping, stop);
            return emulation.active() ? new EmulatedClockCompute(streamed, emulation, stop) : streamed;
        }
        if (!job.plan().hybrid()) {
            final ClockCompute whole = new DataParallelCompute(job, settings);
            return emulation.active() ? new EmulatedClockCompute(whole, emulation, stop) : whole;
        }
        final StagePlan plan = job.plan();
        final PipelineStage stage = plan.stage(job.stage());
        log.info(
                "{} computes stage {} of {} of replica {} of {}: {} parameters of {}, shards {}",
                settings.workerId(),
                job.stage(),
                plan.stages(),
                plan.replicaOf(settings.index()),
                plan.replicas(),
                stage.parameterCount(),
                job.spec().getParameters(),
                job.shards());
        final ActivationExchange exchange = transport.exchange(job.spec(), plan, settings.index(), settings.workerId());
        return new StageCompute(
                job,
                emulation.active()
                        ? new EmulatedStage(
                                stage,
                                emulation,
                                ((PipelineModel) job.model()).computeShare(stage.index(), plan.stages()))
                        : stage,
                exchange,
                plan.replicaOf(settings.index()),
                settings.modelTimeout(),
                stopping);
    }

    /**
     * A topic-mode worker's compute: its clocks' output goes out in one transaction a clock, as transactional id
     * and in consumer group {@code paramhub-worker.<job>.<worker>} ({@link WorkerSettings#CLIENT_ID_PREFIX}), with
     * its input offsets.
     */
    private static ClockCompute streamed(
            final JobContext job,
            final WorkerSettings settings,
            final WorkerTransport transport,
            final BooleanSupplier stopping,
            final Runnable stop) {
        if (job.plan().hybrid()) {
            throw new IllegalStateException("job " + job.spec().getJob() + " streams its examples from a topic and "
                    + "cuts its model into pipeline stages: a topic-mode job is data-parallel only");
        }
        final TopicSpec topic = TopicSpec.parse(job.spec().getDataset());
        final String identity = WorkerSettings.CLIENT_ID_PREFIX + job.spec().getJob() + "." + settings.workerId();
        // fence a predecessor (and abort its open transaction) before reading the offsets it committed
        transport.useTransactions(identity);
        final ExampleFeed feed = transport.examples(job.spec(), topic, settings.index(), identity);
        log.info(
                "{} streams job {}'s examples from topic {}, resuming at clock {} after {} examples",
                settings.workerId(),
                job.spec().getJob(),
                topic.topic(),
                feed.resume().clock(),
                feed.resume().trained());
        return new StreamCompute(job, settings, topic, feed, stopping, stop);
    }
}
