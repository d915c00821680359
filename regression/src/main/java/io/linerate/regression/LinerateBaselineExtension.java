package io.linerate.regression;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Resolves a {@link TestBaseline} parameter of a test method from the {@link LinerateBaseline}
 * annotation on the method, its class or an enclosing class. Registered by {@link LinerateBaseline};
 * {@code @ExtendWith(LinerateBaselineExtension.class)} alone gives no baseline to gate against.
 */
public final class LinerateBaselineExtension implements ParameterResolver {

    /** Creates the extension; JUnit does, for {@link LinerateBaseline}. */
    public LinerateBaselineExtension() {}

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestBaseline.class;
    }

    /**
     * @return the test's baseline, publishing through the test's report entries
     * @throws ParameterResolutionException when no {@link LinerateBaseline} names a baseline for the test
     */
    @Override
    public TestBaseline resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        Class<?> testClass = context.getRequiredTestClass();
        String resource = find(method, testClass).map(LinerateBaseline::value).orElseThrow(() ->
                new ParameterResolutionException("test " + testClass.getSimpleName() + "#" + method.getName()
                        + " takes a TestBaseline but names no baseline; annotate the method or its class with"
                        + " @LinerateBaseline(\"baselines/<name>.json\")"));
        return new TestBaseline(resource, selector(testClass, method), context::publishReportEntry);
    }

    private static Optional<LinerateBaseline> find(Method method, Class<?> testClass) {
        Optional<LinerateBaseline> found = AnnotationSupport.findAnnotation(method, LinerateBaseline.class);
        for (Class<?> c = testClass; found.isEmpty() && c != null; c = c.getEnclosingClass()) {
            found = AnnotationSupport.findAnnotation(c, LinerateBaseline.class);
        }
        return found;
    }

    /** @return Surefire's {@code -Dtest} value for the test: {@code Class#method}, the top-level class for a nested one */
    private static String selector(Class<?> testClass, Method method) {
        Class<?> top = testClass;
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        return top.getSimpleName() + (top == testClass ? "#" + method.getName() : "");
    }
}
