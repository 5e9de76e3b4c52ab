package io.paramhub.topology.placement;

import io.paramhub.avro.ShardPlacement;
import java.util.Optional;

/** Where {@link PlacementTaskAssignor} finds the newest placement the orchestrator published on {@code placements}. */
@FunctionalInterface
public interface PlacementSource {

    /** The newest placement read so far; empty before the first. */
    Optional<ShardPlacement> current();
}
