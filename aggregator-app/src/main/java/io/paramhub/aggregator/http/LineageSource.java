package io.paramhub.aggregator.http;

import io.paramhub.topology.aggregator.LineageHistory;

/**
 * Where this instance keeps the lineage of the shard-0 versions it published: its {@link LineageHistory} (or a
 * fake in tests). May block briefly (a version is rebuilt from its block): call it on a worker thread.
 */
@FunctionalInterface
interface LineageSource {

    /** The lineage of {@code version} of {@code job}, its latest when {@code version} is negative. */
    LineageHistory.Lookup at(String job, long version);
}
