package io.paramhub.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The old form of {@code paramhub bench}, from before each scenario was a subcommand: {@code bench --scenario NAME
 * ...} (or {@code --scenario=NAME}) is rewritten to {@code bench NAME ...}, so that scripts written for it keep
 * working. Any other command line is left as it is.
 */
public final class ScenarioOption {

    private static final String BENCH = "bench";
    private static final String OPTION = "--scenario";

    private ScenarioOption() {}

    /** {@code args} with a {@code --scenario NAME} after {@code bench} turned into the subcommand {@code NAME}. */
    public static String[] asSubcommand(final String... args) {
        if (args.length < 2 || !BENCH.equals(args[0])) {
            return args;
        }
        final List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
        for (int index = 0; index < rest.size(); index++) {
            final String arg = rest.get(index);
            if (OPTION.equals(arg) && index + 1 < rest.size()) {
                final String name = rest.remove(index + 1);
                rest.remove(index);
                return withSubcommand(name, rest);
            }
            if (arg.startsWith(OPTION + "=")) {
                rest.remove(index);
                return withSubcommand(arg.substring(OPTION.length() + 1), rest);
            }
        }
        return args;
    }

    private static String[] withSubcommand(final String name, final List<String> rest) {
        final List<String> rewritten = new ArrayList<>();
        rewritten.add(BENCH);
        rewritten.add(name);
        rewritten.addAll(rest);
        return rewritten.toArray(String[]::new);
    }
}
