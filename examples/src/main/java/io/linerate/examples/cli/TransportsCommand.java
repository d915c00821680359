package io.linerate.examples.cli;

import io.linerate.core.Transports;
import io.linerate.core.spi.Transport;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code linerate transports}: lists the transports found on the class path, whether each can run
 * on this host and why not, and every provider that failed to load. Exit 0 when every provider
 * loaded, 1 when one did not.
 */
@Command(name = "transports", mixinStandardHelpOptions = true,
        description = "List the transports found on the class path, whether each is available here and why not.")
final class TransportsCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        PrintWriter out = command.commandLine().getOut();
        Transports.Discovery d = Transports.discover();
        for (Transport t : d.transports()) {
            out.println(t.name() + "\t" + t.unavailabilityCause().map(c -> "unavailable: " + c).orElse("available"));
        }
        for (String problem : d.problems()) {
            out.println("# failed to load: " + problem);
        }
        return d.problems().isEmpty() ? Linerate.OK : Linerate.FAILED;
    }
}
