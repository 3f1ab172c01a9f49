package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The scalar {@link EqualsPass} and the vector one of every width the CPU has (128, 256, 512 bits)
 * find the same {@code =} (after a given byte or before a quote), those a byte-by-byte loop finds:
 * every length to 200 from unaligned starts, lengths around whole vectors of each width, signs on
 * the vectors' edges; the build's test JVMs run the vector pass, a JVM without the module the
 * scalar.
 */
class EqualsPassTest {
  private static final EqualsPass SCALAR = new ScalarEqualsPass("test");
  private static final List<VectorEqualsPass> VECTORS =
      VectorEqualsPass.widths().stream().map(VectorEqualsPass::of).toList();

  private static List<Integer> byteByByte(byte[] bytes, int from, int end, byte before) {
    List<Integer> found = new ArrayList<>();
    for (int i = from; i < end; i++) {
      boolean keyEnd = i - 1 >= from && bytes[i - 1] == before;
      boolean quoted = i + 1 < end && bytes[i + 1] == '"';
      if (bytes[i] == '=' && (keyEnd || quoted)) {
        found.add(i);
      }
    }
    return found;
  }

  private static List<Integer> found(
      EqualsPass pass, byte[] bytes, int from, int end, byte before) {
    List<Integer> found = new ArrayList<>();
    pass.run(bytes, from, end, before, found::add);
    return found;
  }

  /** Both passes against the byte-by-byte loop, for a key ending in a letter, '=' or a quote. */
  private static void agree(byte[] bytes, int from, int end) {
    for (byte before : new byte[] {'D', 'a', '=', '"', (byte) 0xBD}) {
      List<Integer> expected = byteByByte(bytes, from, end, before);
      assertThat(found(SCALAR, bytes, from, end, before))
          .as("scalar [%d, %d) after %d", from, end, before)
          .isEqualTo(expected);
      for (VectorEqualsPass vector : VECTORS) {
        assertThat(found(vector, bytes, from, end, before))
            .as("%s [%d, %d) after %d", vector, from, end, before)
            .isEqualTo(expected);
      }
    }
  }

  /** Bytes where '=' is common, with its neighbours in value ('<', '>'), quotes and high bytes. */
  private static byte[] randomBytes(Random random, int length) {
    byte[] pick = {'=', '=', '"', '<', '>', 'a', 'D', (byte) 0xBD, (byte) (0x3D ^ 0x80), 0};
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : pick[random.nextInt(10)];
    }
    return bytes;
  }

  @Test
  void theBuildsTestsRunTheVectorPass() {
    // the test JVMs get --add-modules jdk.incubator.vector as the server's launcher passes it
    assertThat(EqualsPass.CHOSEN).isInstanceOf(VectorEqualsPass.class);
    assertThat(KeyPlaces.byteScan()).matches("vector \\d+-bit");
  }

  @Test
  void everyWidthTheCpuHasIsRun() {
    // this machine's CPU has 128-bit vectors at least (else the vector pass would not be chosen)
    assertThat(VECTORS).map(EqualsPass::toString).startsWith("vector 128-bit");
    assertThat(VECTORS.getLast().toString()).isEqualTo(EqualsPass.CHOSEN.toString());
    assertThat(VECTORS).extracting(VectorEqualsPass::lanes).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void everyLengthFromUnalignedStarts() {
    Random random = new Random(36);
    for (int length = 0; length <= 200; length++) {
      for (int round = 0; round < 20; round++) {
        byte[] bytes = randomBytes(random, length + 8);
        int from = random.nextInt(5);
        agree(bytes, from, from + length);
      }
    }
  }

  @Test
  void lengthsAroundWholeVectorsAndSignsOnTheirEdges() {
    for (VectorEqualsPass vector : VECTORS) {
      aroundWholeVectors(vector.lanes()); // every pass runs over every width's edges
    }
  }

  private static void aroundWholeVectors(int lanes) {
    Random random = new Random(7);
    for (int vectors = 0; vectors <= 4; vectors++) {
      for (int extra = -2; extra <= 2; extra++) {
        int length = Math.max(0, vectors * lanes + extra);
        byte[] all = new byte[length];
        java.util.Arrays.fill(all, (byte) '=');
        agree(all, 0, length);
        byte[] none = new byte[length];
        agree(none, 0, length);
        // '=' on a vector's first and last byte, a key's end and a quote on either side of them
        for (String pattern : List.of("=\"kkD=", "\"kk=D=", "DkkD=\"")) {
          byte[] edges = edges(pattern, lanes, length);
          agree(edges, 0, length);
          agree(edges, Math.min(1, length), length); // each vector now straddles two of before
        }
        agree(randomBytes(random, length), 0, length);
      }
    }
  }

  /**
   * {@code length} bytes, {@code k} but around each multiple of {@code lanes}: the pattern's first
   * half on a vector's first bytes, its second half on the last bytes of the vector before.
   */
  private static byte[] edges(String pattern, int lanes, int length) {
    byte[] bytes = new byte[length];
    int half = pattern.length() / 2;
    for (int i = 0; i < length; i++) {
      int lane = i % lanes;
      char c =
          lane < half
              ? pattern.charAt(lane)
              : lane >= lanes - half ? pattern.charAt(half + lane - (lanes - half)) : 'k';
      bytes[i] = (byte) c;
    }
    return bytes;
  }

  @Test
  void findsTheSignsOfAccessLogLines() {
    String lines =
        "10.0.0.1 - - [07/Jan/2026:10:00:00 +0000] \"GET /cart?JSESSIONID=SD5SL9FF2ADFF4958"
            + "&item=EST-15 HTTP/1.1\" 200 1665 \"http://x.com/a.do?action=view&itemId=EST-1\""
            + " \"Mozilla/5.0 (X11; Linux x86_64)\" 419\n"
            + "10.0.0.2 - - [07/Jan/2026:10:00:01 +0000] \"GET /images/logo.png HTTP 1.1\" 200 2883\n"
            + "10.0.0.3 - - \"GET /oldlink?item_id=EST-13&JSESSIONID=SD8SLMKAKXBOLZ HTTP 1.1\" 200\n"
            + "user=\"a b\" JSESSIONID=\"3 4\" z JSESSIONID=5 n=\n";
    byte[] bytes = lines.repeat(7).getBytes(StandardCharsets.ISO_8859_1);
    for (int from = 0; from < 70; from++) {
      agree(bytes, from, bytes.length - from);
    }
  }

  private static String run(String... jvmOptions) throws IOException, InterruptedException {
    return run(List.of(jvmOptions), List.of());
  }

  private static String run(List<String> jvmOptions, List<String> arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), EqualsPassChoice.class.getName()));
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
    String module = "--add-modules=jdk.incubator.vector"; // the JVM then warns that it incubates
    assertThat(run(module)).matches("(?s).*vector \\d+-bit \\[v1\\]\n");
    assertThat(run(module, "-XX:TieredStopAtLevel=1")).endsWith("scalar (C2 off) [v1]\n");
  }

  @Test
  void aJvmWhoseFirstPassIsTheVectorClassChoosesIt() throws Exception {
    // initializing the vector class initializes EqualsPass first, whose choice asks the vector
    // class, still being initialized (session 37: its static species was null then, and the
    // choice failed with ExceptionInInitializerError)
    assertThat(run(List.of("--add-modules=jdk.incubator.vector"), List.of("vector-first")))
        .matches("(?s).*vector \\d+-bit \\[v1\\]\n");
  }
}
