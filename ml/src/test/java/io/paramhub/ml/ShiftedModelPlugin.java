package io.paramhub.ml;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A user's model plugin for tests: a {@link ModelProvider} of kind {@code shifted} (linear regression under another
 * name), as source, compiled into a jar by {@link PluginJarWriter} so that its classes are on no classpath. Shared
 * with integration-tests through ml's test-jar.
 */
public final class ShiftedModelPlugin {

    /** The provider's class. */
    public static final String PROVIDER = "plugin.example.ShiftedProvider";

    /** Its source. */
    public static final String SOURCE = """
            package plugin.example;

            import io.paramhub.ml.Dataset;
            import io.paramhub.ml.LinearRegression;
            import io.paramhub.ml.Model;
            import io.paramhub.ml.ModelProvider;
            import java.util.Set;

            public final class ShiftedProvider implements ModelProvider {
                public Set<String> kinds() { return Set.of("shifted"); }
                public Model create(String kind, int inputs, int outputs) { return new Shifted(inputs); }

                static final class Shifted implements Model {
                    private final LinearRegression inner;
                    Shifted(int inputs) { inner = new LinearRegression(inputs); }
                    public String kind() { return "shifted"; }
                    public int inputs() { return inner.inputs(); }
                    public int outputs() { return 1; }
                    public int parameterCount() { return inner.parameterCount(); }
                    public float[] initialParameters(long seed) { return inner.initialParameters(seed); }
                    public double accumulateGradient(float[] p, Dataset d, int[] s, double[] g) {
                        return inner.accumulateGradient(p, d, s, g);
                    }
                    public float predict(float[] p, Dataset d, int s) { return inner.predict(p, d, s); }
                }
            }
            """;

    private ShiftedModelPlugin() {}

    /** Writes the plugin's jar to {@code jar}, listed as a ModelProvider. */
    public static Path write(final Path jar) throws IOException {
        return PluginJarWriter.write(jar, Map.of(PROVIDER, SOURCE), Map.of(ModelProvider.class, List.of(PROVIDER)));
    }
}
