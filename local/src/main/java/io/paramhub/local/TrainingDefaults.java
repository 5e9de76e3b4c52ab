package io.paramhub.local;

import io.paramhub.ml.ConvNet;
import io.paramhub.ml.Mlp;
import io.paramhub.ml.Model;

/**
 * The optimizer {@code paramhub demo} uses for a model when {@code --optimizer} is not given: plain
 * SGD with momentum for the convex models, Adam for the networks, whose layers want per-parameter
 * step sizes.
 */
final class TrainingDefaults {

    private TrainingDefaults() {
    }

    /** {@code "adam"} for {@code mlp} and {@code cnn} (with or without a shape suffix), else {@code "sgd"}. */
    static String optimizer(final Model model) {
        final String base = model.kind().split(":", 2)[0];
        return Mlp.KIND.equals(base) || ConvNet.KIND.equals(base) ? "adam" : "sgd";
    }
}
