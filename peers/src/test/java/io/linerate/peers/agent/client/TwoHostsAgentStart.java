package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.netns.NamespaceProcess;
import io.linerate.testsupport.TwoHosts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Starts linerate's agent ({@link TwoHostsAgentPeer}) in host B of a test's {@link TwoHosts}. */
final class TwoHostsAgentStart {
    private TwoHostsAgentStart() {
    }

    /**
     * Starts an agent in host B on {@code bind} (not loopback: it requires the secret), waits at
     * most 60 s for its first line, and returns its control port; its output is drained from then on.
     */
    static int startAgent(TwoHosts h, String bind, Path secret) throws Exception {
        NamespaceProcess agent = h.startAgent(TwoHosts.javaCommand(TwoHostsAgentPeer.class.getName(),
                List.of("serve", bind, secret.toString())));
        drain(agent.process().getErrorStream());
        BufferedReader out = new BufferedReader(new InputStreamReader(agent.process().getInputStream(), StandardCharsets.UTF_8));
        String listening = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(60, TimeUnit.SECONDS);
        assertThat(listening).as("the agent's first line").startsWith("listening ");
        drain(agent.process().getInputStream());
        return Integer.parseInt(listening.substring("listening ".length()));
    }

    /** Reads a pipe to its end on a daemon thread, so the child never blocks on a full pipe. */
    private static void drain(InputStream in) {
        Thread t = new Thread(() -> {
            try {
                in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException ignored) {
                // the child ended
            }
        }, "drain");
        t.setDaemon(true);
        t.start();
    }
}
