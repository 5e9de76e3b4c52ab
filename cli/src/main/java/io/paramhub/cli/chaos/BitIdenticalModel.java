package io.paramhub.cli.chaos;

import io.paramhub.cli.model.ExportedModel;
import io.paramhub.cli.model.ModelVersions;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * A BSP or staged job's last model version, assembled from its shards on {@code model} (read_committed), equals the
 * in-process reference ({@link ChaosJob#reference}) bit for bit: no fault lost, doubled or reordered a gradient (or,
 * for the staged job, an activation or its gradient between the stages).
 */
final class BitIdenticalModel implements Invariant {

    private final String job;

    BitIdenticalModel(final String job) {
        this.job = job;
    }

    @Override
    public String name() {
        return "model-bit-identical[" + job + "]";
    }

    @Override
    public Verdict check(final ChaosRecord record) {
        final ChaosJob run = record.job(job).job();
        final ExportedModel model;
        try {
            model = ModelVersions.read(
                    record.topics().model(),
                    record.topics().jobs(),
                    record.client(),
                    job,
                    OptionalLong.of(run.clocks()),
                    Duration.ofSeconds(60));
        } catch (final RuntimeException e) {
            return Verdict.fail(name(), "could not read version " + run.clocks() + ": " + e.getMessage());
        }
        final float[] reference = run.reference();
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
