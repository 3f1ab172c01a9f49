package io.quarry.codecs.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every classifier against the {@link Segmenter}'s own predicates ({@link AsciiClassesAgreement}):
 * the scalar one and the one this JVM chose here, and the vector one of every width the CPU has
 * (128, 256, 512 bits; at 512 both the table permutes and the range compares) in a JVM of its own
 * (one that loads several widths runs them all slowly: the module's test JVM is shared by the tests
 * that fill term sets). The build's test JVMs run a vector classifier, a JVM without the module the
 * scalar one.
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
    String widths = VectorAsciiClasses.widths().toString();
    assertThat(widths).startsWith("[vector 128-bit compares");
    if (AsciiClasses.CHOSEN.toString().startsWith("vector 512-bit")) { // both ways at 512 bits
      assertThat(widths).endsWith("vector 512-bit compares, vector 512-bit permutes]");
    } else {
      assertThat(widths).endsWith(AsciiClasses.CHOSEN + "]");
    }
    assertThat(run("--add-modules=jdk.incubator.vector"))
        .endsWith("agree: [scalar (test), " + widths.substring(1) + "\n");
  }

  @Test
  void aJvmWithoutTheModuleRunsTheScalarClassifier() throws Exception {
    assertThat(run()).endsWith("agree: [scalar (test)]\n");
  }

  @Test
  void atFiveHundredTwelveBitsThePropertyForcesThePermutesOrTheCompares() throws Exception {
    String vector = "--add-modules=jdk.incubator.vector";
    String property = "-D" + VectorAsciiClasses.VBMI_PROPERTY;
    String chosen = AsciiClasses.CHOSEN.toString();
    String forcedOn = run(vector, property + "=true", "chosen");
    String forcedOff = run(vector, property + "=false", "chosen");
    if (chosen.startsWith("vector 512-bit")) {
      // this JVM has no property: the CPU's flag chose (this machine's Xeon has avx512vbmi)
      assertThat(chosen)
          .isEqualTo(
              VectorAsciiClasses.vbmi() ? "vector 512-bit permutes" : "vector 512-bit compares");
      assertThat(forcedOn).endsWith("\nchosen: vector 512-bit permutes\n");
      assertThat(forcedOff).endsWith("\nchosen: vector 512-bit compares\n");
    } else { // narrower vectors always compare
      assertThat(forcedOn).endsWith("\nchosen: " + chosen + "\n").isEqualTo(forcedOff);
    }
  }

  /**
   * {@link AsciiClassesAgreement#main}'s output in a JVM of its own, which must exit 0 within two
   * minutes (else it is killed and the test fails).
   */
  private static String run(String... options) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> jvmOptions = new ArrayList<>(List.of(options));
    boolean chosenOnly = jvmOptions.remove("chosen");
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-cp", System.getProperty("java.class.path"), AsciiClassesAgreement.class.getName()));
    if (chosenOnly) {
      command.add("chosen");
    }
    Path out = Files.createTempFile("ascii-classes-agreement", ".out");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        fail("%s ran over two minutes; its output: %s", command, Files.readString(out));
      }
      String output = Files.readString(out, StandardCharsets.UTF_8);
      assertThat(process.exitValue()).as(output).isZero();
      return output;
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
