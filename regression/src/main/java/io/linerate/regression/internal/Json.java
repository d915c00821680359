package io.linerate.regression.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/** Jackson helpers shared by the readers and writers of this module. */
public final class Json {
    /** The module's mapper; thread-safe once configured. */
    public static final ObjectMapper MAPPER = new ObjectMapper();
    /** A reader that refuses anything after the first JSON value. */
    public static final ObjectReader STRICT = MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** Jackson's tree reader with {@link RepeatedKeys} in place of its own. */
    private static final ObjectReader DISTINCT = JsonMapper.builder()
            .addModule(new SimpleModule("linerate-repeated-keys").addDeserializer(JsonNode.class, new RepeatedKeys()))
            .build().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /**
     * Writes two-space indented JSON with {@code \n} line ends on every platform (Jackson's default
     * pretty printer uses the platform's line separator), arrays on one line.
     */
    public static final ObjectWriter PRETTY = MAPPER.writer(
            new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));
    /** A decimal number as text, without NaN, infinities or hexadecimal forms. */
    public static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");

    private Json() {}

    /** @return the single JSON value in {@code text}, or null when it is not exactly one JSON value */
    public static JsonNode parseWhole(String text) {
        try {
            return STRICT.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * Reads what a reader was given: exactly one JSON value, in which no key may be given twice in
     * one object with two different values (a repeat with an equal value is kept once).
     *
     * @param text the input's text
     * @return its tree
     * @throws JsonProcessingException when it is not one JSON value or repeats a key with another
     *     value; {@link #lineOf} gives the line, the message the key and its JSON Pointer path
     */
    public static JsonNode readDistinct(String text) throws JsonProcessingException {
        return DISTINCT.readTree(text);
    }

    /**
     * {@link #readDistinct(String)} for another tool's output, checking only the keys the reader
     * reads, so that a harmless repeat elsewhere does not refuse the whole document.
     *
     * @param text the input's text
     * @param guardedKeys whether a key (at any depth) must not repeat with another value
     * @return its tree
     * @throws JsonProcessingException as {@link #readDistinct(String)}
     */
    public static JsonNode readDistinct(String text, Predicate<String> guardedKeys) throws JsonProcessingException {
        return DISTINCT.withAttribute(RepeatedKeys.GUARDED, guardedKeys).readTree(text);
    }

    /**
     * @param what the kind of file, such as {@code baseline}
     * @param source its name
     * @param e why {@link #readDistinct} refused it
     * @return a message naming the file, the line and what is wrong there
     */
    public static String unreadable(String what, String source, JsonProcessingException e) {
        String line = "line " + lineOf(e);
        return e instanceof RepeatedKeys.RepeatedKeyException
                ? what + " " + source + ", " + line + ": " + reason(e)
                : what + " " + source + " is not valid JSON (" + line + "): " + reason(e);
    }

    /** @return the 1-based line a parse failure names, or 0 when it names none */
    public static int lineOf(JsonProcessingException e) {
        JsonLocation l = e.getLocation();
        return l == null ? 0 : Math.max(0, l.getLineNr());
    }

    /**
     * @param json one JSON value as text, written by linerate itself
     * @return its tree
     * @throws IllegalStateException when it is not JSON, which would be a bug
     */
    public static JsonNode tree(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read JSON written by linerate: " + e.getOriginalMessage(), e);
        }
    }

    /** @return {@code node} as one line of JSON text */
    public static String line(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /**
     * @return the first non-blank character of {@code s}, or 0
     */
    public static char firstChar(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isWhitespace(c) && c != '\uFEFF') {
                return c;
            }
        }
        return 0;
    }

    /**
     * @param text a number written as text
     * @return its value
     * @throws IllegalArgumentException when it is not a finite decimal number
     */
    public static double parseNumber(String text) {
        if (text == null || !NUMBER.matcher(text).matches()) {
            throw new IllegalArgumentException("value '" + text + "' is not allowed; allowed: a finite decimal number");
        }
        double v = Double.parseDouble(text);
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException("value '" + text + "' is not allowed; allowed: a finite decimal number");
        }
        return v;
    }

    /**
     * @param t a number of seconds or an RFC 3339 date-time string
     * @return seconds (since the run's start, or since the epoch for date-times)
     * @throws IllegalArgumentException for anything else
     */
    public static double seconds(JsonNode t) {
        if (t.isNumber() && Double.isFinite(t.asDouble()) && t.asDouble() >= 0) {
            return t.asDouble();
        }
        if (t.isTextual()) {
            try {
                OffsetDateTime d = OffsetDateTime.parse(t.asText());
                return d.toEpochSecond() + d.getNano() / 1e9;
            } catch (DateTimeParseException e) {
                // fall through to the error below
            }
        }
        throw new IllegalArgumentException("time " + t + " is not allowed; allowed: seconds >= 0 or an RFC 3339 date-time");
    }

    /**
     * @param e a parse failure
     * @return what is wrong in a user's words: a NaN or infinity token names the value and that JSON
     *     allows finite numbers only; otherwise the parser's own message
     */
    public static String reason(com.fasterxml.jackson.core.JsonProcessingException e) {
        String m = e.getOriginalMessage();
        java.util.regex.Matcher nonNumeric = java.util.regex.Pattern.compile("Non-standard token '([^']+)'").matcher(m == null ? "" : m);
        if (nonNumeric.find()) {
            return "value " + nonNumeric.group(1) + " is not allowed; allowed: a finite number (JSON has no NaN or infinities)";
        }
        return m;
    }
}
