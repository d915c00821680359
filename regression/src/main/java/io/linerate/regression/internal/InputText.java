package io.linerate.regression.internal;

/**
 * The text of an input as every reader sees it. Each reader ({@link LogReader}, {@link Iperf3Reader},
 * {@link TwisterReader}, {@link LinerateJsonReader}, the baseline and the policy file) passes its
 * content through {@link #withoutBom} first, so that a byte-order mark, which Windows editors and
 * PowerShell write before UTF-8 text, neither hides the first line of a log nor makes a JSON
 * document unreadable.
 */
public final class InputText {
    /** The byte-order mark, U+FEFF, as the UTF-8 decoder leaves it at the start of the text. */
    public static final char BOM = '\uFEFF';

    private InputText() {}

    /**
     * @param content an input's whole text, decoded from UTF-8
     * @return {@code content} without one leading byte-order mark; {@code content} itself when it
     *     has none
     */
    public static String withoutBom(String content) {
        return !content.isEmpty() && content.charAt(0) == BOM ? content.substring(1) : content;
    }
}
