package io.paramhub.ml.example;

import io.paramhub.ml.Model;
import io.paramhub.ml.ModelProvider;
import java.util.Set;

/** Makes {@code huber} and {@code huber:DELTA} known to {@code Models.create}; listed in META-INF/services. */
public final class HuberProvider implements ModelProvider {

    @Override
    public Set<String> kinds() {
        return Set.of("huber");
    }

    @Override
    public Model create(final String kind, final int inputs, final int outputs) {
        if (outputs != 1) {
            throw new IllegalArgumentException("huber regression has 1 output, got " + outputs);
        }
        final int colon = kind.indexOf(':');
        final double delta = colon < 0 ? 1.0 : Double.parseDouble(kind.substring(colon + 1));
        return new HuberRegression(inputs, delta);
    }
}
