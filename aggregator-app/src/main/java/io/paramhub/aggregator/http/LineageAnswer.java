package io.paramhub.aggregator.http;

import io.paramhub.avro.OffsetRange;
import io.paramhub.topology.aggregator.LineageHistory;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The answer to {@code GET /jobs/{job}/lineage}: a status and its JSON body, from a {@link LineageHistory} lookup
 * on the instance that holds the job's shard 0, or relayed from it.
 */
record LineageAnswer(int status, JsonObject body) {

    /** What {@code lookup} found for version {@code asked} of {@code job} (negative: the latest). */
    static LineageAnswer of(final String job, final long asked, final LineageHistory.Lookup lookup) {
        if (lookup instanceof LineageHistory.Lookup.Found found) {
            final JsonArray ranges = new JsonArray();
            for (final OffsetRange range : found.lineage().ranges()) {
                ranges.add(new JsonObject()
                        .put("partition", range.getPartition())
                        .put("start", range.getStart())
                        .put("end", range.getEnd()));
            }
            return new LineageAnswer(
                    200,
                    new JsonObject()
                            .put("job", job)
                            .put("version", found.version())
                            .put("examples", found.lineage().examples())
                            .put("ranges", ranges));
        }
        if (lookup instanceof LineageHistory.Lookup.NotKept notKept) {
            final String where = asked > notKept.latest()
                    ? "beyond its latest version, " + notKept.latest()
                    : "older than the versions whose lineage is kept, " + notKept.oldest() + " to " + notKept.latest();
            return new LineageAnswer(
                    404,
                    new JsonObject()
                            .put("error", "version " + asked + " of job '" + job + "' is " + where)
                            .put("oldestVersion", notKept.oldest())
                            .put("latestVersion", notKept.latest()));
        }
        return unknownJob(job);
    }

    static LineageAnswer unknownJob(final String job) {
        return new LineageAnswer(404, new JsonObject().put("error", "no job '" + job + "'"));
    }
}
