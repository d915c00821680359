package io.linerate.regression;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Names the baseline a JUnit 5 test is gated against, and gives the test a {@link TestBaseline}
 * parameter that gates results against it ({@link LinerateBaselineExtension}, registered by this
 * annotation):
 * <pre>{@code
 * @Test
 * @LinerateBaseline("baselines/paced-tcp4.json")
 * void throughputHeld(TestBaseline baseline) throws Exception {
 *     TransferResult result = ...;
 *     baseline.gate(MetricAssertions.assertThat(result).withTolerancePercent(20));
 * }
 * }</pre>
 * On a test method it beats one on the test's class, which beats one on an enclosing class
 * ({@code @Nested} tests).
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(LinerateBaselineExtension.class)
public @interface LinerateBaseline {
    /** @return class-path name of the baseline file ({@link Baseline}), such as {@code baselines/paced-tcp4.json} */
    String value();
}
