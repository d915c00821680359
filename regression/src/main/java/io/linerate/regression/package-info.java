/**
 * Regression gating: reading metrics from logs and result files, ktap-style policies, baselines, the
 * gate that compares a run with its baseline and gives per-series verdicts, reports (KTAP, JSON,
 * Markdown, SVG), and an AssertJ-style API for JUnit 5 tests: {@link io.linerate.regression.MetricAssertions}
 * (baseline gating and absolute bounds) and the {@link io.linerate.regression.LinerateBaseline} extension.
 */
package io.linerate.regression;
