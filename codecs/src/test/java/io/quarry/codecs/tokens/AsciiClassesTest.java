package io.quarry.codecs.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every classifier against the {@link Segmenter}'s own predicates ({@link AsciiClassesAgreement}):
 * the scalar one and the one this JVM chose here, and the vector one of every width the CPU has
 * (128, 256, 512 bits) in a JVM of its own (one that loads several widths runs them all slowly: the
 * module's test JVM is shared by the tests that fill term sets). The build's test JVMs run a vector
 * classifier, a JVM without the module the scalar one.
 */
class AsciiClassesTest {
  private static final AsciiClassesAgreement HERE =
      new AsciiClassesAgreement(List.of(new AsciiClasses.Scalar("test"), AsciiClasses.CHOSEN));

  @Test
  void theBuildsTestsRunAVectorClassifier() {
    // the test JVMs get --add-modules jdk.incubator.vector as the server's launcher passes it
    assertThat(AsciiClasses.CHOSEN).isInstanceOf(VectorAsciiClasses.class);
  }

  @Test
  void everyByteValueAtEveryPlace() {
    HERE.everyByteValueAtEveryPlace();
  }

  @Test
  void randomTextsAtRandomOffsets() {
    HERE.randomTextsAtRandomOffsets();
  }

  @Test
  void everyWidthTheCpuHasAgreesInAJvmOfItsOwn() throws Exception {
    String widths =
        VectorAsciiClasses.widths().stream()
            .map(s -> "vector " + s.vectorBitSize() + "-bit")
            .reduce((a, b) -> a + ", " + b)
            .orElseThrow();
    assertThat(widths).startsWith("vector 128-bit").endsWith(AsciiClasses.CHOSEN.toString());
    assertThat(run("--add-modules=jdk.incubator.vector"))
        .endsWith("agree: [scalar (test), " + widths + "]\n");
  }

  @Test
  void aJvmWithoutTheModuleRunsTheScalarClassifier() throws Exception {
    assertThat(run()).endsWith("agree: [scalar (test)]\n");
  }

  /** {@link AsciiClassesAgreement#main}'s output in a JVM of its own, which must exit 0. */
  private static String run(String... jvmOptions) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmOptions));
    command.addAll(
        List.of(
            "-cp", System.getProperty("java.class.path"), AsciiClassesAgreement.class.getName()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }
}
