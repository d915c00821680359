package io.linerate.examples.cli;

/**
 * A command whose progress line says what it is doing beyond its live counters: which run of a
 * series, which trial of a search, which size of a sweep. {@link LiveSession} draws the line of
 * such a command when stderr is a terminal.
 */
interface ReportsProgress {
    /** @return the command's view now; {@link ProgressView#COUNTERS} until it knows more. Any thread. */
    ProgressView progressView();
}
