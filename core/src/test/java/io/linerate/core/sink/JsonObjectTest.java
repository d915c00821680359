package io.linerate.core.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class JsonObjectTest {
    @Test
    void fieldsKeepTheirFirstPlaceAndAReplacedValueStaysThere() {
        JsonObject o = JsonObject.create().put("version", 1).put("marker", "tcp4").put("valid", true)
                .putStrings("reasons", List.of());
        o.putAll(JsonObject.create().put("marker", "tcp4_nodelay").put("run", 2).put("valid", false)
                .putStrings("reasons", List.of("a \"quoted\" reason")));
        // written by hand: marker and valid replaced in place, run appended; Jackson escapes the quotes
        assertThat(o.toJson()).isEqualTo("{\"version\":1,\"marker\":\"tcp4_nodelay\",\"valid\":false,"
                + "\"reasons\":[\"a \\\"quoted\\\" reason\"],\"run\":2}");
    }

    @Test
    void absentNumbersAreNullAndNonFiniteOnesAreRefused() {
        JsonObject o = JsonObject.create().put("jitter_ms", OptionalDouble.empty()).put("rate", OptionalDouble.of(2.5))
                .put("name", (String) null).putNull("lost");
        assertThat(o.toJson()).isEqualTo("{\"jitter_ms\":null,\"rate\":2.5,\"name\":null,\"lost\":null}");
        assertThatThrownBy(() -> JsonObject.create().put("x", Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("JSON field x cannot hold NaN; allowed: a finite number");
    }

    @Test
    void nestedObjectsAreCopiedWhenPut() {
        JsonObject inner = JsonObject.create().put("a", 1);
        JsonObject outer = JsonObject.create().put("inner", inner).putObjects("list", List.of(inner));
        inner.put("b", 2);
        assertThat(outer.toJson()).isEqualTo("{\"inner\":{\"a\":1},\"list\":[{\"a\":1}]}");
        assertThat(outer.has("inner")).isTrue();
        assertThat(outer.has("b")).isFalse();
    }
}
