package io.linerate.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * IP fragmentation counters of the network namespace this JVM runs in, from
 * {@code /proc/net/snmp} (IPv4 {@code Ip: FragCreates, ReasmOKs}) and {@code /proc/net/snmp6}
 * ({@code Ip6FragCreates, Ip6ReasmOKs}), as the kernel's SNMP MIB (RFC 4293) names them.
 *
 * @param fragmentsCreated fragments the stack created
 * @param reassembled datagrams the stack reassembled
 */
public record FragmentCounters(long fragmentsCreated, long reassembled) {
    private static final Logger LOG = LoggerFactory.getLogger(FragmentCounters.class);

    /** @return the IPv4 counters, or empty where /proc/net/snmp cannot be read (not Linux) */
    public static Optional<FragmentCounters> ipv4() {
        try {
            return Optional.of(parseSnmp(Files.readAllLines(Path.of("/proc/net/snmp"))));
        } catch (IOException | RuntimeException e) {
            LOG.debug("no IPv4 fragment counters: {}", e.toString());
            return Optional.empty();
        }
    }

    /** @return the IPv6 counters, or empty where /proc/net/snmp6 cannot be read */
    public static Optional<FragmentCounters> ipv6() {
        try {
            return Optional.of(parseSnmp6(Files.readAllLines(Path.of("/proc/net/snmp6"))));
        } catch (IOException | RuntimeException e) {
            LOG.debug("no IPv6 fragment counters: {}", e.toString());
            return Optional.empty();
        }
    }

    /**
     * @param lines /proc/net/snmp: a header line of names and a line of values per protocol
     * @throws IllegalArgumentException if the Ip lines or the two fields are missing
     */
    static FragmentCounters parseSnmp(List<String> lines) {
        String[] names = null;
        for (String line : lines) {
            if (!line.startsWith("Ip: ")) {
                continue;
            }
            String[] f = line.substring(4).trim().split("\\s+");
            if (names == null) {
                names = f;
            } else {
                return new FragmentCounters(field(names, f, "FragCreates"), field(names, f, "ReasmOKs"));
            }
        }
        throw new IllegalArgumentException("no Ip: header and value lines in /proc/net/snmp");
    }

    /** @param lines /proc/net/snmp6: one {@code name value} pair per line */
    static FragmentCounters parseSnmp6(List<String> lines) {
        long created = -1;
        long reasm = -1;
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].equals("Ip6FragCreates")) {
                created = Long.parseLong(f[1]);
            } else if (f.length == 2 && f[0].equals("Ip6ReasmOKs")) {
                reasm = Long.parseLong(f[1]);
            }
        }
        if (created < 0 || reasm < 0) {
            throw new IllegalArgumentException("no Ip6FragCreates/Ip6ReasmOKs in /proc/net/snmp6");
        }
        return new FragmentCounters(created, reasm);
    }

    private static long field(String[] names, String[] values, String name) {
        for (int i = 0; i < names.length && i < values.length; i++) {
            if (names[i].equals(name)) {
                return Long.parseLong(values[i]);
            }
        }
        throw new IllegalArgumentException("no " + name + " field in the Ip: lines of /proc/net/snmp");
    }
}
