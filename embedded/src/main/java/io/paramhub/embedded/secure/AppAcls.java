package io.paramhub.embedded.secure;

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
 * The ACLs a ParamHub app's principal needs on a cluster with an authorizer, all on prefixes: the topics under
 * the topic prefix ({@code paramhub.} by default), and for a Kafka Streams app (aggregator, orchestrator) its
 * internal topics, consumer group and transactional ids, which all start with its {@code application.id}.
 */
public final class AppAcls {

    private static final String ANY_HOST = "*";

    private AppAcls() {}

    /**
     * A worker or a job submitter: read, write and describe the topics under {@code topicPrefix}, and read their
     * configs (a worker checks them at start-up, {@code TopicCheck}). It uses no consumer group and no
     * transactions; its producer is idempotent, which WRITE on a topic allows.
     */
    public static List<AclBinding> client(final String principal, final String topicPrefix) {
        return allow(
                principal,
                ResourceType.TOPIC,
                topicPrefix,
                AclOperation.READ,
                AclOperation.WRITE,
                AclOperation.DESCRIBE,
                AclOperation.DESCRIBE_CONFIGS);
    }

    /**
     * A Kafka Streams app: as {@link #client}, and CREATE on the topics under {@code topicPrefix} (it creates
     * them when asked); ALL on topics starting with
     * {@code applicationIdPrefix} (changelogs, repartition topics); READ on groups and WRITE on transactional
     * ids starting with it (exactly-once).
     */
    public static List<AclBinding> streamsApp(
            final String principal, final String topicPrefix, final String applicationIdPrefix) {
        final List<AclBinding> acls = new ArrayList<>(client(principal, topicPrefix));
        acls.addAll(allow(principal, ResourceType.TOPIC, topicPrefix, AclOperation.CREATE));
        acls.addAll(allow(principal, ResourceType.TOPIC, applicationIdPrefix, AclOperation.ALL));
        acls.addAll(allow(principal, ResourceType.GROUP, applicationIdPrefix, AclOperation.READ));
        acls.addAll(allow(principal, ResourceType.TRANSACTIONAL_ID, applicationIdPrefix, AclOperation.WRITE));
        return acls;
    }

    private static List<AclBinding> allow(
            final String principal, final ResourceType type, final String prefix, final AclOperation... operations) {
        final List<AclBinding> acls = new ArrayList<>();
        for (final AclOperation operation : operations) {
            acls.add(new AclBinding(
                    new ResourcePattern(type, prefix, PatternType.PREFIXED),
                    new AccessControlEntry(principal, ANY_HOST, operation, AclPermissionType.ALLOW)));
        }
        return acls;
    }
}
