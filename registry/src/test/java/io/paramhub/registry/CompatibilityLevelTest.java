package io.paramhub.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class CompatibilityLevelTest {

    private static final Schema V1 = schema("{\"name\":\"a\",\"type\":\"string\"}");
    private static final Schema WITH_DEFAULTED_FIELD =
            schema("{\"name\":\"a\",\"type\":\"string\"}," + "{\"name\":\"b\",\"type\":\"int\",\"default\":0}");
    private static final Schema WITH_REQUIRED_FIELD =
            schema("{\"name\":\"a\",\"type\":\"string\"}," + "{\"name\":\"c\",\"type\":\"long\"}");
    private static final Schema A_DEFAULTED = schema("{\"name\":\"a\",\"type\":\"string\",\"default\":\"\"}");
    private static final Schema WITHOUT_A = schema("{\"name\":\"b\",\"type\":\"int\",\"default\":0}");

    @Test
    void shouldRefuseNewRequiredFieldWhenBackward() {
        // when / then
        assertThat(CompatibilityLevel.BACKWARD.check(WITH_REQUIRED_FIELD, versions(V1)))
                .isNotEmpty();
        assertThat(CompatibilityLevel.FORWARD.check(WITH_REQUIRED_FIELD, versions(V1)))
                .isEmpty();
        assertThat(CompatibilityLevel.NONE.check(WITH_REQUIRED_FIELD, versions(V1)))
                .isEmpty();
    }

    @Test
    void shouldAcceptDefaultedFieldWhenFull() {
        // when / then
        assertThat(CompatibilityLevel.FULL.check(WITH_DEFAULTED_FIELD, versions(V1)))
                .isEmpty();
        assertThat(CompatibilityLevel.FULL.check(WITH_REQUIRED_FIELD, versions(V1)))
                .isNotEmpty();
    }

    @Test
    void shouldCheckOnlyLatestUnlessTransitive() {
        // given
        final List<SchemaVersion> history = versions(V1, A_DEFAULTED);

        // when / then: dropping "a" breaks readers of version 1, where it has no default
        assertThat(CompatibilityLevel.FORWARD.check(WITHOUT_A, history)).isEmpty();
        assertThat(CompatibilityLevel.FORWARD_TRANSITIVE.check(WITHOUT_A, history))
                .isNotEmpty();
    }

    @Test
    void shouldParseLevelWhenNameIsInAnyCase() {
        // when / then
        assertThat(CompatibilityLevel.parse("full_transitive")).contains(CompatibilityLevel.FULL_TRANSITIVE);
        assertThat(CompatibilityLevel.parse("SOMETIMES")).isEmpty();
        assertThat(CompatibilityLevel.parse(null)).isEmpty();
    }

    private static List<SchemaVersion> versions(final Schema... schemas) {
        return IntStream.range(0, schemas.length)
                .mapToObj(i -> new SchemaVersion("s", i + 1, i + 1, schemas[i], false))
                .toList();
    }

    private static Schema schema(final String fields) {
        return new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Probe\",\"fields\":[" + fields + "]}");
    }
}
