package io.paramhub.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class SchemaLogCodecTest {

    private static final Schema PROBE = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Probe\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}");

    private final RegistryState state = new RegistryState();

    @Test
    void shouldWriteConfluentSchemaRecordWhenEncodingVersion() {
        // given
        final SchemaVersion version = new SchemaVersion("jobs-value", 2, 7, PROBE, false);

        // when
        final String key = SchemaLogCodec.schemaKey("jobs-value", 2);
        final String value = SchemaLogCodec.schemaValue(version);

        // then
        assertThat(key).isEqualTo("{\"keytype\":\"SCHEMA\",\"subject\":\"jobs-value\",\"version\":2,\"magic\":1}");
        assertThat(new JsonObject(value))
                .isEqualTo(new JsonObject()
                        .put("subject", "jobs-value")
                        .put("version", 2)
                        .put("id", 7)
                        .put("schema", PROBE.toString())
                        .put("deleted", false));
    }

    @Test
    void shouldWriteNullSubjectWhenEncodingGlobalConfig() {
        // when
        final String key = SchemaLogCodec.configKey(null);
        final String value = SchemaLogCodec.configValue(CompatibilityLevel.FULL);

        // then
        assertThat(key).isEqualTo("{\"keytype\":\"CONFIG\",\"subject\":null,\"magic\":0}");
        assertThat(value).isEqualTo("{\"compatibilityLevel\":\"FULL\"}");
    }

    @Test
    void shouldRebuildStateWhenApplyingEncodedRecords() {
        // given
        final SchemaVersion version = new SchemaVersion("jobs-value", 1, 3, PROBE, false);

        // when
        SchemaLogCodec.apply(SchemaLogCodec.schemaKey("jobs-value", 1), SchemaLogCodec.schemaValue(version), 0, state);
        SchemaLogCodec.apply(
                SchemaLogCodec.configKey("jobs-value"), SchemaLogCodec.configValue(CompatibilityLevel.NONE), 1, state);

        // then
        assertThat(state.liveVersions("jobs-value")).containsExactly(version);
        assertThat(state.schemaById(3)).contains(PROBE);
        assertThat(state.idFor(PROBE)).isEqualTo(3);
        assertThat(state.nextVersion("jobs-value")).isEqualTo(2);
        assertThat(state.effectiveLevel("jobs-value")).isEqualTo(CompatibilityLevel.NONE);
        assertThat(state.effectiveLevel("other-value")).isEqualTo(CompatibilityLevel.BACKWARD);
    }

    @Test
    void shouldForgetVersionAndLevelWhenRecordIsTombstone() {
        // given
        SchemaLogCodec.apply(
                SchemaLogCodec.schemaKey("jobs-value", 1),
                SchemaLogCodec.schemaValue(new SchemaVersion("jobs-value", 1, 1, PROBE, false)),
                0,
                state);
        SchemaLogCodec.apply(
                SchemaLogCodec.configKey(null), SchemaLogCodec.configValue(CompatibilityLevel.FULL), 1, state);

        // when
        SchemaLogCodec.apply(SchemaLogCodec.schemaKey("jobs-value", 1), null, 2, state);
        SchemaLogCodec.apply(SchemaLogCodec.configKey(null), null, 3, state);

        // then
        assertThat(state.subjects()).isEmpty();
        assertThat(state.schemaById(1)).contains(PROBE);
        assertThat(state.globalLevel()).isEqualTo(CompatibilityLevel.BACKWARD);
    }

    @Test
    void shouldSkipRecordWhenKeyTypeIsUnknownOrJsonIsCorrupt() {
        // when
        SchemaLogCodec.apply("{\"keytype\":\"NOOP\",\"magic\":0}", null, 0, state);
        SchemaLogCodec.apply("{not json", "{}", 1, state);
        SchemaLogCodec.apply(SchemaLogCodec.schemaKey("jobs-value", 1), "{\"schema\":\"{oops\"}", 2, state);

        // then
        assertThat(state.subjects()).isEmpty();
        assertThat(state.idFor(PROBE)).isEqualTo(1);
    }

    @Test
    void shouldHideVersionWhenMarkedDeleted() {
        // given
        final SchemaVersion deleted = new SchemaVersion("jobs-value", 1, 1, PROBE, true);

        // when
        SchemaLogCodec.apply(SchemaLogCodec.schemaKey("jobs-value", 1), SchemaLogCodec.schemaValue(deleted), 0, state);

        // then
        assertThat(state.subjects()).isEmpty();
        assertThat(state.liveVersions("jobs-value")).isEmpty();
        assertThat(state.nextVersion("jobs-value")).isEqualTo(2);
    }
}
