package io.paramhub.cli.chaos;

/**
 * The job finished within its fault-free time plus, for each fault injected, its session timeout and 30 s: faults
 * may slow a job down, not stall it.
 */
final class JobDeadline implements Invariant {

    /** What each fault may add besides the job's session timeout. */
    static final long PER_FAULT_MS = 30_000;

    @Override
    public String name() {
        return "job-within-deadline";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final long injected =
                run.faults().stream().filter(InjectedFault::injected).count();
        final long bound = run.faultFreeMs() + injected * (run.spec().getSessionTimeoutMs() + PER_FAULT_MS);
        if (run.jobMs() < 0) {
            return Verdict.fail(name(), "the job did not finish");
        }
        final String detail = "finished in " + run.jobMs() + " ms; bound " + bound + " ms (fault-free "
                + run.faultFreeMs() + " ms + " + injected + " faults x ("
                + run.spec().getSessionTimeoutMs()
                + " + " + PER_FAULT_MS + ") ms)";
        return run.jobMs() <= bound ? Verdict.pass(name(), detail) : Verdict.fail(name(), detail);
    }
}
