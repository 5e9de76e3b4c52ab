package io.paramhub.embedded;

import java.util.Properties;

/**
 * The broker settings ParamHub's local clusters share whatever their size ({@link EmbeddedKafka}'s one node and
 * {@link BrokerProcesses}' three): the ones that matter for speed and for long runs on a small machine, measured in
 * docs/kafka-on-two-cores.md. Replication, ports and roles are each cluster's own.
 */
final class BrokerSettings {

    private BrokerSettings() {}

    /** The shared settings, to which a cluster adds its replication, listeners and roles. */
    static Properties shared() {
        final Properties props = new Properties();
        props.put("num.partitions", "1");
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.num.partitions", "5");
        props.put("group.initial.rebalance.delay.ms", "0");
        // a transaction's first write waits while the previous one's markers are written; the broker
        // retries adding the partition after this backoff (default 20 ms, once per exactly-once round)
        props.put("add.partitions.to.txn.retry.backoff.ms", "1");
        props.put("auto.create.topics.enable", "false");
        props.put("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        props.put("message.max.bytes", String.valueOf(8 * 1024 * 1024));
        // a long run of a big model writes tens of GB (20 epochs of the CNN: 55 GB of gradients): keep
        // at most ~1 GiB a partition of the delete-policy topics, and roll 64 MiB segments so that both
        // that retention and compaction (model, changelogs) can drop old ones while the run goes on
        props.put("log.segment.bytes", String.valueOf(64 * 1024 * 1024));
        props.put("log.retention.bytes", String.valueOf(1024L * 1024 * 1024));
        props.put("log.retention.check.interval.ms", "30000");
        // request threads for the machine's cores, not Kafka's 3 network and 8 I/O threads whatever the machine:
        // on 2 cores the embedded broker shares with the run's every other thread, the one-epoch MLP demo took
        // 0.93 of the time with 2 and 2 (docs/benchmarks-history.md); from 8 cores up these are Kafka's defaults
        final int cores = Runtime.getRuntime().availableProcessors();
        props.put("num.network.threads", String.valueOf(Math.min(3, Math.max(2, cores))));
        props.put("num.io.threads", String.valueOf(Math.max(2, cores)));
        // socket buffers sized by the kernel (TCP autotuning) rather than 100 KiB, as for ParamHub's clients
        // (ClientProperties.withKernelSocketBuffers): shard records are a few hundred KiB
        props.put("socket.send.buffer.bytes", "-1");
        props.put("socket.receive.buffer.bytes", "-1");
        return props;
    }
}
