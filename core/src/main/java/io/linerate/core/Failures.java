package io.linerate.core;

/** Text for an exception in a message built around it. */
public final class Failures {
    private Failures() {
    }

    /**
     * @param e any throwable
     * @return its message, or, when it has none (a {@code NullPointerException}, some socket
     *     errors), its class and whatever {@link Throwable#toString()} says, never "null"
     */
    public static String describe(Throwable e) {
        if (e == null) {
            return "unknown failure";
        }
        String m = e.getMessage();
        if (m != null && !m.isBlank()) {
            return m;
        }
        Throwable cause = e.getCause();
        if (cause != null && cause != e && cause.getMessage() != null && !cause.getMessage().isBlank()) {
            return e.getClass().getSimpleName() + ": " + cause.getMessage();
        }
        return e.getClass().getName();
    }
}
