package io.paramhub.cli;

import io.paramhub.bench.BenchCommand;
import io.paramhub.bench.ScenarioOption;
import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.bench.replay.ReplayCommand;
import io.paramhub.cli.model.ModelCommand;
import io.paramhub.ml.DataFileException;
import io.paramhub.ml.DatasetUnavailableException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code paramhub} command: {@code demo}, {@code up}, {@code bench}, {@code record}, {@code replay}, {@code jobs},
 * {@code model} and {@code stream}.
 */
@Command(
        name = "paramhub",
        mixinStandardHelpOptions = true,
        version = "paramhub 0.1.0",
        resourceBundle = "io.paramhub.cli.OptionTexts",
        description = "ParamHub: a Kafka-native parameter server for distributed training.",
        subcommands = {
            DemoCommand.class,
            UpCommand.class,
            BenchCommand.class,
            RecordCommand.class,
            ReplayCommand.class,
            JobsCommand.class,
            ModelCommand.class,
            StreamCommand.class
        })
public final class ParamHubCli implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec command;

    @Override
    public void run() {
        command.commandLine().usage(System.out);
    }

    /**
     * Runs {@code args}; problems a user can fix are one line on stderr, not a stack trace: exit code 2 for bad
     * input data (a file that cannot be read or holds data that cannot be trained on, named with line and column),
     * 1 for the others.
     */
    public static int execute(final String... args) {
        final CommandLine cli = new CommandLine(new ParamHubCli());
        cli.setExecutionExceptionHandler((error, line, parsed) -> {
            if (error instanceof DataFileException) {
                line.getErr().println("paramhub: " + error.getMessage());
                return 2;
            }
            if (error instanceof IllegalArgumentException
                    || error instanceof IllegalStateException
                    || error instanceof DatasetUnavailableException) {
                line.getErr().println("paramhub: " + error.getMessage());
                return 1;
            }
            throw error;
        });
        return cli.execute(ScenarioOption.asSubcommand(args));
    }

    public static void main(final String[] args) {
        System.exit(execute(args));
    }
}
