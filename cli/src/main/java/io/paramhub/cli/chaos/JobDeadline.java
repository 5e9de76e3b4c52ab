package io.paramhub.cli.chaos;

/**
 * A job finished within its fault-free time plus, for each fault injected (on any process: a broker or an aggregator
 * down slows every job), its session timeout and 30 s: faults may slow a job down, not stall it.
 */
final class JobDeadline implements Invariant {

    /** What each fault may add besides the job's session timeout. */
    static final long PER_FAULT_MS = 30_000;

    private final String job;

    JobDeadline(final String job) {
        this.job = job;
    }

    @Override
    public String name() {
        return "job-within-deadline[" + job + "]";
    }

    @Override
    public Verdict check(final ChaosRecord record) {
        final ChaosRecord.JobRun run = record.job(job);
        final long injected =
                record.faults().stream().filter(InjectedFault::injected).count();
        final long bound = run.faultFreeMs() + injected * (run.job().spec().getSessionTimeoutMs() + PER_FAULT_MS);
        if (run.jobMs() < 0) {
            return Verdict.fail(name(), "the job did not finish");
        }
        final String detail = "finished in " + run.jobMs() + " ms; bound " + bound + " ms (fault-free "
                + run.faultFreeMs() + " ms + " + injected + " faults x ("
                + run.job().spec().getSessionTimeoutMs()
                + " + " + PER_FAULT_MS + ") ms)";
        return run.jobMs() <= bound ? Verdict.pass(name(), detail) : Verdict.fail(name(), detail);
    }
}
