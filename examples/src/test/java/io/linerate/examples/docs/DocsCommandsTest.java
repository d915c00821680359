package io.linerate.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every {@code linerate} command line in the fenced code blocks of README.md and docs/*.md names a
 * subcommand that exists and only options that subcommand has, by linerate's own picocli model.
 */
class DocsCommandsTest {

    @Test
    void everyDocumentedCommandLineNamesASubcommandAndOptionsThatExist() {
        List<String> problems = new ArrayList<>();
        List<String> subcommands = new ArrayList<>();
        for (Path file : MarkdownFiles.documents()) {
            for (String block : MarkdownFiles.fencedCode(MarkdownFiles.parse(file))) {
                for (LinerateCommandLines.Invocation line : LinerateCommandLines.invocations(block)) {
                    subcommands.add(line.argv().isEmpty() ? "" : line.argv().get(0));
                    for (String problem : LinerateCommandLines.problems(line.argv())) {
                        problems.add(MarkdownFiles.root().relativize(file) + ": " + line.line() + "\n    " + problem);
                    }
                }
            }
        }

        assertThat(subcommands).as("subcommands of the documented command lines")
                .hasSizeGreaterThanOrEqualTo(50)
                .contains("loopback", "stream", "pingpong", "rr", "raw", "search", "serve", "gate", "plot", "stat",
                        "transports");
        assertThat(problems).as("documented command lines that linerate would refuse").isEmpty();
    }

    @Test
    void findsCommandLinesAcrossContinuationsQuotesAndOperators() {
        String text = """
                # a comment: linerate stream --not-read
                ssh host java -jar /opt/linerate.jar stream --peer "$h:7001" \\
                    --secret-file 'my secret' --json > out.json && linerate gate --input out.json
                scp linerate.jar host:
                kubectl -n linerate logs job/linerate-client
                bin/linerate --verbose stat --count 2 # linerate raw --not-read
                """;

        assertThat(LinerateCommandLines.invocations(text)).extracting(LinerateCommandLines.Invocation::argv)
                .containsExactly(
                        List.of("stream", "--peer", "$h:7001", "--secret-file", "my secret", "--json"),
                        List.of("gate", "--input", "out.json"),
                        List.of("--verbose", "stat", "--count", "2"));
    }

    @Test
    void refusesAnUnknownSubcommandOrOptionAndTakesTheRealOnes() {
        assertThat(LinerateCommandLines.problems(List.of("strem", "--duration", "1s")))
                .singleElement().asString().contains("no subcommand 'strem'");
        assertThat(LinerateCommandLines.problems(List.of("stream", "--durration", "1s")))
                .singleElement().asString().contains("has no option --durration");
        assertThat(LinerateCommandLines.problems(List.of("serve", "--iperf3", "--allow-from=198.18.0.0/15", "-x")))
                .singleElement().asString().contains("has no option -x");
        assertThat(LinerateCommandLines.problems(List.of("--verbose", "stream", "--protocol", "udp", "--rate", "1M")))
                .isEmpty();
        assertThat(LinerateCommandLines.problems(List.of("gate", "--plot", "--input", "a.json", "b.json")))
                .isEmpty();
    }
}
