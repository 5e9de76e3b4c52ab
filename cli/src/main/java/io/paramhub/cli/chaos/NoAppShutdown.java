package io.paramhub.cli.chaos;

/**
 * No process ended on its own: every exit was one the nemesis caused, the brokers, registry, aggregators and
 * orchestrator still run at the end, and every worker's last process ended with code 0 after the job.
 */
final class NoAppShutdown implements Invariant {

    @Override
    public String name() {
        return "no-app-shut-down";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        if (run.exits().isEmpty() && run.appsDown().isEmpty()) {
            return Verdict.pass(name(), "every exit was a fault's");
        }
        return Verdict.fail(name(), "exits: " + run.exits() + "; not running or failed: " + run.appsDown());
    }
}
