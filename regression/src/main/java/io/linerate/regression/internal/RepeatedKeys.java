package io.linerate.regression.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.JsonNodeDeserializer;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Reads a JSON tree like Jackson's own tree reader, and refuses a key given twice in one object
 * with two different values: such a document means two things, and Jackson would keep the last
 * silently. A repeat with an equal value is harmless and kept once: iperf3 3.12 writes
 * {@code sock_bufsize}, {@code sndbuf_actual} and {@code rcvbuf_actual} once per stream into one
 * object with {@code -P} (esnet/iperf#1491). Which keys are checked is the {@link #GUARDED}
 * attribute of the read, a {@code Predicate<String>} of key names (all keys without it); a reader
 * guards the keys it reads.
 *
 * <p>Jackson puts a repeated object or array into the tree before it reads its members, so the
 * values are compared once the whole document is read.
 */
final class RepeatedKeys extends JsonNodeDeserializer {
    /** Attribute of a read: a {@code Predicate<String>} that says which keys must not repeat with a different value. */
    static final String GUARDED = "io.linerate.regression.guardedKeys";
    private static final String PENDING = "io.linerate.regression.repeatedKeys";

    /** A thrown refusal: the key, its JSON Pointer path (RFC 6901) and the line of the repeat. */
    static final class RepeatedKeyException extends JsonMappingException {
        private static final long serialVersionUID = 1L;

        RepeatedKeyException(JsonParser p, String message, JsonLocation repeat) {
            super(p, message, repeat);
        }
    }

    private record Repeat(String key, String path, JsonNode first, JsonNode second, JsonLocation where) {}

    RepeatedKeys() {
    }

    private RepeatedKeys(RepeatedKeys base, boolean mergeArrays, boolean mergeObjects) {
        super(base, mergeArrays, mergeObjects);
    }

    @Override
    protected JsonDeserializer<?> _createWithMerge(boolean mergeArrays, boolean mergeObjects) {
        return new RepeatedKeys(this, mergeArrays, mergeObjects);
    }

    @Override
    public JsonNode deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        Object outer = ctxt.getAttribute(PENDING);
        List<Repeat> repeats = new ArrayList<>();
        ctxt.setAttribute(PENDING, repeats);
        JsonNode tree;
        try {
            tree = super.deserialize(p, ctxt);
        } finally {
            ctxt.setAttribute(PENDING, outer);
        }
        for (Repeat r : repeats) {
            if (!r.first().equals(r.second())) {
                throw new RepeatedKeyException(p, "key \"" + r.key() + "\" is given twice in one object, at " + r.path()
                        + ", with different values (" + values(r.first(), r.second()) + "); allowed: each key once,"
                        + " or repeated with an equal value", r.where());
            }
        }
        return tree;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void _handleDuplicateField(JsonParser p, DeserializationContext ctxt, JsonNodeFactory nodeFactory,
                                         String key, ObjectNode objectNode, JsonNode oldValue, JsonNode newValue) {
        Object guarded = ctxt.getAttribute(GUARDED);
        if (guarded instanceof Predicate<?> g && !((Predicate<String>) g).test(key)) {
            return;
        }
        Object pending = ctxt.getAttribute(PENDING);
        if (pending instanceof List<?> list) {
            JsonStreamContext c = p.getParsingContext();
            if (p.currentToken() == JsonToken.START_OBJECT || p.currentToken() == JsonToken.START_ARRAY) {
                c = c.getParent(); // the repeated value's own context has begun: the key is its parent's
            }
            ((List<Repeat>) list).add(new Repeat(key, c.pathAsPointer().toString(), oldValue, newValue,
                    p.currentTokenLocation()));
        }
    }

    /** @return both values when both are short scalars, otherwise what kinds of value they are */
    private static String values(JsonNode first, JsonNode second) {
        if (first.isValueNode() && second.isValueNode()) {
            String a = Json.line(first);
            String b = Json.line(second);
            if (a.length() + b.length() <= 80) {
                return a + " and " + b;
            }
        }
        return first.getNodeType() == second.getNodeType()
                ? "two " + first.getNodeType().name().toLowerCase(Locale.ROOT) + "s"
                : kind(first) + " and " + kind(second);
    }

    private static String kind(JsonNode n) {
        return "a" + (n.isObject() || n.isArray() ? "n " : " ") + n.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
