package io.linerate.examples.cli;

import io.linerate.core.AddressFamily;
import io.linerate.core.Endpoint;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The address family of a run against a peer: an address literal in {@code --peer} says it, so
 * {@code --family} is needed only for a host name (default IPv4).
 */
final class PeerFamily {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private PeerFamily() {}

    /**
     * @param family {@code --family} as given, or null when it was not given
     * @param peer {@code --peer} as given, or null
     * @return the family: the given one, else the peer literal's, else IPv4
     * @throws IllegalArgumentException naming both when the given family contradicts the literal
     */
    static AddressFamily of(String family, String peer) {
        Optional<AddressFamily> literal = peer == null ? Optional.empty() : literal(Endpoint.parse(peer));
        if (family == null) {
            return literal.orElse(AddressFamily.IPV4);
        }
        AddressFamily given = AddressFamily.parse(family);
        if (literal.isPresent() && literal.get() != given) {
            throw new IllegalArgumentException("--family " + family + " contradicts --peer " + peer + ", an IPv"
                    + literal.get().label() + " address; give --family " + literal.get().label() + " or leave it out");
        }
        return given;
    }

    /** @return the family of an address literal; empty for a host name */
    static Optional<AddressFamily> literal(Endpoint endpoint) {
        if (!(endpoint instanceof Endpoint.Remote r)) {
            return Optional.empty();
        }
        if (r.host().indexOf(':') >= 0) {
            return Optional.of(AddressFamily.IPV6);
        }
        return IPV4.matcher(r.host()).matches() ? Optional.of(AddressFamily.IPV4) : Optional.empty();
    }
}
