package io.linerate.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The manifests of docs/k8s/*.yaml (docs/kubernetes.md): known kinds at their API versions, the agents'
 * secret read from a Secret volume, and linerate command lines that linerate's picocli model accepts.
 */
class KubernetesManifestsTest {
    private static final Map<String, Set<String>> KINDS_BY_API_VERSION = Map.of(
            "v1", Set.of("Namespace", "Service", "ConfigMap", "Secret"),
            "apps/v1", Set.of("DaemonSet"),
            "batch/v1", Set.of("Job"));

    private static List<JsonNode> documents;

    @BeforeAll
    static void readManifests() throws IOException {
        documents = new ArrayList<>();
        YAMLMapper yaml = new YAMLMapper();
        try (Stream<Path> files = Files.list(MarkdownFiles.root().resolve("docs/k8s"))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                try (MappingIterator<JsonNode> it = yaml.readerFor(JsonNode.class).readValues(file.toFile())) {
                    documents.addAll(it.readAll());
                }
            }
        }
    }

    @Test
    void everyDocumentIsAKnownKindAtItsApiVersionInTheLinerateNamespace() {
        for (JsonNode doc : documents) {
            String apiVersion = doc.path("apiVersion").asText();
            String kind = doc.path("kind").asText();
            assertThat(KINDS_BY_API_VERSION.getOrDefault(apiVersion, Set.of()))
                    .as("kinds of apiVersion '%s'", apiVersion).contains(kind);
            assertThat(doc.at("/metadata/name").asText()).as("%s name", kind).isNotBlank();
            if (!kind.equals("Namespace")) {
                assertThat(doc.at("/metadata/namespace").asText()).as("%s namespace", kind).isEqualTo("linerate");
            }
        }
        assertThat(documents).extracting(d -> d.path("kind").asText())
                .containsExactlyInAnyOrder("Namespace", "DaemonSet", "Service", "Job");
    }

    @Test
    void theAgentsServeWithTheSecretOfASecretVolumeOnThePortTheServiceNames() {
        JsonNode daemonSet = only("DaemonSet");
        JsonNode pod = daemonSet.at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");
        List<String> argv = argv(container);

        assertThat(argv).as("agent command line").startsWith("linerate", "serve");
        assertThat(LinerateCommandLines.problems(argv.subList(1, argv.size()))).isEmpty();
        assertThat(secretVolumeFile(pod, container, optionValue(argv, "--secret-file")))
                .as("the --secret-file comes from a Secret volume").isEqualTo("linerate-secret");

        assertThat(daemonSet.at("/spec/selector/matchLabels")).isEqualTo(daemonSet.at("/spec/template/metadata/labels"));
        JsonNode service = only("Service");
        assertThat(service.at("/spec/selector")).isEqualTo(daemonSet.at("/spec/template/metadata/labels"));
        assertThat(service.at("/spec/clusterIP").asText()).as("headless: one DNS record per agent").isEqualTo("None");
        int port = Integer.parseInt(optionValue(argv, "--port"));
        assertThat(service.at("/spec/ports/0/port").asInt()).isEqualTo(port);
        assertThat(container.at("/ports/0/containerPort").asInt()).isEqualTo(port);

        assertThat(optionValue(argv, "--bind")).isEqualTo("$(POD_IP)");
        assertThat(env(container, "POD_IP").at("/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("status.podIP");
    }

    @Test
    void theClientStreamsToEachAgentAndGatesWithValidCommandLines() {
        JsonNode job = only("Job");
        JsonNode pod = job.at("/spec/template/spec");
        assertThat(pod.path("restartPolicy").asText()).isIn("Never", "OnFailure");
        JsonNode container = pod.at("/containers/0");
        List<String> argv = argv(container);
        assertThat(argv.subList(0, 2)).as("client command").containsExactly("/bin/sh", "-c");

        List<LinerateCommandLines.Invocation> lines = LinerateCommandLines.invocations(argv.get(2));
        assertThat(lines).extracting(l -> l.argv().get(0)).contains("stream", "gate");
        for (LinerateCommandLines.Invocation line : lines) {
            assertThat(LinerateCommandLines.problems(line.argv())).as(line.line()).isEmpty();
        }
        List<String> stream = lines.stream().filter(l -> l.argv().get(0).equals("stream")).findFirst().orElseThrow()
                .argv();
        String peer = optionValue(stream, "--peer");
        String agentPort = optionValue(argv(only("DaemonSet").at("/spec/template/spec/containers/0")), "--port");
        assertThat(peer.substring(peer.lastIndexOf(':') + 1)).as("--peer port").isEqualTo(agentPort);
        assertThat(secretVolumeFile(pod, container, optionValue(stream, "--secret-file"))).isEqualTo("linerate-secret");
        assertThat(argv.get(2)).as("the script resolves the agents' Service")
                .contains(only("Service").at("/metadata/name").asText());
    }

    /** @return the secretName of the Secret volume that, mounted in {@code container}, holds {@code file} */
    private static String secretVolumeFile(JsonNode pod, JsonNode container, String file) {
        for (JsonNode mount : container.path("volumeMounts")) {
            String dir = mount.path("mountPath").asText();
            if (!file.startsWith(dir + "/")) {
                continue;
            }
            for (JsonNode volume : pod.path("volumes")) {
                if (volume.path("name").asText().equals(mount.path("name").asText()) && volume.has("secret")) {
                    String key = file.substring(dir.length() + 1);
                    boolean listed = !volume.at("/secret/items").isArray() || volume.at("/secret/items")
                            .findValuesAsText("path").contains(key);
                    return listed ? volume.at("/secret/secretName").asText() : "key " + key + " not in the volume";
                }
            }
        }
        return "no Secret volume mounted at " + file;
    }

    private static JsonNode env(JsonNode container, String name) {
        for (JsonNode env : container.path("env")) {
            if (env.path("name").asText().equals(name)) {
                return env;
            }
        }
        throw new AssertionError("no env " + name + " in container " + container.path("name").asText());
    }

    private static String optionValue(List<String> argv, String option) {
        int i = argv.indexOf(option);
        assertThat(i).as("%s in %s", option, argv).isNotNegative().isLessThan(argv.size() - 1);
        return argv.get(i + 1);
    }

    private static List<String> argv(JsonNode container) {
        List<String> argv = new ArrayList<>();
        container.path("command").forEach(n -> argv.add(n.asText()));
        container.path("args").forEach(n -> argv.add(n.asText()));
        return argv;
    }

    private static JsonNode only(String kind) {
        List<JsonNode> found = documents.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
        assertThat(found).as("documents of kind %s", kind).hasSize(1);
        return found.get(0);
    }
}
