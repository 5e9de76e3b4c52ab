package io.paramhub.bench.roundcost;

/** One partition replica's size in bytes, in one log directory of one broker, as {@code describeLogDirs} reports it. */
record ReplicaSize(String topic, int partition, int broker, String logDir, long bytes) {

    /** Names the replica: broker, directory, topic and partition. */
    String replica() {
        return broker + ":" + logDir + ":" + topic + "-" + partition;
    }
}
