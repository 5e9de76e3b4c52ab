package io.paramhub.orchestrator.dashboard;

import io.paramhub.ml.Dataset;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.Model;
import io.paramhub.topology.jobs.ExternalModels;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evaluates jobs' models on their test sets as they advance, on its own thread (never a Streams thread):
 * takes from each {@link JobBoard} the newest whole model of one version read from {@code model}, scores it
 * (accuracy for classification, RMSE otherwise) and hands the point back to the board. After an evaluation
 * that took d it pauses max({@code interval}, 4d), so that it never takes more than about a fifth of a core
 * however large the model.
 */
final class ModelEvaluator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ModelEvaluator.class);
    private static final long IDLE_MS = 200;
    private static final int COST_FACTOR = 4;

    private final Supplier<Iterable<JobBoard>> boards;
    private final TestSets testSets;
    private final long intervalMs;
    private final Thread thread;
    private volatile boolean running = true;

    private ModelEvaluator(
            final Supplier<Iterable<JobBoard>> boards, final TestSets testSets, final Duration interval) {
        this.boards = boards;
        this.testSets = testSets;
        this.intervalMs = interval.toMillis();
        this.thread = new Thread(this::run, "paramhub-dashboard-evaluator");
        this.thread.setDaemon(true);
    }

    static ModelEvaluator start(
            final Supplier<Iterable<JobBoard>> boards, final TestSets testSets, final Duration interval) {
        final ModelEvaluator evaluator = new ModelEvaluator(boards, testSets, interval);
        evaluator.thread.start();
        return evaluator;
    }

    private void run() {
        while (running) {
            long pauseMs = IDLE_MS;
            for (final JobBoard board : boards.get()) {
                final JobBoard.Pending pending = board.pendingEvaluation();
                if (pending != null) {
                    final long started = System.nanoTime();
                    evaluate(board, pending);
                    final long tookMs = (System.nanoTime() - started) / 1_000_000;
                    pauseMs = Math.max(intervalMs, COST_FACTOR * tookMs);
                }
            }
            try {
                Thread.sleep(pauseMs);
            } catch (final InterruptedException e) {
                return;
            }
        }
    }

    /** Scores one model; a failure becomes the board's "no test set" reason, never the thread's end. */
    static void evaluate(final JobBoard board, final JobBoard.Pending pending, final TestSets testSets) {
        if (ExternalModels.isExternal(pending.spec())) {
            return; // only its workers know its maths: they report their evaluations in telemetry
        }
        final TestSets.Lookup lookup = testSets.forDataset(pending.spec().getDataset());
        if (lookup.test() == null) {
            board.onTestUnavailable(lookup.unavailable());
            return;
        }
        try {
            final Model model = JobSpecs.model(pending.spec());
            final float[] params = pending.model().assemble(pending.spec().getParameters());
            final Dataset test = lookup.test();
            final boolean classification = test.isClassification();
            final double value =
                    classification ? Evaluation.accuracy(model, params, test) : Evaluation.rmse(model, params, test);
            board.onEvaluated(
                    classification ? "accuracy" : "rmse",
                    test.size(),
                    new TestCurve.Point(
                            pending.model().minClock(), pending.model().version(), value, System.currentTimeMillis()));
        } catch (final RuntimeException e) {
            log.warn("cannot evaluate job {} on its test set", board.job(), e);
            board.onTestUnavailable("no test set: " + e.getMessage());
        }
    }

    private void evaluate(final JobBoard board, final JobBoard.Pending pending) {
        evaluate(board, pending, testSets);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
