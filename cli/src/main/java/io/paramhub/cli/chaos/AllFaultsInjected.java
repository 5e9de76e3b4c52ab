package io.paramhub.cli.chaos;

import java.util.List;

/**
 * Every fault of the schedule was injected while the job ran and healed in time: a run that ended before its
 * faults, or one that never healed, proves nothing about them.
 */
final class AllFaultsInjected implements Invariant {

    @Override
    public String name() {
        return "all-faults-injected-and-healed";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final List<InjectedFault> missed = run.faults().stream()
                .filter(fault -> !fault.injected() || !fault.healed())
                .toList();
        final String detail =
                (run.faults().size() - missed.size()) + " of " + run.faults().size();
        return missed.isEmpty()
                ? Verdict.pass(name(), detail)
                : Verdict.fail(
                        name(),
                        detail + "; missed or not healed: "
                                + missed.stream()
                                        .map(fault -> fault.fault().kind() + "@" + fault.clock())
                                        .toList());
    }
}
