package io.paramhub.cli.model;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/** {@code paramhub model}: the trained model on a cluster's {@code model} topic; {@code export} writes it to a file. */
@Command(
        name = "model",
        mixinStandardHelpOptions = true,
        description = "Reads a job's model from the model topic of a running cluster.",
        subcommands = {ExportCommand.class})
public final class ModelCommand implements Runnable {

    @CommandLine.Spec
    private CommandSpec command;

    @Override
    public void run() {
        command.commandLine().usage(System.out);
    }
}
