package io.paramhub.cli;

import io.paramhub.bench.BenchCommand;
import io.paramhub.bench.ScenarioOption;
import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.bench.replay.ReplayCommand;
import io.paramhub.cli.chaos.ChaosCommand;
import io.paramhub.cli.model.ModelCommand;
import io.paramhub.launcher.LogFormat;
import io.paramhub.launcher.PluginOptions;
import io.paramhub.launcher.Settings;
import io.paramhub.ml.DataFileException;
import io.paramhub.ml.DatasetUnavailableException;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExecutionException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.RunLast;

/**
 * The {@code paramhub} command: {@code demo}, {@code up}, {@code bench}, {@code record}, {@code replay}, {@code jobs},
 * {@code model}, {@code stream} and {@code registry}, each with the global {@code --plugins} ({@code PARAMHUB_PLUGINS}), whose jars
 * are loaded before the subcommand runs.
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
            StreamCommand.class,
            RegistryCommand.class,
            ChaosCommand.class
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
        return execute(System.getenv(), args);
    }

    /** As {@link #execute(String...)}, with {@code env} as the environment ({@code PARAMHUB_PLUGINS}). */
    static int execute(final Map<String, String> env, final String... args) {
        final String logFormat = LogFormat.problem(env);
        if (logFormat != null) {
            System.err.println("paramhub: " + logFormat);
            return 1;
        }
        final CommandLine cli = new CommandLine(new ParamHubCli());
        addPluginsOption(cli);
        cli.setExecutionStrategy(parsed -> {
            final Integer help = CommandLine.executeHelpRequest(parsed);
            if (help != null) {
                return help;
            }
            installPlugins(parsed, env);
            return new RunLast().execute(parsed);
        });
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

    /**
     * Gives {@code command} and every subcommand that has none of its own (as {@code jobs submit} has) the
     * {@code --plugins} option; picocli's inherited options would refuse a subcommand that has one.
     */
    private static void addPluginsOption(final CommandLine command) {
        if (command.getCommandSpec().findOption(PluginOptions.OPTION) == null) {
            command.getCommandSpec()
                    .addOption(OptionSpec.builder(PluginOptions.OPTION)
                            .paramLabel("DIR[:DIR...]")
                            .type(String.class)
                            .description(PluginOptions.DESCRIPTION)
                            .build());
        }
        command.getSubcommands().values().forEach(ParamHubCli::addPluginsOption);
    }

    /** Loads the jars of {@code --plugins}, else of {@code PARAMHUB_PLUGINS}; a failure is one line, exit code 1. */
    private static void installPlugins(final ParseResult parsed, final Map<String, String> env) {
        String dirs = null;
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            dirs = level.matchedOptionValue(PluginOptions.OPTION, dirs);
        }
        final String variable = Settings.optionEnv(PluginOptions.OPTION);
        final String source = dirs != null ? PluginOptions.OPTION : variable;
        try {
            PluginOptions.install(dirs != null ? dirs : env.get(variable), source);
        } catch (final IllegalArgumentException e) {
            throw new ExecutionException(parsed.commandSpec().commandLine(), e.getMessage(), e);
        }
    }

    public static void main(final String[] args) {
        System.exit(execute(args));
    }
}
