package io.linerate.core.spi.cost;

/** A per-thread event a {@link CpuCounterProvider} can count (linux/perf_event.h names them). */
public enum CpuEvent {
    /** Instructions retired, user and kernel: PERF_COUNT_HW_INSTRUCTIONS, a hardware counter. */
    INSTRUCTIONS("instructions"),
    /** Time the thread ran, ns: PERF_COUNT_SW_TASK_CLOCK, a software event every Linux kernel has. */
    TASK_CLOCK("task-clock");

    private final String label;

    CpuEvent(String label) {
        this.label = label;
    }

    /** @return the name perf(1) gives the event */
    public String label() {
        return label;
    }
}
