package io.paramhub.cli.chaos;

import io.paramhub.avro.JobSpec;
import io.paramhub.topology.TopicCatalog;
import java.util.List;
import java.util.Properties;

/**
 * What a chaos run left for its invariants to check: where its cluster is, the job and how many clocks it has, the
 * faults injected, the job's timings and the apps' exits.
 *
 * @param client        client settings of the cluster (bootstrap servers)
 * @param topics        ParamHub's topics, their serdes on the run's registry
 * @param spec          the BSP job
 * @param clocks        the job's clocks (its last model version)
 * @param faults        the faults of the schedule, injected or not
 * @param jobMs         from the job's submission to its final version on every shard, -1 if it never finished
 * @param faultFreeMs   the job's estimated time without faults
 * @param exits         the apps' exits nobody caused, and broker exits, as text
 * @param appsDown      long-running apps not running at the end, and workers that did not end with code 0
 * @param forged        the hostile tenant's records, where each landed
 * @param tenantFailures forgeries the tenant could not write, as text
 */
record ChaosRecord(
        Properties client,
        TopicCatalog topics,
        JobSpec spec,
        long clocks,
        List<InjectedFault> faults,
        long jobMs,
        long faultFreeMs,
        List<String> exits,
        List<String> appsDown,
        List<HostileTenant.Sent> forged,
        List<String> tenantFailures) {

    ChaosRecord {
        faults = List.copyOf(faults);
        exits = List.copyOf(exits);
        appsDown = List.copyOf(appsDown);
        forged = List.copyOf(forged);
        tenantFailures = List.copyOf(tenantFailures);
    }
}
