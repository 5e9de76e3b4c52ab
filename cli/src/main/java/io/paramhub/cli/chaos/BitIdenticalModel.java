package io.paramhub.cli.chaos;

import io.paramhub.cli.model.ExportedModel;
import io.paramhub.cli.model.ModelVersions;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * The BSP job's last model version, assembled from its shards on {@code model} (read_committed), equals the
 * in-process reference ({@link ChaosJob#reference}) bit for bit: no fault lost, doubled or reordered a gradient.
 */
final class BitIdenticalModel implements Invariant {

    @Override
    public String name() {
        return "bsp-model-bit-identical";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final ExportedModel model;
        try {
            model = ModelVersions.read(
                    run.topics().model(),
                    run.topics().jobs(),
                    run.client(),
                    run.spec().getJob(),
                    OptionalLong.of(run.clocks()),
                    Duration.ofSeconds(60));
        } catch (final RuntimeException e) {
            return Verdict.fail(name(), "could not read version " + run.clocks() + ": " + e.getMessage());
        }
        final float[] reference = ChaosJob.reference(run.spec());
        final float[] trained = model.parameters();
        if (reference.length != trained.length) {
            return Verdict.fail(name(), trained.length + " parameters, the reference has " + reference.length);
        }
        int differ = 0;
        int first = -1;
        for (int i = 0; i < reference.length; i++) {
            if (Float.floatToRawIntBits(reference[i]) != Float.floatToRawIntBits(trained[i])) {
                differ++;
                first = first < 0 ? i : first;
            }
        }
        return differ == 0
                ? Verdict.pass(name(), "version " + run.clocks() + ": " + trained.length + " parameters equal")
                : Verdict.fail(
                        name(),
                        differ + " of " + trained.length + " parameters differ, first " + first + ": " + trained[first]
                                + " against " + reference[first]);
    }
}
