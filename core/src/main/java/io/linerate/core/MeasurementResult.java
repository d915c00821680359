package io.linerate.core;

import io.linerate.core.sink.JsonObject;
import java.util.List;

/**
 * What one run of any {@link Pattern} measured: the contract every result keeps, so that sinks,
 * the regression gate and test assertions take any pattern the same way. The JSON shape of a whole
 * result is {@link io.linerate.core.sink.ResultJson#of}: this contract's fields, with
 * {@link #detailJson()} under {@code "detail"}.
 */
public interface MeasurementResult {

    /** @return what was asked for */
    MeasurementSpec spec();

    /** @return whether the result may be used: {@link #invalidReasons()} is empty */
    default boolean valid() {
        return invalidReasons().isEmpty();
    }

    /** @return why the result must not be used, one sentence each; empty when it is valid */
    List<String> invalidReasons();

    /**
     * @return the result's metrics, as the sinks write them and the gate reads them, named after
     *     the result's marker (such as {@code tcp4_mbps} or {@code tcp_pingpong_p50_ns}), each
     *     stamped with the length of the measured part in seconds
     */
    List<Metric> metrics();

    /** @return the pattern's own fields, as the {@code "detail"} object of the result's JSON */
    JsonObject detailJson();

    /**
     * @return whether the run was stopped before its bound because its thread was interrupted
     *     ({@link Measurement#run()}): the figures cover only what was measured until then, so
     *     the gate takes such a result neither as a run nor as a baseline. The default is false.
     */
    default boolean interrupted() {
        return false;
    }
}
