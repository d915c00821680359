package io.linerate.nio.internal;

import java.io.IOException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.util.Locale;

/**
 * Reads SO_SNDBUF / SO_RCVBUF back as the kernel applied them. Linux stores twice the requested
 * size (capped at {@code net.core.wmem_max} / {@code rmem_max}, socket(7)) and getsockopt returns
 * that; the JDK halves the value on Linux to keep its API symmetric, so the kernel's figure is twice
 * what the JDK reports.
 */
public final class SocketBuffers {
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");

    private SocketBuffers() {}

    /** @return the buffer size in bytes as the kernel holds it */
    public static int applied(NetworkChannel ch, SocketOption<Integer> option) throws IOException {
        int jdk = ch.getOption(option);
        return LINUX ? 2 * jdk : jdk;
    }

    public static int send(NetworkChannel ch) throws IOException {
        return applied(ch, StandardSocketOptions.SO_SNDBUF);
    }

    public static int receive(NetworkChannel ch) throws IOException {
        return applied(ch, StandardSocketOptions.SO_RCVBUF);
    }
}
