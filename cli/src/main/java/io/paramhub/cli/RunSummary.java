package io.paramhub.cli;

import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.WorkerTally;
import io.paramhub.topology.jobs.StagePlan;
import io.paramhub.worker.ComputeEmulation;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/** What {@code paramhub demo} prints when its run is done: the totals, a table of the workers, and the waits. */
final class RunSummary {

    private RunSummary() {}

    /**
     * The run's summary: totals, one line per worker, per stage when pipelined, and the barrier's waits;
     * {@code sampleCostMicros} is the emulated cost a sample, named when some worker's compute is emulated.
     */
    static void print(
            final PrintStream out,
            final TrainingRun.Result result,
            final WorkerTally tally,
            final Map<Integer, ComputeEmulation> emulations,
            final long sampleCostMicros) {
        final JobSpec spec = result.job().spec();
        out.printf(
                Locale.ROOT,
                "%ndone: %d iterations of %d workers in %.1f s; final test %s %.4f; "
                        + "staleness max %.0f, p99 %.0f versions; dead letters %d%n",
                result.job().iterations(),
                spec.getExpectedWorkers(),
                result.wallSeconds(),
                result.last().metric(),
                result.last().testMetric(),
                result.stalenessMax(),
                result.stalenessP99(),
                result.deadLetters());
        out.println("worker      iterations  samples/s  compute ms  wait ms  final share  threads"
                + "  (ms: means per iteration; wait: at the barrier, after the first iteration)");
        tally.totals()
                .forEach((worker, totals) -> out.printf(
                        Locale.ROOT,
                        "%-10s  %10d  %9.0f  %10.2f  %7.2f  %11.3f  %7d%n",
                        worker,
                        totals.iterations(),
                        totals.speed(),
                        totals.meanComputeMs(),
                        totals.meanWaitMs(),
                        totals.lastShare(),
                        totals.lastThreads()));
        if (StagePlan.hybrid(spec)) {
            printStages(out, spec, tally);
        }
        out.printf(
                Locale.ROOT,
                "workers without a slowdown spent %.1f%% of their time waiting at the barrier%s%n",
                100 * tally.waitFraction(RunReport.fastWorkers(emulations)),
                emulations.values().stream().anyMatch(ComputeEmulation::active)
                        ? " (compute emulated: " + sampleCostMicros + " us a sample)"
                        : "");
        out.printf(
                Locale.ROOT,
                "barrier wait per iteration: mean %.2f ms, p50 %.2f ms, p99 %.2f ms; "
                        + "start-up and wind-down %.1f s, rounds %.1f s%n",
                tally.meanWaitMs(),
                tally.waitMsPercentile(50),
                tally.waitMsPercentile(99),
                result.wallSeconds() - tally.trainingSeconds(),
                tally.trainingSeconds());
    }

    /** Per worker of a hybrid job: its stage, the parameters it holds, the activation bytes and waits. */
    private static void printStages(final PrintStream out, final JobSpec spec, final WorkerTally tally) {
        out.printf(
                Locale.ROOT,
                "%d replicas x %d stages, up to %d micro-batches each%n",
                spec.getExpectedWorkers() / spec.getStages(),
                spec.getStages(),
                spec.getMicroBatches());
        out.println("worker      stage  parameters held   activation MB  stage wait ms  (wait: for neighbours, per "
                + "iteration)");
        long bytes = 0;
        for (final Map.Entry<String, WorkerTally.Totals> entry : tally.totals().entrySet()) {
            final WorkerTally.Totals totals = entry.getValue();
            bytes += totals.activationBytes();
            out.printf(
                    Locale.ROOT,
                    "%-10s  %5d  %8d (%4.1f%%)  %13.2f  %13.2f%n",
                    entry.getKey(),
                    totals.stage(),
                    totals.parametersHeld(),
                    100.0 * totals.parametersHeld() / spec.getParameters(),
                    totals.activationBytes() / 1e6,
                    totals.meanActivationWaitMs());
        }
        out.printf(Locale.ROOT, "activations and their gradients moved: %.1f MB%n", bytes / 2 / 1e6);
    }
}
