package io.paramhub.cli.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.avro.TensorShape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SafetensorsWriterTest {

    private static final ExportedModel MODEL = new ExportedModel(
            "job-s",
            12,
            "mlp:3",
            false,
            List.of(new TensorShape("layers.0.weight", List.of(3, 2)), new TensorShape("layers.0.bias", List.of(3))),
            new float[] {1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f, 9f});

    @Test
    void shouldWriteHeaderLengthJsonHeaderAndDataWhenWritingSafetensors() throws IOException {
        // given
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when
        SafetensorsWriter.write(MODEL, out);

        // then
        final ByteBuffer file = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        final long headerLength = file.getLong();
        assertThat(headerLength % 8).isZero();
        final JsonNode header = new ObjectMapper()
                .readTree(new String(out.toByteArray(), 8, (int) headerLength, StandardCharsets.UTF_8));
        assertThat(header.get("__metadata__").get("job").asText()).isEqualTo("job-s");
        assertThat(header.get("__metadata__").get("version").asText()).isEqualTo("12");
        assertThat(header.get("__metadata__").get("model").asText()).isEqualTo("mlp:3");
        final JsonNode weight = header.get("layers.0.weight");
        assertThat(weight.get("dtype").asText()).isEqualTo("F32");
        assertThat(weight.get("shape").toString()).isEqualTo("[3,2]");
        assertThat(weight.get("data_offsets").toString()).isEqualTo("[0,24]");
        assertThat(header.get("layers.0.bias").get("data_offsets").toString()).isEqualTo("[24,36]");
        file.position(8 + (int) headerLength);
        assertThat(file.remaining()).isEqualTo(36);
        final float[] data = new float[9];
        file.asFloatBuffer().get(data);
        assertThat(data).containsExactly(1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f, 9f);
    }

    @Test
    void shouldRefuseWhenTwoTensorsShareAName() {
        // given
        final ExportedModel twice = new ExportedModel(
                "job-s",
                1,
                "external",
                false,
                List.of(new TensorShape("w", List.of(1)), new TensorShape("w", List.of(1))),
                new float[2]);

        // when / then
        assertThatThrownBy(() -> SafetensorsWriter.write(twice, new ByteArrayOutputStream()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two tensors named w");
    }

    @Test
    void shouldRefuseAModelWhenItsTensorsDoNotCoverItsParameters() {
        // when / then
        assertThatThrownBy(() -> new ExportedModel(
                        "job-s", 1, "linear", false, List.of(new TensorShape("w", List.of(2, 2))), new float[5]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hold 4 values but its model has 5 parameters");
    }
}
