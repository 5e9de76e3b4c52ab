package io.paramhub.cli;

import io.paramhub.registry.HashPasswordCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code paramhub registry}: tools for ParamHub's schema registry; {@code hash-password} prints a password's salted
 * hash for the registry's users file ({@link HashPasswordCommand}, as {@code paramhub-registry hash-password}).
 */
@Command(
        name = "registry",
        mixinStandardHelpOptions = true,
        description = "Tools for ParamHub's schema registry.",
        subcommands = HashPasswordCommand.class)
public final class RegistryCommand implements Runnable {

    @CommandLine.Spec
    private CommandSpec command;

    @Override
    public void run() {
        command.commandLine().usage(System.out);
    }
}
