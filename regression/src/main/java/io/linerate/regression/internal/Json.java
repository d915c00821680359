package io.linerate.regression.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/** Jackson helpers shared by the readers and writers of this module. */
public final class Json {
    /** The module's mapper; thread-safe once configured. */
    public static final ObjectMapper MAPPER = new ObjectMapper();
    /** A reader that refuses anything after the first JSON value. */
    public static final ObjectReader STRICT = MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /**
     * {@link #STRICT}, and a key given twice in one object is an error, for linerate's own files
     * (policy files, baselines): a reviewed policy with two tolerances must not pass with the
     * looser one. Other tools' output is read with {@link #STRICT}: iperf3 3.12 writes some keys
     * twice.
     */
    public static final ObjectReader NO_DUPLICATES = STRICT
            .with(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
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
