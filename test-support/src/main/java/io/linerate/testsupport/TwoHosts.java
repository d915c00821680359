package io.linerate.testsupport;

import io.linerate.netns.NamespaceProcess;
import io.linerate.netns.NetworkNamespace;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two hosts for tests: two {@link NetworkNamespace}s joined by a veth pair. Host A's end is
 * {@value #INTERFACE_A} with {@value #IPV4_A}/{@value #IPV4_PREFIX} and {@value #IPV6_A}/{@value #IPV6_PREFIX},
 * host B's is {@value #INTERFACE_B} with {@value #IPV4_B} and {@value #IPV6_B} (RFC 2544's benchmarking
 * range 198.18.0.0/15 and RFC 5180's 2001:2::/48; IPv6 without duplicate address detection, so the
 * addresses work at once). Both ends get the MTU of {@link TwoHostsOptions} and, when it asks,
 * a tbf qdisc on their egress; both ends and each host's loopback are up.
 *
 * <p>Like its namespaces, nothing of it outlives this JVM, even one killed with SIGKILL: the
 * interfaces go with the namespaces. {@link #close()} stops what was started in the hosts and
 * removes both namespaces. Needs root; {@link #unavailableReason(TwoHostsOptions)} says why it
 * cannot be made.
 */
public final class TwoHosts implements AutoCloseable {
    /** Host A's veth end. */
    public static final String INTERFACE_A = "lr-a";
    /** Host B's veth end. */
    public static final String INTERFACE_B = "lr-b";
    /** Host A's IPv4 address. */
    public static final String IPV4_A = "198.18.0.1";
    /** Host B's IPv4 address. */
    public static final String IPV4_B = "198.18.0.2";
    /** Prefix length of the IPv4 addresses. */
    public static final int IPV4_PREFIX = 24;
    /** Host A's IPv6 address. */
    public static final String IPV6_A = "2001:2::1";
    /** Host B's IPv6 address. */
    public static final String IPV6_B = "2001:2::2";
    /** Prefix length of the IPv6 addresses. */
    public static final int IPV6_PREFIX = 64;
    /** Loopback MTU of each host: the kernel's default for {@code lo}. */
    static final int LOOPBACK_MTU = 65536;

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Logger LOG = LoggerFactory.getLogger(TwoHosts.class);

    /**
     * One of the two hosts.
     *
     * @param name the namespace's label, {@code linerate-<pid>-<n>-a} or {@code -b}
     * @param namespace its network namespace
     * @param interfaceName its veth end
     * @param ipv4 its IPv4 address on the veth
     * @param ipv6 its IPv6 address on the veth
     */
    public record Host(String name, NetworkNamespace namespace, String interfaceName, InetAddress ipv4, InetAddress ipv6) {}

    private final TwoHostsOptions options;
    private final Host a;
    private final Host b;
    private final List<NamespaceProcess> started = new ArrayList<>();
    private boolean closed;

    private TwoHosts(TwoHostsOptions options, Host a, Host b) {
        this.options = options;
        this.a = a;
        this.b = b;
    }

    /**
     * @param options the link wanted
     * @return why two hosts cannot be made here (see {@link NetworkNamespace#unavailableReason()},
     *     and {@code tc} for shaping), or empty when they can
     */
    public static Optional<String> unavailableReason(TwoHostsOptions options) {
        Optional<String> why = NetworkNamespace.unavailableReason();
        if (why.isEmpty() && options.shaping().isPresent() && NetworkNamespace.tool("tc").equals("tc")) {
            return Optional.of("the tc command (Debian package iproute2) is not installed");
        }
        return why;
    }

    /**
     * Makes the two hosts and their link.
     *
     * @param options MTU and shaping of the link
     * @return the hosts; close them to remove them
     * @throws IOException if they cannot be made (the message says why); nothing is left behind then
     */
    public static TwoHosts create(TwoHostsOptions options) throws IOException {
        Optional<String> why = unavailableReason(options);
        if (why.isPresent()) {
            throw new IOException("cannot make two hosts: " + why.get());
        }
        String prefix = "linerate-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet() + "-";
        List<NetworkNamespace> made = new ArrayList<>();
        try {
            NetworkNamespace nsA = NetworkNamespace.create(prefix + "a", LOOPBACK_MTU);
            made.add(nsA);
            NetworkNamespace nsB = NetworkNamespace.create(prefix + "b", LOOPBACK_MTU);
            made.add(nsB);
            // made inside A with its peer inside B, so neither end ever appears on this host
            nsA.check(List.of(ip(), "link", "add", INTERFACE_A, "type", "veth", "peer", "name", INTERFACE_B,
                    "netns", nsB.path().toString()));
            Host a = configure(nsA, INTERFACE_A, IPV4_A, IPV6_A, options);
            Host b = configure(nsB, INTERFACE_B, IPV4_B, IPV6_B, options);
            LOG.debug("made two hosts {} and {} (MTU {}, shaping {})", a.name(), b.name(), options.mtu(),
                    options.shaping().map(Object::toString).orElse("none"));
            return new TwoHosts(options, a, b);
        } catch (IOException | RuntimeException e) {
            for (NetworkNamespace ns : made) {
                ns.close();
            }
            throw e;
        }
    }

    private static Host configure(NetworkNamespace ns, String dev, String ipv4, String ipv6, TwoHostsOptions options)
            throws IOException {
        ns.check(List.of(ip(), "link", "set", dev, "mtu", Integer.toString(options.mtu()), "up"));
        ns.check(List.of(ip(), "-4", "addr", "add", ipv4 + "/" + IPV4_PREFIX, "dev", dev));
        ns.check(List.of(ip(), "-6", "addr", "add", ipv6 + "/" + IPV6_PREFIX, "dev", dev, "nodad"));
        if (options.shaping().isPresent()) {
            TwoHostsOptions.Tbf tbf = options.shaping().get();
            ns.check(List.of(NetworkNamespace.tool("tc"), "qdisc", "add", "dev", dev, "root", "tbf",
                    "rate", tbf.rateBitsPerSecond() + "bit", "burst", Integer.toString(tbf.burstBytes()),
                    "limit", Integer.toString(tbf.limitBytes())));
        }
        return new Host(ns.name(), ns, dev, address(ipv4), address(ipv6));
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal); // a literal: no name lookup
        } catch (UnknownHostException e) {
            throw new IllegalStateException(literal + " is not an address literal", e);
        }
    }

    private static String ip() {
        return NetworkNamespace.tool("ip");
    }

    /** @return host A */
    public Host a() {
        return a;
    }

    /** @return host B, where {@link #startAgent} starts the agent */
    public Host b() {
        return b;
    }

    /** @return the options the link was made with */
    public TwoHostsOptions options() {
        return options;
    }

    /**
     * Runs a command inside a host and collects its output.
     *
     * @param host {@link #a()} or {@link #b()}
     * @param command program and arguments
     * @param timeout bound on the run; the command is killed past it
     * @return exit code and output
     * @throws IOException if it cannot start, runs past the bound or the hosts are closed
     */
    public NetworkNamespace.Result exec(Host host, List<String> command, Duration timeout) throws IOException {
        return host.namespace().run(command, timeout);
    }

    /**
     * Starts a command inside a host; {@link #close()} stops it (SIGTERM, then SIGKILL), or it
     * can be closed earlier.
     *
     * @param host {@link #a()} or {@link #b()}
     * @param command program and arguments
     * @return the running command with its pipes
     * @throws IOException if it cannot start or the hosts are closed
     */
    public synchronized NamespaceProcess start(Host host, List<String> command) throws IOException {
        if (closed) {
            throw new IOException("two hosts " + a.name() + " and " + b.name() + " are closed");
        }
        NamespaceProcess p = host.namespace().start(command);
        started.add(p);
        return p;
    }

    /**
     * Starts an agent, a server for the other host's measurements, inside host B.
     *
     * @param command the agent's command line, such as {@link #javaCommand} of its main class
     * @return the running agent; {@link #close()} stops it
     * @throws IOException if it cannot start or the hosts are closed
     */
    public NamespaceProcess startAgent(List<String> command) throws IOException {
        return start(b, command);
    }

    /**
     * @param mainClass fully qualified name of a class with a {@code main} method
     * @param args its arguments
     * @return a command line that runs {@code mainClass} in a new JVM with this JVM's {@code java}
     *     and class path, for {@link #exec} or {@link #start}
     */
    public static List<String> javaCommand(String mainClass, List<String> args) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> out = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), mainClass));
        out.addAll(args);
        return out;
    }

    /**
     * Stops every command started through {@link #start} and removes both hosts with their link.
     * Idempotent; never throws.
     */
    @Override
    public void close() {
        List<NamespaceProcess> toStop;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toStop = List.copyOf(started);
        }
        for (NamespaceProcess p : toStop) {
            p.close();
        }
        b.namespace().close();
        a.namespace().close();
        LOG.debug("removed two hosts {} and {}", a.name(), b.name());
    }
}
