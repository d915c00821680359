package io.linerate.afpacket;

/**
 * The interface has no ntuple (Flow Director) rule table: the driver answered EOPNOTSUPP, as veth
 * does. The message names the interface and its driver (from ETHTOOL_GDRVINFO).
 */
public final class SteeringUnsupportedException extends AfPacketException {
    private static final long serialVersionUID = 1L;
    private final String driver;

    /**
     * @param interfaceName the interface
     * @param call the ethtool command that was refused
     * @param errno the errno (EOPNOTSUPP)
     * @param driver the driver's name, or a description of why it is unknown
     */
    public SteeringUnsupportedException(String interfaceName, String call, int errno, String driver) {
        super(interfaceName, call, errno, "interface " + interfaceName + " (driver " + driver
                + ") has no ntuple flow steering rules; run without steering", true);
        this.driver = driver;
    }

    /** @return the driver's name as ETHTOOL_GDRVINFO reports it */
    public String driver() {
        return driver;
    }
}
