package io.paramhub.launcher;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A job file: one YAML (or JSON, which is YAML) mapping whose keys are the long options of the command that submits
 * it, without their dashes ({@code epochs: 3} is {@code --epochs 3}), turned into that command's arguments, so
 * that a file and the options mean the same and are checked the same. A list value is joined with commas, a
 * boolean option is given for {@code true} and left out for {@code false}.
 */
public final class JobFile {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private JobFile() {}

    /**
     * The arguments that {@code file} stands for, for {@code command}.
     *
     * @throws SettingException naming the file and the key when the file cannot be read, is not a mapping, or has a
     *     key that is not one of the command's options or a value of the wrong shape
     */
    public static List<String> arguments(final Path file, final CommandSpec command) {
        final JsonNode root = read(file);
        if (root == null || !root.isObject()) {
            throw new SettingException(
                    "job file", file + ": a job file is one mapping of settings (key: value), one per option");
        }
        final List<String> arguments = new ArrayList<>();
        for (final Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            final Map.Entry<String, JsonNode> field = it.next();
            final OptionSpec option = command.findOption("--" + field.getKey());
            if (option == null || option.usageHelp() || option.versionHelp()) {
                throw new SettingException(
                        field.getKey(),
                        file + ": unknown key '" + field.getKey() + "'; the keys are the options of "
                                + command.qualifiedName() + " without their dashes: " + keys(command));
            }
            arguments.addAll(option(file, option, field.getValue()));
        }
        return arguments;
    }

    private static List<String> option(final Path file, final OptionSpec option, final JsonNode value) {
        final String name = option.longestName();
        if (option.arity().max() == 0) {
            if (!value.isBoolean()) {
                throw new SettingException(name, file + ": '" + name.substring(2) + "' is true or false, not " + value);
            }
            return value.booleanValue() ? List.of(name) : List.of();
        }
        if (value.isArray()) {
            final List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(scalar(file, name, item)));
            return List.of(name, String.join(",", items));
        }
        return List.of(name, scalar(file, name, value));
    }

    private static String scalar(final Path file, final String name, final JsonNode value) {
        if (!value.isValueNode() || value.isNull()) {
            throw new SettingException(
                    name,
                    file + ": '" + name.substring(2) + "' takes a number, a word or a list of them, not " + value);
        }
        return value.asText();
    }

    private static JsonNode read(final Path file) {
        try {
            return YAML.readTree(Files.readString(file));
        } catch (final NoSuchFileException e) {
            throw new SettingException("job file", "job file " + file + " does not exist");
        } catch (final JacksonException e) {
            throw new SettingException("job file", file + " is not YAML or JSON: " + e.getOriginalMessage());
        } catch (final IOException e) {
            throw new SettingException("job file", "cannot read job file " + file + ": " + e.getMessage());
        }
    }

    private static String keys(final CommandSpec command) {
        final TreeSet<String> keys = new TreeSet<>();
        for (final OptionSpec option : command.options()) {
            if (!option.usageHelp()
                    && !option.versionHelp()
                    && option.longestName().startsWith("--")) {
                keys.add(option.longestName().substring(2));
            }
        }
        return String.join(", ", keys);
    }
}
