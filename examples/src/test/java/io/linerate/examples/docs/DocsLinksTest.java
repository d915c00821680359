package io.linerate.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/** Every relative link of README.md and docs/*.md leads to a file that exists, and its anchor to a heading. */
class DocsLinksTest {

    @Test
    void everyRelativeLinkResolvesToAFileAndEveryAnchorToAHeading() {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : MarkdownFiles.documents()) {
            for (String destination : MarkdownFiles.linkDestinations(MarkdownFiles.parse(file))) {
                if (destination.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue; // https:, mailto: and other absolute addresses
                }
                checked++;
                String problem = problem(file, destination);
                if (problem != null) {
                    broken.add(MarkdownFiles.root().relativize(file) + ": (" + destination + ") " + problem);
                }
            }
        }
        assertThat(checked).as("relative links checked").isGreaterThanOrEqualTo(30);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void everyPageUnderDocsIsLinkedFromTheReadme() {
        Path root = MarkdownFiles.root();
        List<Path> linked = MarkdownFiles.linkDestinations(MarkdownFiles.parse(root.resolve("README.md"))).stream()
                .map(d -> d.contains("#") ? d.substring(0, d.indexOf('#')) : d)
                .filter(d -> !d.isEmpty() && !d.contains(":"))
                .map(d -> root.resolve(d).normalize())
                .toList();
        List<Path> pages = MarkdownFiles.documents().stream()
                .filter(p -> p.getParent().getFileName().toString().equals("docs"))
                .toList();

        assertThat(pages).as("pages under docs/").hasSizeGreaterThanOrEqualTo(14);
        assertThat(linked).as("pages the README links to").containsAll(pages);
    }

    @Test
    void slugsFollowGitHubsRule() {
        assertThat(MarkdownFiles.slug("Full log: --full-log FILE")).isEqualTo("full-log---full-log-file");
        assertThat(MarkdownFiles.slug("Exit codes, errors and --verbose")).isEqualTo("exit-codes-errors-and---verbose");
        assertThat(MarkdownFiles.slug("Raw Ethernet frames (AF_PACKET)")).isEqualTo("raw-ethernet-frames-af_packet");
        assertThat(MarkdownFiles.slug("Between two hosts: search --peer HOST:PORT"))
                .isEqualTo("between-two-hosts-search---peer-hostport");
    }

    @Test
    void headingAnchorsTakeTheTextOfCodeSpansAndNumberRepeats() {
        Node document = Parser.builder().build().parse(
                "# Live counters: `linerate stat`\n\n## Runs\n\ntext with `# not a heading`\n\n## Runs\n");

        assertThat(MarkdownFiles.headingAnchors(document))
                .containsExactly("live-counters-linerate-stat", "runs", "runs-1");
    }

    private static String problem(Path file, String destination) {
        int hash = destination.indexOf('#');
        String path = hash < 0 ? destination : destination.substring(0, hash);
        String anchor = hash < 0 ? "" : destination.substring(hash + 1);
        Path target = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        if (!Files.exists(target)) {
            return "no such file: " + MarkdownFiles.root().relativize(target);
        }
        if (anchor.isEmpty()) {
            return null;
        }
        if (!target.getFileName().toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        Set<String> anchors = MarkdownFiles.headingAnchors(MarkdownFiles.parse(target));
        return anchors.contains(anchor) ? null : "no heading with anchor #" + anchor + "; there are " + anchors;
    }
}
