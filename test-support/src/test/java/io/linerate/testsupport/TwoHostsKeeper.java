package io.linerate.testsupport;

import io.linerate.netns.NamespaceProcess;
import java.io.IOException;
import java.util.List;

/**
 * Makes two hosts (MTU 1400, tbf), starts {@code sleep 600} in host B as its agent, prints
 * {@code ready INODE_A INODE_B AGENT_PID} and waits for end of file on standard input; run in a JVM
 * of its own by {@link TwoHostsTest}, which kills it with SIGKILL.
 */
public final class TwoHostsKeeper {
    private TwoHostsKeeper() {}

    public static void main(String[] args) throws IOException {
        try (TwoHosts hosts = TwoHosts.create(TwoHostsOptions.builder().mtu(1400).tbf(100_000_000L, 16_000, 64_000).build())) {
            NamespaceProcess agent = hosts.startAgent(List.of("sleep", "600"));
            System.out.println("ready " + hosts.a().namespace().inode() + " " + hosts.b().namespace().inode()
                    + " " + agent.pid());
            System.out.flush();
            System.in.readAllBytes();
        }
    }
}
