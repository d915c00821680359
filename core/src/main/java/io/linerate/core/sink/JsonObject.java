package io.linerate.core.sink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A JSON object under construction, written as one line of JSON text by {@link #toJson()}. Fields
 * keep the order they were first put in; putting a field again replaces its value in place. The
 * writers of this package ({@link ResultJson}, {@link MetricJson}) return one, so that a caller can
 * add fields of its own (a suite's run number, say) before writing it. Jackson writes the text;
 * numbers are JSON numbers, never locale-formatted. Not thread-safe.
 */
public final class JsonObject {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ObjectNode node;

    private JsonObject(ObjectNode node) {
        this.node = node;
    }

    /** @return an empty object */
    public static JsonObject create() {
        return new JsonObject(MAPPER.createObjectNode());
    }

    /**
     * Puts a string; null writes {@code null}.
     *
     * @return this object
     */
    public JsonObject put(String name, String value) {
        node.put(name(name), value);
        return this;
    }

    /**
     * Puts a whole number.
     *
     * @return this object
     */
    public JsonObject put(String name, long value) {
        node.put(name(name), value);
        return this;
    }

    /**
     * Puts a number.
     *
     * @return this object
     * @throws IllegalArgumentException for NaN or an infinity, which JSON cannot hold
     */
    public JsonObject put(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("JSON field " + name + " cannot hold " + value + "; allowed: a finite number");
        }
        node.put(name(name), value);
        return this;
    }

    /**
     * Puts a number, or {@code null} when there is none (a rate of an empty window, say: never 0).
     *
     * @return this object
     * @throws IllegalArgumentException for NaN or an infinity
     */
    public JsonObject put(String name, OptionalDouble value) {
        return value.isPresent() ? put(name, value.getAsDouble()) : putNull(name);
    }

    /**
     * Puts a boolean.
     *
     * @return this object
     */
    public JsonObject put(String name, boolean value) {
        node.put(name(name), value);
        return this;
    }

    /**
     * Puts {@code null}.
     *
     * @return this object
     */
    public JsonObject putNull(String name) {
        node.putNull(name(name));
        return this;
    }

    /**
     * Puts a copy of {@code value} as a nested object.
     *
     * @return this object
     */
    public JsonObject put(String name, JsonObject value) {
        node.set(name(name), value.node.deepCopy());
        return this;
    }

    /**
     * Puts an array of strings (null elements write {@code null}).
     *
     * @return this object
     */
    public JsonObject putStrings(String name, List<String> values) {
        ArrayNode a = node.putArray(name(name));
        values.forEach(a::add);
        return this;
    }

    /**
     * Puts an array of copies of {@code values}.
     *
     * @return this object
     */
    public JsonObject putObjects(String name, List<JsonObject> values) {
        ArrayNode a = node.putArray(name(name));
        values.forEach(v -> a.add(v.node.deepCopy()));
        return this;
    }

    /**
     * Puts every field of {@code other}, in its order: one this object already has is replaced in
     * place, the others are appended.
     *
     * @return this object
     */
    public JsonObject putAll(JsonObject other) {
        node.setAll(other.node.deepCopy());
        return this;
    }

    /** @return whether the object has a field of that name */
    public boolean has(String name) {
        return node.has(name);
    }

    /** @return the object as one line of JSON text, without a line end */
    public String toJson() {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /** @return {@link #toJson()} */
    @Override
    public String toString() {
        return toJson();
    }

    private static String name(String name) {
        return Objects.requireNonNull(name, "name");
    }
}
