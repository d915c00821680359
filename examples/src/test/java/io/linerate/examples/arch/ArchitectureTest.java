package io.linerate.examples.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The modules' layering and the packages docs/api.md lists: core and netns depend on no other
 * module, the shared native layer, the regression module and the peers on core alone (the peers run
 * on the ends a transport offers through core's SPI, and a transport knows the peers only through
 * it), the transports on core and the native layer, the loopback suite on core and netns,
 * test-support on netns, nothing
 * on the command line; a module's
 * {@code internal} packages are its own; the command line imports only the API and SPI packages;
 * and every library package is listed as one or the other, or is internal.
 */
class ArchitectureTest {
    private static final String CORE = "io.linerate.core..";
    private static final String NIO = "io.linerate.nio..";
    private static final String PEERS = "io.linerate.peers..";
    private static final String AFPACKET = "io.linerate.afpacket..";
    private static final String JNI = "io.linerate.jni..";
    private static final String SOCKET = "io.linerate.socket..";
    private static final String REGRESSION = "io.linerate.regression..";
    private static final String EXAMPLES = "io.linerate.examples..";
    private static final String TESTSUPPORT = "io.linerate.testsupport..";
    private static final String NETNS = "io.linerate.netns..";
    private static final String SUITE = "io.linerate.suite..";
    private static final Pattern LISTED = Pattern.compile("`(io\\.linerate(?:\\.[a-z0-9]+)+)`");

    private static JavaClasses linerate;
    private static Set<String> api;
    private static Set<String> spi;

    @BeforeAll
    static void importClasses() throws IOException {
        linerate = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.linerate");
        String doc = Files.readString(docs().resolve("api.md"));
        int spiAt = doc.indexOf("## SPI");
        int neitherAt = doc.indexOf("## Neither");
        assertThat(spiAt).as("docs/api.md has an SPI section").isPositive();
        assertThat(neitherAt).as("docs/api.md has a Neither section").isGreaterThan(spiAt);
        api = listed(doc.substring(0, spiAt));
        spi = listed(doc.substring(spiAt, neitherAt));
    }

    private static Path docs() {
        Path here = Path.of("").toAbsolutePath();
        return (Files.isDirectory(here.resolve("docs")) ? here : here.getParent()).resolve("docs");
    }

