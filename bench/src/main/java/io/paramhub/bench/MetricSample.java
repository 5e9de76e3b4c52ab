package io.paramhub.bench;

/** The test metric of the model seen at {@code nanos} (this JVM's nano clock), whose shards were at least at {@code version}. */
public record MetricSample(long nanos, long version, double metric) {}
