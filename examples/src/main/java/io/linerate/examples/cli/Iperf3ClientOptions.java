package io.linerate.examples.cli;

import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.iperf3.Iperf3Options;
import java.math.BigDecimal;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * iperf3's client options for {@code stream -c HOST}, with iperf3 3.12's meanings and defaults
 * ({@code iperf3(1)}); a picocli mixin. {@code -c HOST} is {@code --peer HOST:5201 --peer-protocol
 * iperf3}, and {@link #applyTo} writes every other one into the long option it stands for, so that
 * the stream runs on the same spec the long options produce, on the same road
 * ({@link io.linerate.core.Iperf3Peer}). {@code -P}, {@code -R} and {@code --bidir} are {@link PeerOptions}'
 * own, with iperf3's meanings already. Without {@code -c} each one here is refused with the long
 * option that says it in linerate's words.
 */
final class Iperf3ClientOptions {
    @Option(names = {"-c", "--client"}, paramLabel = "HOST",
            description = "Run as iperf3's client (`iperf3 -c HOST`) against the iperf3 server on HOST: the same as --peer "
                    + "HOST:5201 --peer-protocol iperf3, with iperf3's meanings and defaults for -t -u -b -l -i -p -J -w "
                    + "-4 -6 (and -P -R --bidir), and IP_TOS 0 unless --tclass.")
    String host;

    @Option(names = {"-t", "--time"}, paramLabel = "SECONDS", converter = Iperf3Converters.WholeSeconds.class,
            description = "With -c: test length in whole seconds, 1..86400 (iperf3's -t; default 10).")
    Duration time;

    @Option(names = {"-u", "--udp"}, description = "With -c: UDP (iperf3's -u), at 1 Mbit/s (1048576 bit/s, iperf3's "
            + "default) per stream unless -b or --rate.")
    boolean udp;

    @Option(names = {"-b", "--bitrate", "--bandwidth"}, paramLabel = "BIT/S", converter = Iperf3Converters.BitsPerSecond.class,
            description = "With -c: target rate PER STREAM in bits/s, decimal K/M/G (iperf3's -b; default UDP 1048576, "
                    + "TCP 0 = unlimited); --rate is the whole test's.")
    Long bitrate;

    @Option(names = {"-l", "--length"}, paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "With -c: bytes per write or datagram, 1024-based K/M (iperf3's -l; default TCP 128K, UDP the "
                    + "path's TCP MSS, else 1460).")
    Integer length;

    @Option(names = "-i", paramLabel = "SECONDS", converter = Iperf3Converters.IntervalSeconds.class,
            description = "With -c: interval in seconds, 0 or 0.1..60 (iperf3's -i); the interval lines count "
                    + "linerate's own sends or receives, the server's counts come in the summary; 0 keeps linerate's 1 s.")
    Duration interval;

    @Option(names = "-p", paramLabel = "PORT", description = "With -c: the iperf3 server's port, 1..65535 (iperf3's -p; "
            + "default 5201).")
    Integer port;

    @Option(names = "-J", description = "With -c: JSON output (linerate's result JSON, as --json; not iperf3's layout).")
    boolean json;

    @Option(names = {"-w", "--window"}, paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "With -c: SO_SNDBUF and SO_RCVBUF at both ends, 1024-based K/M (iperf3's -w).")
    Integer window;

    @Option(names = {"-4", "--version4"}, description = "With -c: IPv4 only (iperf3's -4).")
    boolean ipv4;

    @Option(names = {"-6", "--version6"}, description = "With -c: IPv6 only (iperf3's -6).")
    boolean ipv6;

    /** Each option here (first name) and the long option that says it in linerate's words. */
    private static final Map<String, String> LINERATE_WAY = linerateWay();

    private static Map<String, String> linerateWay() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("-t", "--duration, such as --duration 10s");
        m.put("-u", "--protocol udp");
        m.put("-b", "--rate (the whole test's bits/s)");
        m.put("-l", "--payload");
        m.put("-i", "--interval, such as --interval 1s");
        m.put("-p", "--peer HOST:PORT");
        m.put("-J", "--json");
        m.put("-w", "--sndbuf and --rcvbuf");
        m.put("-4", "--family 4");
        m.put("-6", "--family 6");
        return m;
    }

    /**
     * @param mine an option here (first name)
     * @param theirs the options that set what it sets, so that both on one command line are refused
     * @param what what that is, for the message
     */
    private record Overlap(String mine, List<String> theirs, String what) {}

    private static final List<Overlap> OVERLAPS = List.of(
            new Overlap("-c", List.of("--peer", "--peer-protocol"), "the peer"),
            new Overlap("-t", List.of("--duration", "--bytes", "--messages"), "the test's end (iperf3 takes one of -t, -n, -k)"),
            new Overlap("-b", List.of("--rate"), "the rate"),
            new Overlap("-l", List.of("--payload"), "the bytes per write or datagram"),
            new Overlap("-i", List.of("--interval"), "the interval"),
            new Overlap("-J", List.of("--format", "--ktap"), "the output format"),
            new Overlap("-w", List.of("--sndbuf", "--rcvbuf"), "the socket buffers"),
            new Overlap("-4", List.of("-6", "--family"), "the address family"),
            new Overlap("-6", List.of("--family"), "the address family"));

    /** How the UDP length was found when -l was not given, for the header; null otherwise. */
    private String lengthSource;

    /** @return whether {@code -c HOST} was given */
    boolean given() {
        return host != null;
    }

    /**
     * Without {@code -c}: refuses every option here.
     *
     * @throws IllegalArgumentException naming the first one given and linerate's way to say it
     */
    static void refuseWithoutHost(ParseResult parsed) {
        for (Map.Entry<String, String> e : LINERATE_WAY.entrySet()) {
            if (parsed.hasMatchedOption(e.getKey())) {
                throw new IllegalArgumentException("use " + e.getValue() + "; " + e.getKey()
                        + " has iperf3's meaning only with -c HOST (a client of an iperf3 server)");
            }
        }
    }

    /**
     * Writes {@code -c HOST} and every option here into the long options of {@code stream} it
     * stands for, with iperf3's defaults where it has its own: port 5201, UDP at 1048576 bits/s
     * per stream, UDP length the path's MSS ({@link Iperf3Defaults#udpLength}), IP_TOS 0.
     * {@code -b} is per stream, so {@code --rate} becomes {@code -b × -P}.
     *
     * @param c the command, parsed
     * @param parsed its parse result
     * @throws IllegalArgumentException naming an option that says again what another given one
     *     says, or a value out of iperf3's range
     */
    void applyTo(StreamCommand c, ParseResult parsed) {
        for (Overlap o : OVERLAPS) {
            for (String theirs : o.theirs()) {
                if (parsed.hasMatchedOption(o.mine()) && parsed.hasMatchedOption(theirs)) {
                    throw new IllegalArgumentException(o.mine() + " and " + theirs + " both set " + o.what()
                            + ": give one of them");
                }
            }
        }
        if (parsed.hasMatchedOption("--port")) {
            throw new IllegalArgumentException("--port is linerate's receiver port of a stream whose both ends run in this "
                    + "JVM; the iperf3 server's port (iperf3's --port) is -p PORT here");
        }
        int p = port == null ? Iperf3Defaults.PORT : port;
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException("-p " + p + " is out of range; allowed: 1..65535");
        }
        int streams = c.peer.parallel;
        if (streams < 1 || streams > Iperf3Options.MAX_PARALLEL) {
            throw new IllegalArgumentException("-P " + streams + " is out of range; allowed: 1.." + Iperf3Options.MAX_PARALLEL);
        }
        if (udp && parsed.hasMatchedOption("--protocol") && !"udp".equalsIgnoreCase(c.protocol)) {
            throw new IllegalArgumentException("-u and --protocol " + c.protocol + " contradict each other: give one of them");
        }
        checkHost();
        Optional<InetAddress> server = resolve();
        c.peer.protocol = PeerOptions.IPERF3;
        c.peer.peer = server.map(a -> a instanceof Inet6Address ? "[" + literal(a) + "]" : literal(a)).orElse(host) + ":" + p;
        if (server.isEmpty() && (ipv4 || ipv6)) {
            c.family = ipv4 ? "4" : "6";
        }
        c.protocol = udp ? "udp" : c.protocol;
        boolean isUdp = Protocol.parse(c.protocol) == Protocol.UDP;
        c.bound.duration = time != null ? time : c.bound.duration;
        c.transfer.trafficClass = parsed.hasMatchedOption("--tclass") ? c.transfer.trafficClass : Iperf3Defaults.TRAFFIC_CLASS;
        Long perStream = bitrate != null ? bitrate
                : isUdp && !parsed.hasMatchedOption("--rate") ? Iperf3Defaults.UDP_RATE_BITS_PER_SECOND : null;
        if (perStream != null) {
            c.transfer.rate = wholeTest(perStream, streams);
        }
        if (window != null) {
            c.sendBuffer = window;
            c.receiveBuffer = window;
        }
        c.transfer.interval = interval != null && !interval.isZero() ? interval : c.transfer.interval;
        c.transfer.output.json |= json;
        if (length != null && !isUdp && (length < 1 || length > Iperf3Defaults.MAX_TCP_LENGTH)) {
            throw new IllegalArgumentException("-l " + length + " is out of range for TCP; allowed: 1.."
                    + Iperf3Defaults.MAX_TCP_LENGTH + " bytes (iperf3's)");
        }
        if (length != null || !isUdp || c.payload != null) {
            c.payload = length != null ? length : c.payload;
            return;
        }
        Iperf3Defaults.Length l = Iperf3Defaults.udpLength(server, p);
        c.payload = l.bytes();
        lengthSource = "-l " + l.bytes() + ": " + l.source();
    }

    private static long wholeTest(long perStream, int streams) {
        try {
            return Math.multiplyExact(perStream, streams);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("-b " + perStream + " per stream x -P " + streams + " overflows; allowed: "
                    + "up to " + Long.MAX_VALUE / streams + " bits/s per stream");
        }
    }

    /**
     * @throws IllegalArgumentException for an empty {@code -c HOST}, which the JDK would resolve to
     *     loopback, or one that carries a port, such as {@code 192.0.2.1:5201} or {@code [::1]:5201}
     */
    private void checkHost() {
        if (host.isBlank()) {
            throw new IllegalArgumentException("-c '" + host + "' names no host; allowed: a host name, an IPv4 address "
                    + "or an IPv6 address, such as -c 192.0.2.1");
        }
        int colons = host.length() - host.replace(":", "").length();
        int close = host.lastIndexOf(']');
        String port = colons == 1 ? host.substring(host.indexOf(':') + 1)
                : host.startsWith("[") && close > 0 && host.startsWith(":", close + 1) ? host.substring(close + 2) : null;
        if (port != null) {
            String bare = host.substring(0, host.length() - port.length() - 1);
            throw new IllegalArgumentException("-c " + host + " carries a port; allowed: the host alone, with the port "
                    + "in -p (1..65535), such as -c " + bare + " -p " + (port.isEmpty() ? Iperf3Defaults.PORT : port));
        }
    }

    /**
     * @return the first address of {@code -c HOST} of the family -4 or -6 asks for (any without);
     *     empty when the name does not resolve (the iperf3 client road then says so)
     * @throws IllegalArgumentException when the host has no address of the family asked for, or
     *     when it has a colon but is no IPv6 address the JDK can use
     */
    private Optional<InetAddress> resolve() {
        InetAddress[] all;
        try {
            all = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            if (host.indexOf(':') >= 0) {
                throw new IllegalArgumentException("-c " + host + " is not an IPv6 address the JDK can use (" + e.getMessage()
                        + "); allowed: a host name, an IPv4 address or an IPv6 address, such as -c ::1 or -c fe80::1%eth0");
            }
            return Optional.empty();
        }
        Optional<InetAddress> a = Arrays.stream(all)
                .filter(x -> !(ipv4 || ipv6) || (x instanceof Inet6Address) == ipv6).findFirst();
        if (a.isEmpty()) {
            throw new IllegalArgumentException("-c " + host + " has no IPv" + (ipv4 ? "4" : "6") + " address; leave -"
                    + (ipv4 ? "4" : "6") + " out or give a host that has one");
        }
        return a;
    }

    /**
     * @return {@code -c HOST} as typed (without brackets) when it is this address's literal, else the
     *     address; an IPv4-mapped IPv6 literal ({@code ::ffff:192.0.2.1}) is the IPv4 address the JDK makes of it
     */
    private String literal(InetAddress a) {
        boolean typedLiteral = (a instanceof Inet6Address && host.indexOf(':') >= 0) || host.equals(a.getHostAddress());
        return typedLiteral ? host.replaceAll("^\\[(.*)]$", "$1") : a.getHostAddress();
    }

    /**
     * @param spec the spec the run goes with
     * @param peer the peer options the run goes with
     * @return the header lines of a text run: the iperf3 options that give this spec, defaults filled
     *     in, such as {@code # iperf3 client options: -c 127.0.0.1 -p 5201 -t 10 -u -b 1048576 -l 1460
     *     -P 1 -4 (iperf3's meanings)}, then notes on a default UDP length and on -i
     */
    List<String> header(TransferSpec spec, PeerOptions peer) {
        List<String> o = new ArrayList<>(List.of("-c", host, "-p", Integer.toString(port == null ? Iperf3Defaults.PORT : port)));
        Bound b = spec.bound();
        switch (b.kind()) {
            case DURATION -> o.addAll(b.amount() % 1_000_000_000L == 0
                    ? List.of("-t", Long.toString(b.amount() / 1_000_000_000L))
                    : List.of("--duration", b.amount() / 1_000_000 + "ms"));
            case BYTES -> o.addAll(List.of("-n", Long.toString(b.amount())));
            case MESSAGES -> o.addAll(List.of("-k", Long.toString(b.amount())));
        }
        if (spec.protocol() == Protocol.UDP) {
            o.add("-u");
        }
        long rate = spec.rateBitsPerSecond();
        // what linerate's iperf3 client asks the server for: the whole test's rate over the streams
        o.addAll(List.of("-b", Long.toString(rate == 0 ? 0 : Math.max(1, rate / peer.parallel)),
                "-l", Integer.toString(spec.payloadBytes()), "-P", Integer.toString(peer.parallel)));
        if (peer.reverse || peer.bidir) {
            o.add(peer.reverse ? "-R" : "--bidir");
        }
        if (spec.sendBufferBytes() > 0 && spec.sendBufferBytes() == spec.receiveBufferBytes()) {
            o.addAll(List.of("-w", Integer.toString(spec.sendBufferBytes())));
        }
        o.add("-" + spec.family().label());
        if (interval != null) {
            o.addAll(List.of("-i", new BigDecimal(interval.toNanos()).movePointLeft(9).stripTrailingZeros().toPlainString()));
        }
        List<String> lines = new ArrayList<>(List.of("# iperf3 client options: " + String.join(" ", o) + " (iperf3's meanings)"));
        if (lengthSource != null) {
            lines.add("# " + lengthSource);
        }
        if (interval != null) {
            lines.add(interval.isZero()
                    ? "# note: -i 0: linerate still prints interval lines, every 1 s (its default)"
                    : "# note: -i: interval lines count linerate's own sends or receives; the server's counts are in the summary");
        }
        return lines;
    }
}
