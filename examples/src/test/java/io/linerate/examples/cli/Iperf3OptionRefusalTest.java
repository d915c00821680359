package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * iperf3 options {@code stream} does not take as iperf3 means them: iperf3's client options
 * without {@code -c}, options linerate lacks, and two options that set the same thing. Each is bad
 * usage (exit 2) with linerate's way to say it or the reason, never picocli's guess at a similar
 * name. No traffic: each is refused before anything is opened.
 */
class Iperf3OptionRefusalTest {
    private record Run(int exit, String err) {}

    private static Run stream(String... args) {
        StringWriter err = new StringWriter();
        String[] all = Stream.concat(Stream.of("stream"), Stream.of(args)).toArray(String[]::new);
        int code = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), all);
        return new Run(code, err.toString());
    }

    private static void assertNoGuess(Run r) {
        assertThat(r.err()).doesNotContainIgnoringCase("did you mean").doesNotContain("Possible solutions")
                .doesNotContain("Unknown option");
    }

    @Test
    void udpWithoutClientNamesTheProtocolOption() {
        Run r = stream("-u");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("linerate: use --protocol udp; -u has iperf3's meaning only with -c HOST (a client "
                + "of an iperf3 server)" + System.lineSeparator());
    }

    @Test
    void everyIperf3ClientOptionWithoutClientNamesLinerateWay() {
        String[][] cases = {
            {"-t", "10", "use --duration"}, {"-b", "100M", "use --rate"}, {"-l", "1400", "use --payload"},
            {"-i", "1", "use --interval"}, {"-p", "5201", "use --peer HOST:PORT"}, {"-J", null, "use --json"},
            {"-w", "256K", "use --sndbuf and --rcvbuf"}, {"-4", null, "use --family 4"}, {"-6", null, "use --family 6"},
            {"--udp", null, "use --protocol udp"}, {"--time", "10", "use --duration"},
        };
        for (String[] c : cases) {
            Run r = c[1] == null ? stream(c[0]) : stream(c[0], c[1]);
            assertThat(r.exit()).as(c[0]).isEqualTo(2);
            assertThat(r.err()).as(c[0]).startsWith("linerate: " + c[2]).contains("only with -c HOST");
            assertNoGuess(r);
        }
    }

    @Test
    void linerateOwnShortOptionsKeepTheirMeaningWithoutClient() {
        // -R and -P are --reverse and --parallel: without --peer or -c they are refused in linerate's words
        Run r = stream("-R");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--reverse applies to a stream with --peer HOST:PORT only");
    }

    @Test
    void optionsWithALinerateEquivalentNameIt() {
        assertThat(stream("-N").err()).contains("iperf3's -N, --no-delay is linerate's --nodelay");
        assertThat(stream("-k", "100").err()).contains("is linerate's --messages");
        assertThat(stream("-n", "10M").err()).contains("iperf3's -n is linerate's --bytes");
        assertThat(stream("-V").err()).contains("iperf3's -V (verbose) is linerate's --verbose");
        assertThat(stream("-c", "127.0.0.1", "-V").err()).contains("is linerate's --verbose");
        assertThat(stream("-s").err()).contains("`linerate serve --iperf3`");
        assertThat(stream("-S", "0x10").err()).contains("is linerate's --tclass");
        assertThat(stream("-A", "1").err()).contains("iperf3's -A is linerate's --affinity C,S");
        assertThat(stream("-c", "127.0.0.1", "--port", "5202").err())
                .contains("the iperf3 server's port (iperf3's --port) is -p PORT here");
    }

    @Test
    void optionsLinerateLacksSayTheyAreNotSupported() {
        for (String[] args : new String[][] {{"-O", "2"}, {"-T", "x"}, {"-C", "bbr"}, {"-M", "1400"},
            {"--get-server-output"}, {"-c", "127.0.0.1", "-O", "2"}}) {
            Run r = stream(args);
            assertThat(r.exit()).as(args[0]).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", args)).startsWith("linerate: iperf3's ").contains("is not supported");
            assertNoGuess(r);
        }
    }

    @Test
    void iperf3sServerAndNewerClientOptionsGetNoGuessAtASimilarName() {
        // iperf3 3.12's --help and later releases' client options; picocli once answered some with "Possible solutions"
        String[][] cases = {
            {"--bind-dev", "lo"}, {"--json-stream"}, {"--server-bitrate-limit", "1M"}, {"--time-skew-threshold", "5"},
            {"-m"}, {"--mptcp"}, {"-v"}, {"--sctp"}, {"-X", "127.0.0.1"}, {"--nstreams", "2"},
            {"-I", "pid"}, {"--one-off"}, {"--idle-timeout", "5"}, {"--dscp", "46"},
            {"--rsa-private-key-path", "k"}, {"--authorized-users-path", "u"}, {"--use-pkcs1-padding"},
        };
        for (String[] c : cases) {
            Run r = stream(Stream.concat(Stream.of("-c", "127.0.0.1"), Stream.of(c)).toArray(String[]::new));
            assertThat(r.exit()).as(c[0]).isEqualTo(2);
            assertThat(r.err()).as(c[0]).startsWith("linerate: iperf3's ").contains(c[0]);
            assertNoGuess(r);
        }
        assertThat(stream("-c", "127.0.0.1", "--idle-timeout", "5").err()).contains("`linerate serve --iperf3`");
    }

    static Stream<String> everyRefusedName() {
        return Iperf3Unsupported.REFUSALS.stream().flatMap(r -> r.names().stream());
    }

    @ParameterizedTest
    @MethodSource("everyRefusedName")
    void everyRefusedNameIsAnsweredByLinerateNotPicocli(String name) {
        // the stream command alone, as under linerate, so that each case does not build every command
        StringWriter err = new StringWriter();
        CommandLine cl = Linerate.commandLine(new StreamCommand());
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        Run r = new Run(cl.execute("-c", "127.0.0.1", name), err.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("linerate: iperf3's ").contains(name);
        assertNoGuess(r);
    }

    @Test
    void twoOptionsThatSetTheSameThingAreRefused() {
        assertThat(stream("-c", "127.0.0.1", "-t", "2", "--bytes", "1M").err())
                .contains("-t and --bytes both set the test's end (iperf3 takes one of -t, -n, -k): give one of them");
        assertThat(stream("-c", "127.0.0.1", "-b", "1M", "--rate", "2M").err()).contains("-b and --rate both set the rate");
        assertThat(stream("-c", "127.0.0.1", "-4", "-6").err()).contains("-4 and -6 both set the address family");
        assertThat(stream("-c", "127.0.0.1", "--peer", "127.0.0.1:5201").err()).contains("-c and --peer both set the peer");
        assertThat(stream("-c", "127.0.0.1", "-u", "--protocol", "tcp").err())
                .contains("-u and --protocol tcp contradict each other");
    }

    @Test
    void valuesOutsideIperf3sRangesAreRefusedWithTheRange() {
        Run fraction = stream("-c", "127.0.0.1", "-t", "1.5");
        assertThat(fraction.exit()).isEqualTo(2);
        assertThat(fraction.err()).contains("'1.5' is not whole seconds; allowed: 1..86400 (iperf3's -t)")
                .contains("--duration 1500ms");
        assertThat(stream("-c", "127.0.0.1", "-t", "0").err()).contains("0 seconds is out of range; allowed: 1..86400");
        assertThat(stream("-c", "127.0.0.1", "-i", "0.05").err()).contains("allowed: 0 or 0.1..60 (iperf3's -i)");
        assertThat(stream("-c", "127.0.0.1", "-b", "10M/5").err()).contains("iperf3's burst (-b RATE/COUNT) is not supported");
        assertThat(stream("-c", "127.0.0.1", "-P", "0").err()).contains("-P 0 is out of range; allowed: 1..128");
        assertThat(stream("-c", "127.0.0.1", "-p", "70000").err()).contains("-p 70000 is out of range; allowed: 1..65535");
        assertThat(stream("-c", "127.0.0.1", "-l", "2M").err())
                .contains("-l 2097152 is out of range for TCP; allowed: 1..1048576 bytes (iperf3's)");
    }

    @Test
    void aBadValueNamesTheOptionAsTheCommandLineGaveIt() {
        // picocli names an option by its longest name: -b was "--bandwidth", which the user never typed
        assertThat(stream("-c", "127.0.0.1", "-b", "-5M").err())
                .startsWith("linerate: Invalid value for option '-b': rate '-5M' is negative;");
        assertThat(stream("-c", "127.0.0.1", "-t0").err())
                .startsWith("linerate: Invalid value for option '-t': 0 seconds is out of range; allowed: 1..86400");
        assertThat(stream("-c", "127.0.0.1", "--bitrate=x").err()).startsWith("linerate: Invalid value for option '--bitrate':");
        assertThat(stream("-c", "127.0.0.1", "--time", "x").err()).startsWith("linerate: Invalid value for option '--time':");
    }

    @Test
    void theNativeTransportsCallsAreRefusedWithAnIperfServerNamingWhy() {
        // iperf3's own --gsro, -Z and --skip-rx-copy: linerate's end of an iperf server's stream runs on nio
        String[][] cases = {
            {"-c", "198.18.0.2", "-u", "--gsro"}, {"-c", "198.18.0.2", "-Z"}, {"-c", "198.18.0.2", "-R", "--skip-rx-copy"},
            {"--peer", "198.18.0.2:5001", "--peer-protocol", "iperf2", "--protocol", "udp", "--batch", "8"},
        };
        String[] named = {"gso", "zerocopy", "skip-rx-copy", "batch=8"};
        String[] server = {"an iperf3 server", "an iperf3 server", "an iperf3 server", "an iperf 2 server"};
        for (int k = 0; k < cases.length; k++) {
            Run r = stream(cases[k]);
            assertThat(r.exit()).as(named[k]).isEqualTo(2);
            // the iperf peer protocol's own reason, as a library user selecting a transport gets it
            assertThat(r.err()).as(named[k]).startsWith("linerate: no transport can run ").contains("; nio: io " + named[k]
                    + " runs on the native transport's ends only, and with " + server[k] + " this host's end runs on the"
                    + " nio transport: leave --batch, --gso, -Z and --skip-rx-copy out, or run the far end on linerate's"
                    + " agent (serve --transport native);");
        }
    }

}
