package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code linerate search}: bad input exits 2 naming the value, before any trial runs. */
class SearchCommandTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "search --min-rate 100M --max-rate 100M|min rate 100000000 bit/s is not below max rate 100000000 bit/s; allowed: min < max",
        "search --min-rate 200M --max-rate 100M|min rate 200000000 bit/s is not below max rate 100000000 bit/s",
        "search --resolution 50%|resolution '50%' is out of range; allowed: more than 0% and less than 50% of the upper bound",
        "search --resolution 0%|resolution '0%' is out of range",
        "search --resolution=-1%|resolution '-1%' is out of range",
        "search --resolution 0|resolution '0' is 0 bit/s; allowed: more than 0 bit/s, or a percentage such as 1%",
        "search --max-rate 10M --resolution 5M|resolution 5000000 bit/s is 50% of the max rate 10000000 bit/s or more",
        "search --trial 199ms|trial 199 ms is out of range; allowed: 200 ms..1 h",
        "search --trial 400ms --interval 100ms|interval 100 ms is out of range for a trial of 400 ms, which must hold 5 reporting intervals; allowed: 10 ms..80 ms (the trial / 5), or a trial of 500 ms or more",
        "search --trial 1s --interval 0s|interval 0 ms is out of range for a trial of 1000 ms, which must hold 5 reporting intervals; allowed: 10 ms..200 ms (the trial / 5)",
        "search --confirm 0|confirm 0 is out of range; allowed: 1..100 trials",
        "search --max-trials 0|max trials 0 is out of range; allowed: 1..1000",
        "search --trials-per-load 0|trials per load 0 is out of range; allowed: 1 (strict, RFC 2544)..99",
        "search --trials-per-load 100|trials per load 100 is out of range; allowed: 1 (strict, RFC 2544)..99",
        "search --strict --trials-per-load 3|--strict judges each load by one trial; --trials-per-load 3 asks for more; allowed: one of them, or --trials-per-load 1",
        "search --loss-tolerance 100|loss tolerance 100.0% is out of range",
        "search --loss-tolerance x|loss tolerance 'x' is not a percentage",
        "search --protocol tcp|protocol 'tcp' cannot be searched",
        "search --payload 16|payload 16 bytes is out of range: UDP over IPv4 allows 32..65507 bytes",
        "search --min-rate 5X|rate '5X' has unknown suffix 'X'",
        // 1460 B = 11680 bit; 2 datagrams in 200 ms need 2 × 11680 / 0.2 = 116800 bit/s
        "search --payload 1460 --min-rate 1000 --max-rate 3000 --trial 200ms|min rate 1000 bit/s is out of range for a trial "
                + "of 200 ms and messages of 1460 B: a trial at it carries fewer than 2 messages (1000 bit/s x 0.2 s = 200 bit); "
                + "allowed: 116800 bit/s or more (2 x 11680 bit / 0.2 s), or a longer trial",
        // 1.5 bit/s rounds to 2; in a 2 s trial the min must be 2 × 11680 / 2 = 11680 bit/s or more, and the max above it
        "search --payload 1460 --max-rate 1.5|max rate 2 bit/s is out of range for a trial of 2000 ms and messages of 1460 B",
        "search --payload 1460 --max-rate 1|allowed: more than 11680 bit/s, or a longer trial",
        "search --payload 1460 --loss-sweep --max-rate 10k|max rate 10000 bit/s is out of range for a trial of 2000 ms",
    })
    void badInputNamesTheValueAndExitsTwo(String args, String message) {
        LinerateCliTest.Run r = LinerateCliTest.linerate(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }
}
