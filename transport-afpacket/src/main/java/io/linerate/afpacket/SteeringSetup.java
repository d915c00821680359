package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.core.TransferException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Flow Director rules of a raw run: one per stream, steering stream i to RX queue i mod the
 * interface's RX rings, or none. Closing removes the rules; a rule that cannot be removed is an
 * error that says so (the others are still removed).
 */
final class SteeringSetup implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SteeringSetup.class);

    private final FlowSteering steering;
    private final RawSteering report;

    private SteeringSetup(FlowSteering steering, RawSteering report) {
        this.steering = steering;
        this.report = report;
    }

    /**
     * Installs the rules {@code spec} asks for on its RX interface.
     *
     * @param ethtool where requests go; null for the kernel
     * @throws SteeringUnsupportedException if the interface has no rule table and the spec does
     *     not allow running unsteered
     * @throws AfPacketException if a rule cannot be installed; none stays installed
     */
    static SteeringSetup install(RawTransferSpec spec, EthtoolIoctl ethtool) throws AfPacketException {
        if (!spec.steer()) {
            return new SteeringSetup(null, RawSteering.notRequested());
        }
        String rx = spec.rxInterface().orElseThrow();
        try {
            Ethtool et = new Ethtool(rx, ethtool != null ? ethtool : EthtoolIoctl.system());
            long rings = et.rxRings();
            List<FlowSteering.Request> req = new ArrayList<>();
            for (int i = 0; i < spec.etherTypes().size(); i++) {
                req.add(FlowSteering.Request.of(spec.etherTypes().get(i), i % rings));
            }
            FlowSteering steering = FlowSteering.install(et, req);
            List<FlowSteering.Installed> rules = steering.installed();
            LOG.debug("installed flow steering rules on {}: {}", rx, rules);
            return new SteeringSetup(steering, new RawSteering(true, rules.size() + " rules installed on " + rx, rules));
        } catch (SteeringUnsupportedException e) {
            if (!spec.allowUnsteered()) {
                throw e;
            }
            LOG.info("running unsteered, as allowed: {}", e.getMessage());
            return new SteeringSetup(null, new RawSteering(false, "not steered: " + e.getMessage(), List.of()));
        }
    }

    /** @return what happened */
    RawSteering report() {
        return report;
    }

    /** @return the RX queue of stream {@code i}, or -1 when not steered */
    long queue(int i) {
        return report.steered() ? report.rules().get(i).queue() : -1;
    }

    /** Removes the rules. @throws TransferException naming the first rule that could not be removed */
    @Override
    public void close() throws TransferException {
        if (steering == null) {
            return;
        }
        try {
            steering.close();
            LOG.debug("removed the flow steering rules {}", report.rules());
        } catch (AfPacketException e) {
            throw new TransferException("could not remove flow steering rules: " + e.getMessage(), e);
        }
    }
}
