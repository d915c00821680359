package io.linerate.core.spi.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

class CpuListTest {

    private static BitSet of(int... cpus) {
        BitSet b = new BitSet();
        for (int c : cpus) {
            b.set(c);
        }
        return b;
    }

    @Test
    void formatsRunsAsRangesAndSinglesAsNumbers() {
        assertThat(CpuList.format(of(0, 1, 2, 3, 8))).isEqualTo("0-3,8");
        assertThat(CpuList.format(of(1))).isEqualTo("1");
        assertThat(CpuList.format(of(0, 2, 4, 5))).isEqualTo("0,2,4-5");
        assertThat(CpuList.format(of(1023))).isEqualTo("1023");
        assertThat(CpuList.format(new BitSet())).isEmpty();
    }

    @Test
    void parsesTheKernelsListFormat() {
        assertThat(CpuList.parse("0-3,8")).isEqualTo(of(0, 1, 2, 3, 8));
        assertThat(CpuList.parse(" 5 ")).isEqualTo(of(5));
        assertThat(CpuList.parse("1,1,0-1")).isEqualTo(of(0, 1));
    }

    @Test
    void refusesWhatIsNotAListNamingIt() {
        assertThatThrownBy(() -> CpuList.parse("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is empty").hasMessageContaining("0-1023");
        assertThatThrownBy(() -> CpuList.parse("a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a'").hasMessageContaining("0-1023");
        assertThatThrownBy(() -> CpuList.parse("3-1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3-1, whose end is below its start");
        assertThatThrownBy(() -> CpuList.parse("1024")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CPU 1024").hasMessageContaining("allowed: 0-1023");
        assertThatThrownBy(() -> CpuList.parse("1,")).isInstanceOf(IllegalArgumentException.class);
    }
}
