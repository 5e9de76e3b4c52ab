package io.paramhub.bench.replay;

/**
 * One recorded record: where it was (partition, offset), its timestamp and key, and its value as Avro
 * binary of the topic's record class (no registry header, so a recording does not depend on the
 * registry it came from).
 */
public record RecordedRecord(int partition, long offset, long timestamp, String key, byte[] value) {}
