package io.linerate.jni;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks that the sizes and offsets of C structures a module's Java code reads and writes (in
 * bytes) agree with those its C code is compiled with, from the build host's headers (the kernel's
 * {@code <linux/*.h>}, the C library's). The module lists its {@link Field}s and has one JNI
 * function that writes the same values, with {@code sizeof} and {@code offsetof}, in the same
 * order, through {@code linerate_layout_write} of {@code linerate_jni.h}; a test asserts that
 * {@link #mismatches} is empty. Each module keeps its own structures.
 */
public final class LayoutCheck {
    /** Most values one check reads. */
    public static final int MAX_FIELDS = 1024;

    private LayoutCheck() {}

    /**
     * One checked value.
     *
     * @param name what it is, as C writes it, such as {@code offsetof(tpacket3_hdr, tp_mac)}
     * @param javaValue the constant the Java side uses, in bytes
     */
    public record Field(String name, int javaValue) {}

    /** A module's JNI function that writes its values. */
    @FunctionalInterface
    public interface NativeValues {
        /**
         * @param out a direct buffer in native byte order to write 32-bit ints to, from its start
         * @param capacity how many ints {@code out} holds
         * @return how many values were written, or {@code -errno} ({@code -ENOSPC} when
         *     {@code capacity} does not suffice)
         */
        int write(ByteBuffer out, int capacity);
    }

    /**
     * @param fields the module's fields, 1..{@value #MAX_FIELDS}
     * @param values the module's JNI function (its library loaded)
     * @return the values compiled from the headers, in the order of {@code fields}
     * @throws IllegalArgumentException if {@code fields} is empty or longer than {@value #MAX_FIELDS}
     * @throws IllegalStateException if the native side lists a different number of values, or fails
     */
    public static List<Integer> fromNative(List<Field> fields, NativeValues values) {
        if (fields.isEmpty() || fields.size() > MAX_FIELDS) {
            throw new IllegalArgumentException("a layout check lists " + fields.size() + " fields; allowed: 1.." + MAX_FIELDS);
        }
        int capacity = fields.size() + 64;
        ByteBuffer buf = ByteBuffer.allocateDirect(4 * capacity).order(ByteOrder.nativeOrder());
        int n = values.write(buf, capacity);
        if (n < 0) {
            throw new IllegalStateException("the native layout function failed: " + Errno.describe(n));
        }
        if (n != fields.size()) {
            throw new IllegalStateException("native layout lists " + n + " values; Java lists " + fields.size());
        }
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(buf.getInt(4 * i));
        }
        return out;
    }

    /**
     * @param fields the module's fields
     * @param nativeValues what {@link #fromNative} read, in the same order
     * @return {@code NAME: headers say N, Java uses M} for every value where they disagree; empty
     *     when all agree
     * @throws IllegalArgumentException if the two lists differ in length
     */
    public static List<String> mismatches(List<Field> fields, List<Integer> nativeValues) {
        if (fields.size() != nativeValues.size()) {
            throw new IllegalArgumentException("native layout lists " + nativeValues.size() + " values; Java lists " + fields.size());
        }
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            if (f.javaValue() != nativeValues.get(i)) {
                bad.add(f.name() + ": headers say " + nativeValues.get(i) + ", Java uses " + f.javaValue());
            }
        }
        return bad;
    }
}
