package io.linerate.examples.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;

/**
 * The project's Markdown documentation (README.md and docs/*.md) as commonmark trees: its links, the
 * anchors its headings get on GitHub, and its fenced code blocks.
 */
final class MarkdownFiles {
    private static final Parser PARSER = Parser.builder().build();

    private MarkdownFiles() {
    }

    /**
     * @return the repository's root: the nearest directory at or above the working directory that holds
     *     both README.md and docs/
     * @throws IllegalStateException when there is none
     */
    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no directory with README.md and docs/ at or above "
                + Path.of("").toAbsolutePath());
    }

    /** @return README.md, then every docs/*.md in name order */
    static List<Path> documents() {
        Path root = root();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /** @return the commonmark tree of {@code file}, read as UTF-8 */
    static Node parse(Path file) {
        try {
            return PARSER.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the destination of every inline or reference link of {@code document}, in order */
    static List<String> linkDestinations(Node document) {
        List<String> destinations = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                destinations.add(link.getDestination());
                visitChildren(link);
            }
        });
        return destinations;
    }

    /** @return the literal text of every fenced code block of {@code document}, in order */
    static List<String> fencedCode(Node document) {
        List<String> blocks = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(FencedCodeBlock block) {
                blocks.add(block.getLiteral());
            }
        });
        return blocks;
    }

    /**
     * @return the anchor of every heading of {@code document} as GitHub makes it: {@link #slug} of its text,
     *     and a repeated slug suffixed {@code -1}, {@code -2}, ...
     */
    static Set<String> headingAnchors(Node document) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                String slug = slug(headingText(heading));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        });
        return anchors;
    }

    /**
     * GitHub's heading anchor: lower case, every character dropped that is not a letter, a digit, {@code _},
     * {@code -} or a space, then each space turned into {@code -}.
     *
     * @return the anchor of a heading whose plain text is {@code headingText}
     */
    static String slug(String headingText) {
        StringBuilder slug = new StringBuilder();
        headingText.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    private static String headingText(Heading heading) {
        StringBuilder text = new StringBuilder();
        heading.accept(new AbstractVisitor() {
            @Override
            public void visit(Text node) {
                text.append(node.getLiteral());
            }

            @Override
            public void visit(Code node) {
                text.append(node.getLiteral());
            }
        });
        return text.toString();
    }
}
