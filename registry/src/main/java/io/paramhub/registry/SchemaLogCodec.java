package io.paramhub.registry;

import io.vertx.core.json.JsonObject;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keys and values of the {@code _schemas} topic as Confluent's registry writes them (JSON): key
 * {@code {"keytype":"SCHEMA","subject":s,"version":v,"magic":1}} with value
 * {@code {"subject":s,"version":v,"id":n,"schema":"...","deleted":false}}, and key
 * {@code {"keytype":"CONFIG","subject":s-or-null,"magic":0}} with value {@code {"compatibilityLevel":"..."}}.
 * Other key types (NOOP, MODE, DELETE_SUBJECT, ...) are skipped when read.
 */
final class SchemaLogCodec {

    private static final Logger log = LoggerFactory.getLogger(SchemaLogCodec.class);
    private static final String KEYTYPE = "keytype";
    private static final String SUBJECT = "subject";
    private static final String VERSION = "version";

    private SchemaLogCodec() {}

    static String schemaKey(final String subject, final int version) {
        return new JsonObject()
                .put(KEYTYPE, "SCHEMA")
                .put(SUBJECT, subject)
                .put(VERSION, version)
                .put("magic", 1)
                .encode();
    }

    static String schemaValue(final SchemaVersion version) {
        return new JsonObject()
                .put(SUBJECT, version.subject())
                .put(VERSION, version.version())
                .put("id", version.id())
                .put("schema", version.schemaText())
                .put("deleted", version.deleted())
                .encode();
    }

    static String configKey(final String subject) {
        return new JsonObject()
                .put(KEYTYPE, "CONFIG")
                .put(SUBJECT, subject)
                .put("magic", 0)
                .encode();
    }

    static String configValue(final CompatibilityLevel level) {
        return new JsonObject().put("compatibilityLevel", level.name()).encode();
    }

    /** Applies one record of the log to {@code state}; a record it cannot read is logged and skipped. */
    static void apply(final String key, final String value, final long offset, final RegistryState state) {
        try {
            final JsonObject keyJson = new JsonObject(key);
            final String keyType = keyJson.getString(KEYTYPE, "");
            switch (keyType) {
                case "SCHEMA" -> applySchema(keyJson, value, state);
                case "CONFIG" -> applyConfig(keyJson, value, offset, state);
                default -> log.debug("skipped _schemas record, keytype: {}, offset: {}", keyType, offset);
            }
        } catch (final RuntimeException e) {
            // a corrupt record must not keep the registry from starting
            log.warn("skipped unreadable _schemas record, offset: {}, key: {}", offset, key, e);
        }
    }

    private static void applySchema(final JsonObject key, final String value, final RegistryState state) {
        final String subject = key.getString(SUBJECT);
        final int versionNumber = key.getInteger(VERSION);
        if (value == null) {
            state.removeVersion(subject, versionNumber);
            return;
        }
        final JsonObject json = new JsonObject(value);
        final String type = json.getString("schemaType", "AVRO");
        if (!"AVRO".equals(type)) {
            log.warn(
                    "skipped {} schema, subject: {}, version: {}; only AVRO is supported",
                    type,
                    subject,
                    versionNumber);
            return;
        }
        final Schema schema = new Schema.Parser().parse(json.getString("schema"));
        state.putVersion(new SchemaVersion(
                subject, versionNumber, json.getInteger("id"), schema, json.getBoolean("deleted", false)));
    }

    private static void applyConfig(
            final JsonObject key, final String value, final long offset, final RegistryState state) {
        final String subject = key.getString(SUBJECT);
        if (value == null) {
            state.putLevel(subject, null);
            return;
        }
        final String name = new JsonObject(value).getString("compatibilityLevel");
        CompatibilityLevel.parse(name)
                .ifPresentOrElse(
                        level -> state.putLevel(subject, level),
                        () -> log.warn(
                                "skipped config record with unknown level: {}, subject: {}, offset: {}",
                                name,
                                subject,
                                offset));
    }
}
