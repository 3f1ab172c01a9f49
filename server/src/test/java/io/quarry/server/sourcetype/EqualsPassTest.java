package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The scalar {@link EqualsPass} and the vector one find the same {@code =} (after a given byte or
 * before a quote), those a byte-by-byte loop finds ({@link EqualsPassAgreement}): the pass of the
 * CPU's widest vectors here, and the vector pass of every width the CPU has (128, 256, 512 bits) in
 * a JVM of its own (one that loads several widths runs them all slowly: the build's test JVM is
 * shared); the build's test JVMs run the vector pass, a JVM without the module the scalar.
 */
class EqualsPassTest {
  private static final EqualsPassAgreement AGREEMENT =
      new EqualsPassAgreement(List.of(new ScalarEqualsPass("test"), VectorEqualsPass.preferred()));
  private static final String MODULE = "--add-modules=jdk.incubator.vector"; // warns: incubating

  @Test
  void theBuildsTestsRunTheVectorPass() {
    // the test JVMs get --add-modules jdk.incubator.vector as the server's launcher passes it
    assertThat(EqualsPass.CHOSEN).isInstanceOf(VectorEqualsPass.class);
    assertThat(KeyPlaces.byteScan()).matches("vector \\d+-bit");
    assertThat(VectorEqualsPass.preferred().toString()).isEqualTo(EqualsPass.CHOSEN.toString());
  }

  @Test
  void everyLengthFromUnalignedStarts() {
    AGREEMENT.everyLengthFromUnalignedStarts();
  }

  @Test
  void lengthsAroundWholeVectorsAndSignsOnTheirEdges() {
    for (int lanes = 16; lanes <= 64; lanes *= 2) { // the edges of every width, the widest's pass
      AGREEMENT.aroundWholeVectors(lanes);
    }
  }

  @Test
  void findsTheSignsOfAccessLogLines() {
    AGREEMENT.accessLogLines();
  }

  @Test
  void everyWidthTheCpuHasAgreesInAJvmOfItsOwn() throws Exception {
    // this machine's CPU has 128-bit vectors at least (else the vector pass would not be chosen)
    String widths =
        VectorEqualsPass.widths().stream()
            .map(s -> "vector " + s.vectorBitSize() + "-bit")
            .reduce((a, b) -> a + ", " + b)
            .orElseThrow();
    assertThat(widths).startsWith("vector 128-bit").endsWith(EqualsPass.CHOSEN.toString());
    assertThat(run(List.of(MODULE), EqualsPassAgreement.class, List.of()))
        .endsWith("agree: [scalar (test), " + widths + "]\n");
  }

  private static String run(String... jvmOptions) throws IOException, InterruptedException {
    return run(List.of(jvmOptions), EqualsPassChoice.class, List.of());
  }

  /** The output of {@code main}'s class run in a JVM of its own, which must exit 0. */
  private static String run(List<String> jvmOptions, Class<?> main, List<String> arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(arguments);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }

  @Test
  void aJvmWithoutTheModuleOrC2RunsTheScalarPass() throws Exception {
    assertThat(run()).endsWith("scalar (no jdk.incubator.vector) [v1]\n");
    assertThat(run(MODULE)).matches("(?s).*vector \\d+-bit \\[v1\\]\n");
    assertThat(run(MODULE, "-XX:TieredStopAtLevel=1")).endsWith("scalar (C2 off) [v1]\n");
  }

  @Test
  void aJvmWhoseFirstPassIsTheVectorClassChoosesIt() throws Exception {
    // initializing the vector class initializes EqualsPass first, whose choice asks the vector
    // class, still being initialized (session 37: its static species was null then, and the
    // choice failed with ExceptionInInitializerError)
    assertThat(run(List.of(MODULE), EqualsPassChoice.class, List.of("vector-first")))
        .matches("(?s).*vector \\d+-bit \\[v1\\]\n");
  }
}
