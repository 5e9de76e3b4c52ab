package io.paramhub.cli.chaos;

import io.paramhub.topology.TopicCatalog;
import java.util.List;
import java.util.Properties;

/**
 * What a chaos run left for its invariants to check: where its cluster is, its jobs and how each went, the faults
 * injected and the apps' exits.
 *
 * @param client        client settings of the cluster (bootstrap servers)
 * @param topics        ParamHub's topics, their serdes on the run's registry
 * @param jobs          every job of the run, the BSP job first
 * @param faults        the faults of the schedule, injected or not
 * @param exits         the apps' exits nobody caused, and broker exits, as text
 * @param appsDown      long-running apps not running at the end, and workers that did not end with code 0
 * @param forged        the hostile tenant's records, where each landed
 * @param tenantFailures forgeries the tenant could not write, as text
 */
record ChaosRecord(
        Properties client,
        TopicCatalog topics,
        List<JobRun> jobs,
        List<InjectedFault> faults,
        List<String> exits,
        List<String> appsDown,
        List<HostileTenant.Sent> forged,
        List<String> tenantFailures) {

    /**
     * How one job went.
     *
     * @param job          the job
     * @param jobMs        from its submission to its final version on every shard, -1 if it never finished
     * @param faultFreeMs  its estimated time without faults
     */
    record JobRun(ChaosJob job, long jobMs, long faultFreeMs) {}

    ChaosRecord {
        jobs = List.copyOf(jobs);
        faults = List.copyOf(faults);
        exits = List.copyOf(exits);
        appsDown = List.copyOf(appsDown);
        forged = List.copyOf(forged);
        tenantFailures = List.copyOf(tenantFailures);
    }

    /** The run of the job named {@code name}. */
    JobRun job(final String name) {
        return jobs.stream()
                .filter(run -> run.job().name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no job " + name + " in this run"));
    }

    /** The BSP job, the one the hostile tenant attacks. */
    ChaosJob bsp() {
        return job(ChaosJob.BSP_NAME).job();
    }
}
