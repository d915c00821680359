package io.linerate.examples.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * iperf3 client and server options that {@code linerate stream} does not take, each refused with
 * linerate's way to say it or with the reason it is not supported, never with picocli's guess at
 * a similar option name. A picocli model transformer: it adds every one to the command as a
 * hidden option, so that picocli matches it instead of calling it unknown; {@link #refuse} then
 * turns it into bad usage. Names follow iperf3 3.12's {@code iperf3 --help} (server options too, which
 * point at {@code linerate serve --iperf3}) and a few client options of later releases
 * ({@code --json-stream}, {@code --mptcp}); a name that linerate itself has ({@code --format},
 * {@code --interval}, {@code --port}, {@code --bytes}, {@code --verbose}, {@code --affinity}, and {@code -Z},
 * {@code --skip-rx-copy} and {@code --gsro}, {@link StreamIoOptions}) keeps linerate's meaning and is
 * not listed.
 */
final class Iperf3Unsupported implements CommandLine.IModelTransformer {
    /**
     * @param names the option's names in iperf3
     * @param takesValue whether iperf3's option takes a value (picocli then takes one if given)
     * @param why what follows the names in the message: the linerate way, or why it is not supported
     */
    record Refusal(List<String> names, boolean takesValue, String why) {}

    /** Why an option of iperf3's server alone is refused. */
    private static final String SERVER_ONLY = "is an option of iperf3's server, not of its client: linerate's server is "
            + "`linerate serve --iperf3` (see `linerate serve --help`)";

    /** Every refused option; first name first in messages. */
    static final List<Refusal> REFUSALS = List.of(
            new Refusal(List.of("-O", "--omit"), true, "is not supported against an iperf3 server (linerate asks it to "
                    + "omit nothing); linerate's own ends leave --warmup out of the measurement"),
            new Refusal(List.of("-T", "--title"), true, "is not supported: linerate's results name the test's "
                    + "protocol and peer"),
            new Refusal(List.of("-C", "--congestion"), true, "is not supported: the JDK cannot set TCP_CONGESTION; "
                    + "set the host's net.ipv4.tcp_congestion_control"),
            new Refusal(List.of("-M", "--set-mss"), true, "is not supported: the JDK cannot set TCP_MAXSEG"),
            new Refusal(List.of("-N", "--no-delay"), false, "is linerate's --nodelay: give that"),
            new Refusal(List.of("-k", "--blockcount"), true, "is linerate's --messages N (writes or datagrams, decimal "
                    + "k/m/g): give that"),
            new Refusal(List.of("-n"), true, "is linerate's --bytes N (1024-based K/M/G, as iperf3's): give that"),
            new Refusal(List.of("-A"), true, "is linerate's --affinity C,S (the client's CPU and the server's, as "
                    + "iperf3's, such as 1,0): give that"),
            new Refusal(List.of("-V"), false, "(verbose) is linerate's --verbose: give that"),
            new Refusal(List.of("-d", "--debug"), false, "is linerate's --verbose: give that"),
            new Refusal(List.of("--get-server-output"), false, "is not supported: linerate prints what the server "
                    + "counted, from iperf3's results exchange, as its remote lines"),
            new Refusal(List.of("-s", "--server"), false, "is `linerate serve --iperf3` (port 5201 unless --port): "
                    + "run that"),
            new Refusal(List.of("-D", "--daemon"), false, "is not supported: `linerate serve --iperf3` runs in the "
                    + "foreground"),
            new Refusal(List.of("-S", "--tos"), true, "is linerate's --tclass (IP_TOS / IPv6 traffic class, such as "
                    + "0x10): give that"),
            new Refusal(List.of("-B", "--bind"), true, "is not supported: the kernel picks the source address by the "
                    + "route to the server"),
            new Refusal(List.of("--cport"), true, "is not supported: the kernel picks the client's ports"),
            new Refusal(List.of("-f"), true, "is not supported: linerate reports bytes and Mbit/s; --json gives every "
                    + "count"),
            new Refusal(List.of("-F", "--file"), true, "is not supported: linerate sends its own payload"),
            new Refusal(List.of("-L", "--flowlabel"), true, "is not supported"),
            new Refusal(List.of("--logfile"), true, "is not supported: redirect linerate's output"),
            new Refusal(List.of("--connect-timeout", "--rcv-timeout", "--snd-timeout"), true,
                    "is linerate's --io-timeout (every connect, read and write): give that"),
            new Refusal(List.of("--fq-rate"), true, "is not supported: linerate paces each stream itself (-b with -c, "
                    + "else --rate)"),
            new Refusal(List.of("--dont-fragment"), false, "is not supported"),
            new Refusal(List.of("--forceflush"), false, "is not needed: linerate flushes every line"),
            new Refusal(List.of("--timestamps"), true, "is not supported"),
            new Refusal(List.of("--repeating-payload", "--extra-data"), true, "is not supported: linerate sends its "
                    + "own payload"),
            new Refusal(List.of("--username", "--rsa-public-key-path"), true, "is not supported: linerate's iperf3 "
                    + "client does not authenticate"),
            new Refusal(List.of("-v"), false, "(version) is linerate's --version: give that"),
            new Refusal(List.of("--dscp"), true, "is linerate's --tclass (the DSCP is its upper 6 bits, such as "
                    + "0xb8 for EF): give that"),
            new Refusal(List.of("--json-stream"), false, "is not supported: -J gives linerate's result JSON at the end"),
            new Refusal(List.of("--sctp"), false, "is not supported: linerate runs TCP and UDP (--protocol tcp|udp)"),
            new Refusal(List.of("-X", "--xbind"), true, "is not supported: linerate runs no SCTP"),
            new Refusal(List.of("--nstreams"), true, "is not supported: linerate runs no SCTP"),
            new Refusal(List.of("--bind-dev"), true, "is not supported: the kernel picks the device by the route to "
                    + "the server"),
            new Refusal(List.of("-m", "--mptcp"), false, "is not supported: the JDK cannot open MPTCP sockets"),
            new Refusal(List.of("-I", "--pidfile"), true, SERVER_ONLY),
            new Refusal(List.of("--one-off"), false, SERVER_ONLY),
            new Refusal(List.of("--server-bitrate-limit"), true, SERVER_ONLY),
            new Refusal(List.of("--idle-timeout"), true, SERVER_ONLY),
            new Refusal(List.of("--rsa-private-key-path", "--authorized-users-path", "--time-skew-threshold"), true,
                    SERVER_ONLY),
            new Refusal(List.of("--use-pkcs1-padding"), false, SERVER_ONLY));

    @Override
    public CommandSpec transform(CommandSpec spec) {
        for (Refusal r : REFUSALS) {
            spec.addOption(OptionSpec.builder(r.names().toArray(String[]::new))
                    .type(r.takesValue() ? String.class : boolean.class)
                    .arity(r.takesValue() ? "0..1" : "0")
                    .hidden(true)
                    .build());
        }
        return spec;
    }

    /**
     * @param parsed the command line as parsed
     * @throws IllegalArgumentException naming the first refused option given, with the linerate way
     *     or the reason it is not supported
     */
    static void refuse(ParseResult parsed) {
        for (Refusal r : REFUSALS) {
            if (parsed.hasMatchedOption(r.names().get(0))) {
                throw new IllegalArgumentException("iperf3's " + String.join(", ", r.names()) + " " + r.why());
            }
        }
    }
}
