package io.paramhub.worker;

import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.PipelineStage;
import io.paramhub.topology.jobs.StagePlan;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses, once at start-up, how a worker computes its clocks: the whole model on a pool of threads
 * ({@link DataParallelCompute}) or one pipeline stage ({@link StageCompute}, with its link to the neighbouring
 * stages on {@code activations} and {@code activation-gradients}), each wrapped in its emulated compute cost
 * when the settings ask for one. The one place that knows about emulation.
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
}