    /** @return the packages named in backticks that are packages, not classes (no capital letter) */
    private static Set<String> listed(String section) {
        Set<String> out = new TreeSet<>();
        Matcher m = LISTED.matcher(section);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void coreDependsOnNoOtherModule() {
        noClasses().that().resideInAPackage(CORE).should().dependOnClassesThat()
                .resideInAnyPackage(NIO, PEERS, AFPACKET, JNI, SOCKET, REGRESSION, EXAMPLES, TESTSUPPORT, NETNS, SUITE).check(linerate);
    }

    @Test
    void namespacesDependOnNoOtherModuleAndTestSupportOnNamespacesAlone() {
        noClasses().that().resideInAPackage(NETNS).should().dependOnClassesThat()
                .resideInAnyPackage(CORE, NIO, PEERS, AFPACKET, JNI, SOCKET, REGRESSION, EXAMPLES, TESTSUPPORT, SUITE).check(linerate);
        noClasses().that().resideInAPackage(TESTSUPPORT).should().dependOnClassesThat()
                .resideInAnyPackage(CORE, NIO, PEERS, AFPACKET, JNI, SOCKET, REGRESSION, EXAMPLES, SUITE).check(linerate);
    }

    @Test
    void theSuiteRunsOnAnyTransportThroughCoreAndNamespaces() {
        noClasses().that().resideInAPackage(SUITE).should().dependOnClassesThat()
                .resideInAnyPackage(NIO, PEERS, AFPACKET, JNI, SOCKET, REGRESSION, EXAMPLES, TESTSUPPORT)
                .because("the loopback suite takes a Transport through core's SPI").check(linerate);
    }

    @Test
    void theNativeSocketTransportDependsOnCoreAndTheNativeLayerAloneAndNothingOnIt() {
        noClasses().that().resideInAPackage(SOCKET).should().dependOnClassesThat()
                .resideInAnyPackage(NIO, PEERS, AFPACKET, REGRESSION, EXAMPLES, TESTSUPPORT, NETNS, SUITE).check(linerate);
        noClasses().that().resideInAnyPackage(JNI, NIO, PEERS, AFPACKET, REGRESSION, NETNS, SUITE).should().dependOnClassesThat()
                .resideInAPackage(SOCKET).check(linerate);
    }

    @Test
    void theTransportsAndTheGateDependOnCoreAloneAndNotOnEachOther() {
        noClasses().that().resideInAPackage(JNI).should().dependOnClassesThat()
                .resideInAnyPackage(NIO, PEERS, AFPACKET, REGRESSION, EXAMPLES, TESTSUPPORT, NETNS, SUITE).check(linerate);
        noClasses().that().resideInAPackage(NIO).should().dependOnClassesThat()
                .resideInAnyPackage(PEERS, AFPACKET, REGRESSION, EXAMPLES, TESTSUPPORT, NETNS, SUITE).check(linerate);
        noClasses().that().resideInAPackage(AFPACKET).should().dependOnClassesThat()
                .resideInAnyPackage(NIO, PEERS, REGRESSION, EXAMPLES, TESTSUPPORT, NETNS, SUITE).check(linerate);
        noClasses().that().resideInAPackage(REGRESSION).should().dependOnClassesThat()
                .resideInAnyPackage(NIO, PEERS, AFPACKET, JNI, EXAMPLES, TESTSUPPORT, NETNS, SUITE).check(linerate);
    }

    @Test
    void thePeersDependOnCoreAloneAndRunOnAnyTransportsEnds() {
        noClasses().that().resideInAPackage(PEERS).should().dependOnClassesThat()
                .resideInAnyPackage(NIO, AFPACKET, JNI, SOCKET, REGRESSION, EXAMPLES, TESTSUPPORT, NETNS, SUITE)
                .because("the peers run this host's ends on the ends a transport offers through core's SPI "
                        + "(io.linerate.core.spi.ends)").check(linerate);
    }

    @Test
    void aModulesInternalPackagesAreItsOwn() {
        for (String module : new String[] {"core", "nio", "peers", "afpacket", "jni", "socket", "regression", "netns", "suite"}) {
            String root = "io.linerate." + module + "..";
            noClasses().that().resideOutsideOfPackage(root).should().dependOnClassesThat()
                    .resideInAPackage("io.linerate." + module + "..internal..")
                    .because("a module's internal packages are its own (docs/api.md)").check(linerate);
        }
    }

    @Test
    void theCommandLineImportsOnlyTheApiAndTheSpi() {
        Set<String> used = new TreeSet<>();
        for (JavaClass c : linerate) {
            if (!c.getPackageName().startsWith("io.linerate.examples")) {
                continue;
            }
            c.getDirectDependenciesFromSelf().stream()
                    .map(d -> d.getTargetClass().getPackageName())
                    .filter(p -> p.startsWith("io.linerate.") && !p.startsWith("io.linerate.examples"))
                    .forEach(used::add);
        }
        assertThat(used).as("io.linerate packages the command line uses").isNotEmpty();
        assertThat(used).allSatisfy(p -> assertThat(api.contains(p) || spi.contains(p))
                .as(p + " is in docs/api.md's API or SPI list").isTrue());
    }

    @Test
    void everyLibraryPackageIsListedOrInternal() {
        Set<String> packages = linerate.stream().map(JavaClass::getPackageName)
                .filter(p -> !p.startsWith("io.linerate.examples") && !p.contains(".internal"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(packages).as("the library's packages").contains("io.linerate.core", "io.linerate.nio", "io.linerate.netns",
                "io.linerate.suite", "io.linerate.peers.agent.client");
        Set<String> unlisted = new TreeSet<>(packages);
        unlisted.removeAll(api);
        unlisted.removeAll(spi);
        assertThat(unlisted).as("packages in neither docs/api.md list: add each to API or SPI, or make it internal")
                .isEmpty();
        Set<String> gone = new TreeSet<>(api);
        gone.addAll(spi);
        gone.removeAll(packages);
        assertThat(gone).as("packages docs/api.md lists that do not exist").isEmpty();
    }
}
