package io.linerate.netns;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes named namespaces that an earlier linerate left in {@code /var/run/netns}: releases before
 * {@link NetworkNamespace} held its namespaces by process named them {@code linerate-<pid>}, and one
 * killed with SIGKILL left that name behind for good. A name is stale when it has that prefix and
 * its owner, the pid, no longer runs.
 */
final class StaleNamespaces {
    /** {@code linerate-<pid>}, optionally followed by {@code -<anything>}. */
    static final Pattern NAME = Pattern.compile("linerate-([0-9]{1,10})(-.*)?");
    private static final AtomicBoolean DONE = new AtomicBoolean();
    private static final Logger LOG = LoggerFactory.getLogger(StaleNamespaces.class);

    private StaleNamespaces() {}

    /** Removes stale names once per JVM; failures are logged, never thrown. */
    static void removeOnce() {
        if (DONE.compareAndSet(false, true)) {
            remove();
        }
    }

    /** Removes stale names now; failures are logged, never thrown. */
    static void remove() {
        try {
            for (String name : NetworkNamespace.list()) {
                if (isStale(name)) {
                    Commands.Outcome o = Commands.run(List.of(NetworkNamespace.tool("ip"), "netns", "del", name),
                            NetworkNamespace.COMMAND_TIMEOUT);
                    LOG.info("removed stale network namespace {}{}", name,
                            o.exitCode() == 0 ? "" : ": failed, " + o.stderr().strip());
                }
            }
        } catch (IOException e) {
            LOG.debug("could not look for stale network namespaces: {}", e.getMessage());
        }
    }

    /** @return whether {@code name} is linerate's and its owner pid no longer runs */
    static boolean isStale(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty();
    }
}
