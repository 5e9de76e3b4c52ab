package io.paramhub.bench;

import io.paramhub.bench.hybrid.HybridBenchSettings;
import io.paramhub.bench.hybrid.HybridCommand;
import io.paramhub.bench.online.OnlineCommand;
import io.paramhub.bench.roundcost.RoundCostCommand;
import io.paramhub.bench.roundcost.RoundCostSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code paramhub bench}: one subcommand per scenario, each with only its own options. The five heterogeneity
 * {@link Scenario}s compare synchronisation policies ({@link PolicyBenchCommand}); {@code round-cost} and
 * {@code hybrid} measure a BSP round and pipeline stages; {@code online} online training from a topic. The old
 * form, {@code bench --scenario NAME}, reaches the same subcommand ({@link ScenarioOption}).
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        modelTransformer = BenchCommand.Scenarios.class,
        description = {
            "Runs one benchmark scenario, named by its subcommand, and writes DIR/report.json and plots. "
                    + "`paramhub bench SCENARIO --help` lists the scenario's own options.",
            "homogeneous, straggler-3x, straggler-5x, late-straggler and interference compare the sync policies under "
                    + "emulated heterogeneity; round-cost measures what a BSP round costs; hybrid compares "
                    + "data-parallel with hybrid data and model parallel training; online measures online training from a "
                    + "topic. `paramhub bench --scenario NAME ...` "
                    + "is the same as `paramhub bench NAME ...`."
        })
public final class BenchCommand {

    /** Adds the scenarios' subcommands, in the order the help lists them. */
    public static final class Scenarios implements IModelTransformer {

        @Override
        public CommandSpec transform(final CommandSpec bench) {
            for (final Scenario scenario : Scenario.values()) {
                final CommandLine subcommand = new CommandLine(new PolicyBenchCommand(scenario));
                subcommand
                        .getCommandSpec()
                        .usageMessage()
                        .header("The sync policies compared; " + scenario.description() + ".");
                bench.addSubcommand(scenario.label(), subcommand);
            }
            bench.addSubcommand(RoundCostSettings.SCENARIO, new CommandLine(new RoundCostCommand()));
            bench.addSubcommand(HybridBenchSettings.SCENARIO, new CommandLine(new HybridCommand()));
            bench.addSubcommand(OnlineCommand.SCENARIO, new CommandLine(new OnlineCommand()));
            return bench;
        }
    }
}
