/**
 * Raw Ethernet frames through Linux AF_PACKET, Flow Director (ethtool ntuple) rules, and interface
 * counters.
 *
 * <ul>
 *   <li>{@link io.linerate.afpacket.AfPacketTransport}: the {@link io.linerate.core.spi.Transport} of
 *       raw frames, registered as {@code afpacket}; it opens a {@link io.linerate.afpacket.RawMeasurement}
 *       and says why it cannot run here (not Linux, no CAP_NET_RAW, no native library).</li>
 *   <li>{@link io.linerate.afpacket.AfPacket}: whether AF_PACKET can be used here, and why not.</li>
 *   <li>{@link io.linerate.afpacket.RawTransfer} runs a {@link io.linerate.core.RawTransferSpec}
 *       between two interfaces (the two ends of a cable or a veth pair), or at one end only, and
 *       returns a {@link io.linerate.afpacket.RawResult}: per-stream frames and bytes of each end,
 *       loss (sent minus distinct received) when both ends ran, reordering, duplicates, L2 rates
 *       with the frame size beside them, kernel drops, CPU time, interface counters over the run
 *       and validity with reasons; {@link io.linerate.afpacket.RawMetrics} and
 *       {@link io.linerate.afpacket.RawResultJson} give its metrics and its JSON.</li>
 *   <li>{@link io.linerate.afpacket.FlowSteering} installs ethertype rules with ethtool's location
 *       rules through {@link io.linerate.afpacket.Ethtool} and removes them again;
 *       {@link io.linerate.afpacket.EthtoolIoctl} is the one seam to the kernel, so a software rule
 *       table can stand in for a NIC.</li>
 *   <li>{@link io.linerate.afpacket.NicCounters} turns {@code /sys/class/net/IF/statistics} into
 *       forward-only 64-bit totals (the smallest motion the readings allow; glitches, resets and
 *       possible 32-bit wraps, bounded by the link speed, reported) with readings stamped right after they were read.</li>
 * </ul>
 *
 * The native library ({@code META-INF/native/linux-x86_64/liblinerate-afpacket.so}) is built from
 * {@code src/main/c} by the Maven build, on the shared native layer ({@code linerate-native}:
 * {@code linerate_jni.h}, the loader, {@code -errno} and layout checks), and loaded on first use.
 */
package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;
