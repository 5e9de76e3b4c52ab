package io.paramhub.worker;

import io.paramhub.ml.BatchPlan;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.sync.SyncPolicy;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data-parallel worker's clock: the whole model's gradient on its share of the batch, on a pool of compute
 * threads. The orchestrator's plan reaches it with shard 0's model: its batch share (BSP) and the size of its
 * pool (every sync mode), both from the clock that version starts. Reads and writes no topic.
 */
final class DataParallelCompute implements ClockCompute {

    private static final Logger log = LoggerFactory.getLogger(DataParallelCompute.class);

    private final JobContext job;
    private final WorkerSettings settings;
    private final ParallelGradient pool;

    DataParallelCompute(final JobContext job, final WorkerSettings settings) {
        this.job = job;
        this.settings = settings;
        this.pool = new ParallelGradient(settings.threads());
    }

    @Override
    public ClockWork compute(final long clock, final float[] params, final ModelView model) {
        final double[] planned = plannedShares(job.sync(), model, settings);
        final Integer plannedThreads = model.planThreads().get(settings.workerId());
        if (plannedThreads != null && plannedThreads > 0 && plannedThreads != pool.threads()) {
            log.info(
                    "{} resizes its compute pool from {} to {} threads (plan version {}) at clock {}",
                    settings.workerId(),
                    pool.threads(),
                    plannedThreads,
                    model.planVersion(),
                    clock);
            pool.resize(plannedThreads);
        }
        final int[] batch = job.batches().batch(clock);
        final int[] share = planned == null
                ? BatchPlan.roundRobinShare(batch, settings.index(), settings.workers())
                : BatchPlan.contiguousShare(batch, planned, settings.index());

        final long computeStart = System.nanoTime();
        final double[] gradient = job.buffers().zeroedGradient();
        final double loss = pool.accumulate(
                job.model(), params, job.train(), share, gradient, job.spec().getSeed(), clock);
        return new ClockWork(
                gradient,
                share.length,
                loss,
                (System.nanoTime() - computeStart) / 1e6,
                0.0,
                pool.threads(),
                planned == null && plannedThreads == null ? -1 : model.planVersion(),
                ClockWork.StageWork.WHOLE_MODEL);
    }

    /**
     * The orchestrator's shares for this clock, in worker order, or null for equal round-robin shares.
     * Under BSP every worker reads shard 0's same version before a clock, so all cut the batch by the
     * same plan; a plan must name exactly this job's workers. SSP and ASP workers, at different
     * clocks, keep round-robin shares.
     */
    static double[] plannedShares(final SyncPolicy sync, final ModelView view, final WorkerSettings settings) {
        final Map<String, Double> shares = view.planShares();
        if (!sync.followsPlannedShares() || shares.size() != settings.workers()) {
            return null;
        }
        final double[] ordered = new double[settings.workers()];
        for (int index = 0; index < ordered.length; index++) {
            final Double share = shares.get(WorkerSettings.workerId(index));
            if (share == null) {
                return null;
            }
            ordered[index] = share;
        }
        return ordered;
    }

    @Override
    public void close() {
        pool.close();
    }
}
