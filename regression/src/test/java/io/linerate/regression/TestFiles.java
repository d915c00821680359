package io.linerate.regression;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

final class TestFiles {
    private TestFiles() {}

    static String resource(String name) {
        try (InputStream in = TestFiles.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MetricSet read(String name) {
        return MetricReaders.read(name, resource("inputs/" + name));
    }
}
