package io.paramhub.cli;

import io.paramhub.launcher.EmulationOptions;
import io.paramhub.worker.ComputeEmulation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * How {@code paramhub demo} emulates slow or heavy workers on a small machine (a picocli mixin): {@code --slowdown}
 * and {@code --sample-cost-us}, read as each worker's {@link ComputeEmulation}.
 */
final class ComputeEmulationOptions {

    /**
     * The emulated sample cost when a slowdown is asked for and no cost is given: with the default 4
     * workers and batch 128, 192 ms of compute a worker an iteration, about ten times the 20–30 ms an
     * exactly-once BSP round trip through Kafka costs when the straggler's gradient arrives last, so
     * that the run is compute-bound as real networks on real nodes are (docs/kafka-on-two-cores.md).
     */
    static final long SLOWDOWN_SAMPLE_COST_US = 6_000;

    private static final Pattern SLOWDOWN = Pattern.compile("(\\d+):(\\d+(?:\\.\\d+)?)(?:@(\\d+))?");

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(
            names = "--slowdown",
            paramLabel = "I:F[@CLOCK]",
            description = "Emulate a slow worker: worker I computes F times slower (by sleeping), from CLOCK on "
                    + "(default 0). Repeatable.")
    private List<String> slowdowns = List.of();

    @Mixin
    private EmulationOptions emulation;

    /** {@code --sample-cost-us}, or its default: {@link #SLOWDOWN_SAMPLE_COST_US} when a slowdown is asked for. */
    long sampleCostMicros() {
        final Long sampleCostMicros = emulation.sampleCostMicros();
        if (sampleCostMicros != null) {
            if (sampleCostMicros < 0) {
                throw new ParameterException(
                        command.commandLine(), "--sample-cost-us must be >= 0, not " + sampleCostMicros);
            }
            return sampleCostMicros;
        }
        return slowdowns.isEmpty() ? 0 : SLOWDOWN_SAMPLE_COST_US;
    }

    /** Each of the {@code workers} workers' emulation: the sample cost, slowed as {@code --slowdown} says. */
    Map<Integer, ComputeEmulation> byWorker(final int workers) {
        final long sampleCost = sampleCostMicros();
        final Map<Integer, ComputeEmulation> byWorker = new HashMap<>();
        for (int index = 0; index < workers; index++) {
            byWorker.put(index, new ComputeEmulation(1.0, 0, sampleCost));
        }
        for (final String slowdown : slowdowns) {
            final Matcher parsed = SLOWDOWN.matcher(slowdown);
            if (!parsed.matches() || Integer.parseInt(parsed.group(1)) >= workers) {
                throw new ParameterException(
                        command.commandLine(),
                        "--slowdown must be I:F[@CLOCK] with a worker " + "index I below " + workers
                                + " and a factor F >= 1, e.g. 2:3 or 2:3@50; not " + slowdown);
            }
            final double factor = Double.parseDouble(parsed.group(2));
            if (factor < 1) {
                throw new ParameterException(command.commandLine(), "--slowdown factor must be >= 1: " + slowdown);
            }
            final long from = parsed.group(3) == null ? 0 : Long.parseLong(parsed.group(3));
            byWorker.put(Integer.parseInt(parsed.group(1)), new ComputeEmulation(factor, from, sampleCost));
        }
        return byWorker;
    }
}
