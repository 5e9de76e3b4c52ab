package io.paramhub.worker;

import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.MicroBatches;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.PipelineStage;
import io.paramhub.topology.client.ModelView;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A pipeline stage worker's clock: its replica's round-robin share of the batch in micro-batches through its
 * stage ({@link StageClock}), exchanging activations with the neighbouring stages on {@code activations} and
 * {@code activation-gradients}. Plans' shares and threads do not apply (a replica's stages must cut the same
 * share).
 */
final class StageCompute implements ClockCompute {

    private final JobContext job;
    private final PipelineStage stage;
    private final ActivationExchange exchange;
    private final int replica;
    private final Duration timeout;
    private final BooleanSupplier stop;

    StageCompute(
            final JobContext job,
            final PipelineStage stage,
            final ActivationExchange exchange,
            final int replica,
            final Duration timeout,
            final BooleanSupplier stop) {
        this.job = job;
        this.stage = stage;
        this.exchange = exchange;
        this.replica = replica;
        this.timeout = timeout;
        this.stop = stop;
    }

    @Override
    public ClockWork compute(final long clock, final float[] params, final ModelView model) {
        final int[] share = BatchPlan.roundRobinShare(
                job.batches().batch(clock), replica, job.plan().replicas());
        final double[] gradient = job.buffers().zeroedGradient();
        final long exchangedBefore = exchange.bytesSent() + exchange.bytesReceived();
        final StageClock.Result result = StageClock.run(
                stage,
                params,
                job.train(),
                MicroBatches.split(share, job.spec().getMicroBatches(), ((PipelineModel) job.model()).block()),
                job.spec().getSeed(),
                clock,
                exchange,
                timeout,
                stop,
                gradient);
        if (result == null) {
            return null;
        }
        return new ClockWork(
                gradient,
                share.length,
                result.loss(),
                result.computeMs(),
                result.waitMs(),
                1,
                -1,
                new ClockWork.StageWork(
                        stage.index(),
                        exchange.bytesSent() + exchange.bytesReceived() - exchangedBefore,
                        result.waitMs(),
                        stage.parameterCount()));
    }

    @Override
    public void close() {
        exchange.close();
    }
}
