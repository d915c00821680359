/**
 * Internals of the AF_PACKET transport, not API: the JNI bindings of its packaged native library
 * (loaded through {@code io.linerate.jni.NativeLibrary}), TPACKET ring layouts and status words,
 * the ethtool rxnfc codec and sysfs reads.
 */
package io.linerate.afpacket.internal;
