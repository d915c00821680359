/**
 * Private Linux network namespaces that live no longer than the JVM that made them, even one killed
 * with SIGKILL ({@link io.linerate.netns.NetworkNamespace}), and the commands run inside them
 * ({@link io.linerate.netns.NamespaceProcess}): what {@code loopback --netns} runs the suite in, and
 * what the two-host test fixture is made of.
 */
package io.linerate.netns;
