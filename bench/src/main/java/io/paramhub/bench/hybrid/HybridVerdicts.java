package io.paramhub.bench.hybrid;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One line per byte budget on which of the two runs moves fewer bytes a round, and why: gradients grow with
 * the parameters each worker publishes (data-parallel: every worker the whole model), activations with the
 * batch x the cut's width; and the batch at which the two budgets break even. Bytes only: no timing verdict.
 */
final class HybridVerdicts {

    private HybridVerdicts() {}

    /**
     * The batch above which the hybrid run's activation payload exceeds the gradient payload it saves:
     * (gradient floats saved a round) x 4 B over (cut width x 4 B x 2 directions); null when nothing is saved
     * or nothing crosses a cut.
     */
    static Double breakEvenBatch(final ArmCost dataParallel, final ArmCost hybrid, final int batch) {
        final long saved = dataParallel.gradientFloatsPerRound() - hybrid.gradientFloatsPerRound();
        final long perSample = hybrid.expectedActivationPayloadBytesPerRound() / batch;
        return saved <= 0 || perSample == 0 ? null : saved * (double) Float.BYTES / perSample;
    }

    static Map<String, String> of(final ArmCost dataParallel, final ArmCost hybrid, final int batch) {
        final Map<String, String> verdicts = new LinkedHashMap<>();
        verdicts.put(
                "gradients",
                String.format(
                        Locale.ROOT,
                        "%s writes fewer gradient bytes a round (%.0f KiB against %.0f KiB): a hybrid worker publishes "
                                + "only its stage's parameters, %,d floats a round in all against %,d data-parallel; "
                                + "gradient bytes grow with the parameters times the replicas",
                        winner(dataParallel.gradientBytesPerRound(), hybrid.gradientBytesPerRound()),
                        Math.min(dataParallel.gradientBytesPerRound(), hybrid.gradientBytesPerRound()) / 1024,
                        Math.max(dataParallel.gradientBytesPerRound(), hybrid.gradientBytesPerRound()) / 1024,
                        hybrid.gradientFloatsPerRound(),
                        dataParallel.gradientFloatsPerRound()));
        verdicts.put(
                "activations",
                String.format(
                        Locale.ROOT,
                        "data-parallel moves none; hybrid writes %.0f KiB a round to the activation topics, for "
                                + "%,d B of float payload (batch %d x %,d floats across the cuts x 4 B x 2 "
                                + "directions): activation bytes grow with the batch times the cut's width, not "
                                + "with the parameters",
                        hybrid.activationBytesPerRound() / 1024,
                        hybrid.expectedActivationPayloadBytesPerRound(),
                        batch,
                        hybrid.expectedActivationPayloadBytesPerRound() / batch / Float.BYTES / 2));
        final Double breakEven = breakEvenBatch(dataParallel, hybrid, batch);
        verdicts.put(
                "gradients_and_activations",
                String.format(
                        Locale.ROOT,
                        "%s writes fewer bytes a round to gradients and activations together (%.0f KiB against "
                                + "%.0f KiB); by payload the hybrid run %s",
                        winner(dataParallel.exchangedBytesPerRound(), hybrid.exchangedBytesPerRound()),
                        Math.min(dataParallel.exchangedBytesPerRound(), hybrid.exchangedBytesPerRound()) / 1024,
                        Math.max(dataParallel.exchangedBytesPerRound(), hybrid.exchangedBytesPerRound()) / 1024,
                        breakEven == null
                                ? "saves no gradient bytes"
                                : String.format(
                                        Locale.ROOT,
                                        "moves fewer below a batch of %.0f and more above it (batch %d here)",
                                        breakEven,
                                        batch)));
        verdicts.put(
                "model_reads",
                String.format(
                        Locale.ROOT,
                        "%s's workers read fewer model bytes a round (about %.0f KiB against %.0f KiB): a stage "
                                + "worker fetches only its stage's shards, at most %.1f%% of the parameters",
                        winner(dataParallel.modelBytesReadPerRound(), hybrid.modelBytesReadPerRound()),
                        Math.min(dataParallel.modelBytesReadPerRound(), hybrid.modelBytesReadPerRound()) / 1024,
                        Math.max(dataParallel.modelBytesReadPerRound(), hybrid.modelBytesReadPerRound()) / 1024,
                        100 * hybrid.parametersHeldMaxFraction()));
        return verdicts;
    }

    private static String winner(final double dataParallel, final double hybrid) {
        return hybrid < dataParallel ? "hybrid" : hybrid > dataParallel ? "data-parallel" : "neither";
    }
}
