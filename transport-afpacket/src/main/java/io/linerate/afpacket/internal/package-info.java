/**
 * Internals of the AF_PACKET transport, not API: the JNI bindings and the loader of the packaged
 * native library, TPACKET ring layouts and status words, the ethtool rxnfc codec and sysfs reads.
 */
package io.linerate.afpacket.internal;
