package io.linerate.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * One end of a TCP connection for {@link TwoHostsTest}, run in a JVM of its own inside a host:
 * {@code sink ADDRESS} listens on an ephemeral port, prints {@code listening PORT}, takes one
 * connection, reads to its end and prints {@code received N}; {@code source ADDRESS PORT N} connects,
 * writes N bytes, reads until the sink closes and prints {@code sent N}.
 */
public final class TcpPeer {
    private TcpPeer() {}

    public static void main(String[] args) throws IOException {
        if (args[0].equals("sink")) {
            try (ServerSocket server = new ServerSocket()) {
                server.bind(new InetSocketAddress(InetAddress.getByName(args[1]), 0));
                System.out.println("listening " + server.getLocalPort());
                System.out.flush();
                try (Socket s = server.accept(); InputStream in = s.getInputStream()) {
                    byte[] buf = new byte[65536];
                    long received = 0;
                    for (int n; (n = in.read(buf)) >= 0; ) {
                        received += n;
                    }
                    System.out.println("received " + received);
                }
            }
        } else {
            long total = Long.parseLong(args[3]);
            try (Socket s = new Socket(InetAddress.getByName(args[1]), Integer.parseInt(args[2]))) {
                OutputStream out = s.getOutputStream();
                byte[] buf = new byte[65536];
                long sent = 0;
                while (sent < total) {
                    int n = (int) Math.min(buf.length, total - sent);
                    out.write(buf, 0, n);
                    sent += n;
                }
                s.shutdownOutput();
                s.getInputStream().readAllBytes(); // until the sink has read everything and closed
                System.out.println("sent " + sent);
            }
        }
    }
}
