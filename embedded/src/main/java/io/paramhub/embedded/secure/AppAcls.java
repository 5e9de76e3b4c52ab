package io.paramhub.embedded.secure;

import io.paramhub.worker.WorkerSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The least-privilege ACLs of each {@link Role} on a cluster with an authorizer. READ and WRITE name each topic
 * (LITERAL, topic prefix + name): only the aggregator writes {@code model}, only the orchestrator {@code commands}
 * and {@code placements}, only a submitter {@code jobs}. DESCRIBE and DESCRIBE_CONFIGS stay on the topic prefix
 * (start-up topic checks). A Streams app also gets ALL on its internal topics and WRITE on its transactional ids
 * ({@code <application.id>-...}, PREFIXED) and READ on its group ({@code <application.id>}, LITERAL, and
 * {@code <application.id>-...}); a worker
 * READ on its groups and WRITE on its transactional ids ({@code paramhub-worker.<job>.<worker>}, and the Python
 * worker's groups) and READ on the users' data topics. No role may CREATE ParamHub's topics: the admin makes them.
 */
public final class AppAcls {

    /** What a topic-mode worker's transactional id and consumer group start with. */
    public static final String WORKER_ID_PREFIX = WorkerSettings.CLIENT_ID_PREFIX;

    /**
     * What the Python worker's group ids start with ({@code clients/python}: librdkafka wants one; its consumers are
     * assigned, never subscribed, and commit nothing).
     */
    public static final String PYTHON_WORKER_GROUP_PREFIX = "paramhub-python-worker-";

    static final String JOBS = "jobs";
    static final String GRADIENTS = "gradients";
    static final String MODEL = "model";
    static final String TELEMETRY = "telemetry";
    static final String COMMANDS = "commands";
    static final String MEMBERSHIP = "membership";
    static final String DEAD_LETTERS = "dead-letters";
    static final String SHARD_JOBS = "shard-jobs";
    static final String SHARD_MEMBERSHIP = "shard-membership";
    static final String SHARD_COMMANDS = "shard-commands";
    static final String ACTIVATIONS = "activations";
    static final String ACTIVATION_GRADIENTS = "activation-gradients";
    static final String SERVER_TELEMETRY = "server-telemetry";
    static final String PLACEMENTS = "placements";

    /** Every ParamHub topic's name without the prefix, as {@code TopicCatalog} names them. */
    static final List<String> TOPICS = List.of(
            JOBS,
            GRADIENTS,
            MODEL,
            TELEMETRY,
            COMMANDS,
            MEMBERSHIP,
            DEAD_LETTERS,
            SHARD_JOBS,
            SHARD_MEMBERSHIP,
            SHARD_COMMANDS,
            ACTIVATIONS,
            ACTIVATION_GRADIENTS,
            SERVER_TELEMETRY,
            PLACEMENTS);

    /** What a job's status reads ({@code JobsReader}) and a watcher's boards: telemetry too. */
    private static final List<String> STATUS = List.of(JOBS, MODEL, TELEMETRY, MEMBERSHIP, COMMANDS, DEAD_LETTERS);

    private static final String ANY_HOST = "*";

    private AppAcls() {}

    /** The ACLs of {@code role} for {@code principal} ({@code User:name}) in {@code scope}. */
    public static List<AclBinding> of(final Role role, final String principal, final AclScope scope) {
        return switch (role) {
            case AGGREGATOR -> aggregator(principal, scope.topicPrefix(), scope.aggregatorId());
            case ORCHESTRATOR -> orchestrator(principal, scope.topicPrefix(), scope.orchestratorId());
            case WORKER -> worker(principal, scope.topicPrefix(), scope.dataTopicPrefixes());
            case SUBMITTER -> submitter(principal, scope.topicPrefix());
            case READER -> reader(principal, scope.topicPrefix());
        };
    }

    /**
     * The aggregator: reads {@code jobs}, {@code membership}, {@code commands}, {@code gradients}, the
     * {@code shard-*} fan-outs, {@code model} (restoring a shard) and {@code placements}; writes {@code model}, the
     * {@code shard-*} fan-outs, {@code server-telemetry} and {@code dead-letters}.
     */
    public static List<AclBinding> aggregator(
            final String principal, final String topicPrefix, final String applicationId) {
        final List<AclBinding> acls = describe(principal, topicPrefix);
        acls.addAll(topics(
                principal,
                topicPrefix,
                AclOperation.READ,
                JOBS,
                MEMBERSHIP,
                COMMANDS,
                GRADIENTS,
                SHARD_JOBS,
                SHARD_MEMBERSHIP,
                SHARD_COMMANDS,
                MODEL,
                PLACEMENTS));
        acls.addAll(topics(
                principal,
                topicPrefix,
                AclOperation.WRITE,
                MODEL,
                SHARD_JOBS,
                SHARD_MEMBERSHIP,
                SHARD_COMMANDS,
                SERVER_TELEMETRY,
                DEAD_LETTERS));
        acls.addAll(streamsApp(principal, applicationId));
        return acls;
    }

    /**
     * The orchestrator: reads {@code telemetry}, {@code server-telemetry} and {@code jobs}, and for its dashboard
     * {@code commands} and {@code model}; writes {@code commands}, {@code placements} and {@code dead-letters}.
     */
    public static List<AclBinding> orchestrator(
            final String principal, final String topicPrefix, final String applicationId) {
        final List<AclBinding> acls = describe(principal, topicPrefix);
        acls.addAll(
                topics(principal, topicPrefix, AclOperation.READ, TELEMETRY, SERVER_TELEMETRY, JOBS, COMMANDS, MODEL));
        acls.addAll(topics(principal, topicPrefix, AclOperation.WRITE, COMMANDS, PLACEMENTS, DEAD_LETTERS));
        acls.addAll(streamsApp(principal, applicationId));
        return acls;
    }

    /**
     * A worker: reads {@code jobs}, {@code model}, the activation topics and the topics under each of
     * {@code dataTopicPrefixes}; writes {@code gradients}, {@code telemetry}, {@code membership}, the activation
     * topics (staged jobs) and {@code dead-letters}; its transactional ids and groups start with
     * {@value #WORKER_ID_PREFIX}.
     */
    public static List<AclBinding> worker(
            final String principal, final String topicPrefix, final List<String> dataTopicPrefixes) {
        final List<AclBinding> acls = describe(principal, topicPrefix);
        acls.addAll(topics(principal, topicPrefix, AclOperation.READ, JOBS, MODEL, ACTIVATIONS, ACTIVATION_GRADIENTS));
        acls.addAll(topics(
                principal,
                topicPrefix,
                AclOperation.WRITE,
                GRADIENTS,
                TELEMETRY,
                MEMBERSHIP,
                ACTIVATIONS,
                ACTIVATION_GRADIENTS,
                DEAD_LETTERS));
        for (final String data : dataTopicPrefixes) {
            acls.add(allow(principal, ResourceType.TOPIC, data, PatternType.PREFIXED, AclOperation.READ));
            acls.add(allow(principal, ResourceType.TOPIC, data, PatternType.PREFIXED, AclOperation.DESCRIBE));
        }
        acls.add(allow(principal, ResourceType.GROUP, WORKER_ID_PREFIX, PatternType.PREFIXED, AclOperation.READ));
        acls.add(allow(
                principal, ResourceType.GROUP, PYTHON_WORKER_GROUP_PREFIX, PatternType.PREFIXED, AclOperation.READ));
        acls.add(allow(
                principal, ResourceType.TRANSACTIONAL_ID, WORKER_ID_PREFIX, PatternType.PREFIXED, AclOperation.WRITE));
        return acls;
    }

    /** A submitter: writes {@code jobs} (and deletes them); reads what {@link #reader} reads. */
    public static List<AclBinding> submitter(final String principal, final String topicPrefix) {
        final List<AclBinding> acls = reader(principal, topicPrefix);
        acls.addAll(topics(principal, topicPrefix, AclOperation.WRITE, JOBS));
        return acls;
    }

    /**
     * A reader: reads {@code jobs}, {@code model}, {@code telemetry} and what a job's status needs besides
     * ({@code membership}, {@code commands}, {@code dead-letters}); writes nothing; no group.
     */
    public static List<AclBinding> reader(final String principal, final String topicPrefix) {
        final List<AclBinding> acls = describe(principal, topicPrefix);
        acls.addAll(topics(principal, topicPrefix, AclOperation.READ, STATUS.toArray(String[]::new)));
        return acls;
    }

    /** What {@code applicationId}'s resources start with: {@code id-}, or the id itself when it ends in . or -. */
    static String ownPrefix(final String applicationId) {
        return applicationId.endsWith(".") || applicationId.endsWith("-") ? applicationId : applicationId + "-";
    }

    /**
     * A Streams app's own: ALL on its internal topics and WRITE on its transactional ids (both
     * {@code <application.id>-...}), READ on its group ({@code application.id}) and groups {@code <application.id>-...}
     * (the dashboard's observe-only {@code paramhub-orchestrator-observer}).
     */
    private static List<AclBinding> streamsApp(final String principal, final String applicationId) {
        final String own = ownPrefix(applicationId);
        return List.of(
                allow(principal, ResourceType.TOPIC, own, PatternType.PREFIXED, AclOperation.ALL),
                allow(principal, ResourceType.GROUP, applicationId, PatternType.LITERAL, AclOperation.READ),
                allow(principal, ResourceType.GROUP, own, PatternType.PREFIXED, AclOperation.READ),
                allow(principal, ResourceType.TRANSACTIONAL_ID, own, PatternType.PREFIXED, AclOperation.WRITE));
    }

    /** DESCRIBE and DESCRIBE_CONFIGS on the topics under {@code topicPrefix}: start-up checks read layouts. */
    private static List<AclBinding> describe(final String principal, final String topicPrefix) {
        final List<AclBinding> acls = new ArrayList<>();
        acls.add(allow(principal, ResourceType.TOPIC, topicPrefix, PatternType.PREFIXED, AclOperation.DESCRIBE));
        acls.add(
                allow(principal, ResourceType.TOPIC, topicPrefix, PatternType.PREFIXED, AclOperation.DESCRIBE_CONFIGS));
        return acls;
    }

    private static List<AclBinding> topics(
            final String principal, final String topicPrefix, final AclOperation operation, final String... names) {
        final List<AclBinding> acls = new ArrayList<>();
        for (final String name : names) {
            acls.add(allow(principal, ResourceType.TOPIC, topicPrefix + name, PatternType.LITERAL, operation));
        }
        return acls;
    }

    private static AclBinding allow(
            final String principal,
            final ResourceType type,
            final String name,
            final PatternType pattern,
            final AclOperation operation) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, ANY_HOST, operation, AclPermissionType.ALLOW));
    }
}
