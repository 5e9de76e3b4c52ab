package io.paramhub.bench.online;

import io.paramhub.embedded.ConnectionOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code paramhub bench online}: how fast online training from a topic goes, and how fresh its model is ({@link OnlineBench}). */
@Command(
        name = OnlineCommand.SCENARIO,
        header = "Online training from a topic: the highest example rate, and freshness at half of it.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Measures online training from a topic (docs/online.md), softmax on Fashion-MNIST: first --examples "
                    + "training examples written to a topic as fast as Kafka's producer takes them (the producer's "
                    + "rate); then --workers workers train them all from that backlog, which never runs dry: the "
                    + "highest example rate they sustain, since any lower arrival rate leaves them waiting, its lag "
                    + "bounded; then a fresh topic streamed at half that rate while they train, and the freshness of "
                    + "the model (append to the first model version that includes the example, p50 and p99) and the "
                    + "largest consumer lag. Writes DIR/report.json and two PNG plots."
        })
public final class OnlineCommand implements Callable<Integer> {

    /** The scenario's name, {@code paramhub bench online}. */
    public static final String SCENARIO = "online";

    @Spec
    private CommandSpec command;

    @Option(names = "--out", required = true, description = "Directory for report.json and the plots.")
    private Path out;

    @Option(
            names = "--examples",
            defaultValue = "" + OnlineBench.DEFAULT_EXAMPLES,
            description = "Examples of the backlog run; the half-rate run streams half as many (default: "
                    + "${DEFAULT-VALUE}).")
    private long examples;

    @Option(
            names = "--model",
            defaultValue = "softmax",
            description = "The model, one that takes flat features (default: ${DEFAULT-VALUE}).")
    private String model;

    @Option(names = "--workers", defaultValue = "4", description = "Workers (default: ${DEFAULT-VALUE}).")
    private int workers;

    @Option(
            names = "--batch",
            defaultValue = "" + OnlineBench.DEFAULT_BATCH,
            description = "Global batch; a larger one amortises each clock's transaction and round over more examples "
                    + "(default: ${DEFAULT-VALUE}).")
    private int batch;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "Seed of the initial parameters (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private ConnectionOptions clusterOptions;

    @Override
    public Integer call() throws Exception {
        if (examples < 1 || workers < 1 || batch < workers) {
            throw new ParameterException(
                    command.commandLine(), "--examples and --workers must be >= 1, and --batch >= --workers");
        }
        new OnlineBench(model, examples, workers, batch, seed, clusterOptions.topicPrefix(), System.out)
                .run(clusterOptions.settings(), out);
        return 0;
    }
}
