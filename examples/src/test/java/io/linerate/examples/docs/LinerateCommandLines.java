package io.linerate.examples.docs;

import io.linerate.examples.cli.Linerate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code linerate} command lines written in shell text (a fenced code block, a container's script), and
 * their check against the command line's own picocli model: the subcommand exists, and so does every option
 * it is given. Values are not checked: the text may hold shell variables where values go.
 */
final class LinerateCommandLines {
    private static final String SHELL_OPERATORS = "|&;<>";
    /** linerate's command line, read only: its model is the reference for every check. */
    private static final CommandLine ROOT = new CommandLine(new Linerate());
    /** Words after which the next word is a command: {@code sudo linerate ...}, {@code then linerate ...}. */
    private static final Set<String> COMMAND_PREFIXES = Set.of("sudo", "exec", "time", "nohup", "then", "do",
            "else");

    /** One command line: the line it was found on, and the arguments after {@code linerate}. */
    record Invocation(String line, List<String> argv) {
    }

    private LinerateCommandLines() {
    }

    /**
     * Finds every command line that runs linerate: a word {@code linerate} (or a path ending in
     * {@code /linerate}) where a command starts (first on the line, after a shell operator, or after
     * {@code sudo}, {@code exec}, {@code time}, {@code nohup}, {@code then}, {@code do}, {@code else}), or
     * {@code -jar linerate.jar} (or a path ending in {@code /linerate.jar}). A line
     * ending in a backslash goes on on the next one; a word starting with {@code #} starts a comment; the
     * arguments end at a shell operator ({@code | & ; < >}) or the end of the line.
     *
     * @param shellText the text, lines separated by {@code \n}
     * @return the command lines in order of appearance
     */
    static List<Invocation> invocations(String shellText) {
        List<Invocation> found = new ArrayList<>();
        for (String line : shellText.replace("\\\n", " ").split("\n")) {
            List<String> words = words(line);
            for (int i = 0; i < words.size(); i++) {
                if (startsLinerate(words, i)) {
                    int end = i + 1;
                    while (end < words.size() && !isOperator(words.get(end))) {
                        end++;
                    }
                    found.add(new Invocation(line.strip(), List.copyOf(words.subList(i + 1, end))));
                    i = end;
                }
            }
        }
        return found;
    }

    /**
     * Checks one command line against linerate's picocli model: options before the subcommand against the
     * top-level command's, then the subcommand's name, then each of its long ({@code --x}, {@code --x=v})
     * and short ({@code -x}) options; the word after an option that takes a value is that value.
     *
     * @param argv the arguments after {@code linerate}
     * @return one message per problem; empty when the line is valid
     */
    static List<String> problems(List<String> argv) {
        CommandLine root = ROOT;
        List<String> problems = new ArrayList<>();
        if (argv.isEmpty()) {
            problems.add("no subcommand or option after linerate");
            return problems;
        }
        int i = checkOptions(root.getCommandSpec(), argv, 0, true, problems);
        if (i < argv.size()) {
            CommandLine sub = root.getSubcommands().get(argv.get(i));
            if (sub == null) {
                problems.add("no subcommand '" + argv.get(i) + "'; there are " + root.getSubcommands().keySet());
            } else {
                checkOptions(sub.getCommandSpec(), argv, i + 1, false, problems);
            }
        }
        return problems;
    }

    private static int checkOptions(CommandSpec spec, List<String> argv, int from, boolean stopAtWord,
            List<String> problems) {
        int i = from;
        while (i < argv.size()) {
            String word = argv.get(i);
            if (word.equals("--")) {
                return argv.size();
            }
            if (!isOption(word)) {
                if (stopAtWord) {
                    return i;
                }
                i++;
                continue;
            }
            String name = word.startsWith("--") && word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
            OptionSpec option = spec.findOption(name);
            if (option == null) {
                problems.add("'" + spec.qualifiedName() + "' has no option " + name);
            } else if (!word.contains("=") && option.arity().min() > 0) {
                i++;
            }
            i++;
        }
        return i;
    }

    private static boolean isOption(String word) {
        if (word.startsWith("--")) {
            return word.length() > 2 && Character.isLetter(word.charAt(2));
        }
        return word.length() > 1 && word.charAt(0) == '-' && Character.isLetter(word.charAt(1));
    }

    private static boolean startsLinerate(List<String> words, int i) {
        String word = words.get(i);
        if (word.equals("linerate") || word.endsWith("/linerate")) {
            return i == 0 || COMMAND_PREFIXES.contains(words.get(i - 1)) || isOperator(words.get(i - 1));
        }
        return (word.equals("linerate.jar") || word.endsWith("/linerate.jar")) && i > 0
                && words.get(i - 1).equals("-jar");
    }

    private static boolean isOperator(String word) {
        return !word.isEmpty() && SHELL_OPERATORS.indexOf(word.charAt(0)) >= 0 && word.chars()
                .allMatch(c -> SHELL_OPERATORS.indexOf(c) >= 0);
    }

    /**
     * Splits one line into shell words: quotes (single, double) are removed and hold their text together,
     * a backslash outside single quotes takes the next character literally, a run of operator characters
     * is a word of its own, and an unquoted {@code #} that starts a word ends the line.
     */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c) || SHELL_OPERATORS.indexOf(c) >= 0) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                if (SHELL_OPERATORS.indexOf(c) >= 0) {
                    int end = i;
                    while (end < line.length() && SHELL_OPERATORS.indexOf(line.charAt(end)) >= 0) {
                        end++;
                    }
                    words.add(line.substring(i, end));
                    i = end - 1;
                }
            } else if (c == '#' && !inWord) {
                break;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
