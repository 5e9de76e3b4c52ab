package io.paramhub.embedded.secure;

import java.util.List;

/**
 * What the ACLs of {@link AppAcls} are computed from: ParamHub's topic prefix, the two Streams apps'
 * {@code application.id}s (their internal topics, group and transactional ids) and the prefixes of the users' data
 * topics that workers read. The two application ids must not cover each other's resources.
 */
public record AclScope(String topicPrefix, String aggregatorId, String orchestratorId, List<String> dataTopicPrefixes) {

    /** The default {@code application.id} of the aggregator ({@code AggregatorRunner.DEFAULT_APPLICATION_ID}). */
    public static final String DEFAULT_AGGREGATOR_ID = "paramhub-aggregator";
    /** The default {@code application.id} of the orchestrator ({@code OrchestratorRunner.DEFAULT_APPLICATION_ID}). */
    public static final String DEFAULT_ORCHESTRATOR_ID = "paramhub-orchestrator";

    public AclScope {
        dataTopicPrefixes = List.copyOf(dataTopicPrefixes);
        requireSeparate(aggregatorId, orchestratorId);
        requireSeparate(aggregatorId, AppAcls.WORKER_ID_PREFIX);
        requireSeparate(orchestratorId, AppAcls.WORKER_ID_PREFIX);
        requireSeparate(aggregatorId, AppAcls.PYTHON_WORKER_GROUP_PREFIX);
        requireSeparate(orchestratorId, AppAcls.PYTHON_WORKER_GROUP_PREFIX);
        for (final String data : dataTopicPrefixes) {
            if (AppAcls.TOPICS.stream().anyMatch(topic -> (topicPrefix + topic).startsWith(data))) {
                throw new IllegalArgumentException("data topic prefix '" + data + "' covers ParamHub's topics under '"
                        + topicPrefix + "': workers may read every data topic");
            }
        }
    }

    /** The default application ids on {@code topicPrefix}, workers reading topics under {@code dataTopicPrefixes}. */
    public static AclScope defaults(final String topicPrefix, final List<String> dataTopicPrefixes) {
        return new AclScope(topicPrefix, DEFAULT_AGGREGATOR_ID, DEFAULT_ORCHESTRATOR_ID, dataTopicPrefixes);
    }

    /**
     * Refuses two ids when the resources one's ACLs cover ({@code id-...}, or {@code id...} for the workers' prefix)
     * include the other's: then one app's principal could fence the other's transactions or join its group.
     */
    private static void requireSeparate(final String one, final String other) {
        if (AppAcls.ownPrefix(one).startsWith(AppAcls.ownPrefix(other))
                || AppAcls.ownPrefix(other).startsWith(AppAcls.ownPrefix(one))) {
            throw new IllegalArgumentException("application ids '" + one + "' and '" + other + "' overlap: the ACLs "
                    + "of one would cover the other's internal topics, group or transactional ids");
        }
    }
}
