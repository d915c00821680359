package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServiceDemandTest {

    @Test
    void microsecondsPerKibibyte() {
        // 1 ms of CPU = 1000 us over 2048 B = 2 KiB: 500 us/KiB
        assertThat(ServiceDemand.usPerKiB(1_000_000, 2048)).hasValue(500.0);
        // 3 us over 1 B = 1/1024 KiB: 3072 us/KiB
        assertThat(ServiceDemand.usPerKiB(3_000, 1)).hasValue(3072.0);
    }

    @Test
    void unknownOrZeroCpuTimeAndNoBytesGiveNoFigureNeverZero() {
        assertThat(ServiceDemand.usPerKiB(-1, 2048)).isEmpty();
        assertThat(ServiceDemand.usPerKiB(0, 2048)).isEmpty();
        assertThat(ServiceDemand.usPerKiB(1_000_000, 0)).isEmpty();
    }

    @Test
    void eachEndIsChargedForItsOwnBytesAndTheThreadsForTheBytesThatArrived() {
        TransferResult r = TransferResult.builder(TransferSpec.builder().build())
                .bytesSent(4096).bytesReceived(2048)
                .options(new AppliedOptions(0x20, 0x20, 0, 0, 0, 0, false, false))
                .senderCpuNanos(2_000_000).receiverCpuNanos(1_000_000).processCpuNanos(8_000_000).build();

        ServiceDemand d = r.serviceDemand();
        // sender: 2000 us over 4 KiB sent = 500; receiver: 1000 us over 2 KiB received = 500;
        // threads: 3000 us over 2 KiB received = 1500; process: 8000 us over 2 KiB = 4000
        assertThat(d.senderUsPerKiB()).hasValue(500.0);
        assertThat(d.receiverUsPerKiB()).hasValue(500.0);
        assertThat(d.threadsUsPerKiB()).hasValue(1500.0);
        assertThat(d.processUsPerKiB()).hasValue(4000.0);
        assertThat(d.basis()).startsWith("thread CPU time of each end; both ends run in this process");
    }
}
