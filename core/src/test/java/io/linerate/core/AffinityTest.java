package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class AffinityTest {

    @Test
    void readsSfntPingpongsClientAndServerCpus() {
        assertThat(Affinity.parse("0;1")).isEqualTo(new Affinity(OptionalInt.of(0), OptionalInt.of(1)));
        assertThat(Affinity.parse(" 3 ; any ")).isEqualTo(new Affinity(OptionalInt.of(3), OptionalInt.empty()));
        assertThat(Affinity.parse("any;any").pins()).isFalse();
        // iperf3's -A form, which needs no quotes in a shell
        assertThat(Affinity.parse("1,0")).isEqualTo(new Affinity(OptionalInt.of(1), OptionalInt.of(0)));
        assertThat(Affinity.parse("any,2")).isEqualTo(new Affinity(OptionalInt.empty(), OptionalInt.of(2)));
        assertThat(Affinity.parse("ANY;7").label()).isEqualTo("any;7");
        assertThat(Affinity.NONE.label()).isEqualTo("any;any");
    }

    @Test
    void refusesOtherFormsNamingTheTextAndTheAllowedForm() {
        assertThatThrownBy(() -> Affinity.parse("1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("affinity '1' is not C;S; allowed: the client's CPU and the server's, each 0-1023 or any, such as 0;1 or 0,1");
        assertThatThrownBy(() -> Affinity.parse("1;0,1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'1;0,1' is not C;S");
        assertThatThrownBy(() -> Affinity.parse("1;2;3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'1;2;3' is not C;S");
        assertThatThrownBy(() -> Affinity.parse("x;1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 'x', which is not a CPU");
        assertThatThrownBy(() -> Affinity.parse("0;1024")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the server's CPU 1024 is out of range; allowed: 0-1023 or any");
        assertThatThrownBy(() -> Affinity.parse("-1;0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the client's CPU -1 is out of range");
    }
}
