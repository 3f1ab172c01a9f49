package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The checks of {@link EqualsPassTest}: passes find the {@code =} a byte-by-byte loop finds (after
 * a given byte or before a quote), every length to 200 from unaligned starts, lengths around whole
 * vectors of a width with signs on the vectors' edges, access-log lines. Its {@code main} runs them
 * for the scalar pass and the vector one of every width the CPU has, in a JVM of its own: a JVM
 * that loaded more than one width's pass runs each of them with a species C2 does not see as a
 * constant, ten to a hundred times slower than the scalar pass (session 37, {@code EqualsPassCpu}),
 * which the build's test JVM, shared by the module's tests, must not.
 */
final class EqualsPassAgreement {
  private final List<EqualsPass> passes;

  EqualsPassAgreement(List<EqualsPass> passes) {
    this.passes = List.copyOf(passes);
  }

  /** Every check over the scalar pass and each width's vector pass; prints the passes checked. */
  public static void main(String[] args) {
    List<EqualsPass> passes = new ArrayList<>(List.of(new ScalarEqualsPass("test")));
    List<VectorEqualsPass> vectors =
        VectorEqualsPass.widths().stream().map(VectorEqualsPass::of).toList();
    passes.addAll(vectors);
    EqualsPassAgreement agreement = new EqualsPassAgreement(passes);
    agreement.everyLengthFromUnalignedStarts();
    for (VectorEqualsPass vector : vectors) {
      agreement.aroundWholeVectors(vector.lanes()); // every pass over every width's edges
    }
    agreement.accessLogLines();
    System.out.println("agree: " + passes);
  }

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

  /** Each pass against the byte-by-byte loop, for a key ending in a letter, '=' or a quote. */
  private void agree(byte[] bytes, int from, int end) {
    for (byte before : new byte[] {'D', 'a', '=', '"', (byte) 0xBD}) {
      List<Integer> expected = byteByByte(bytes, from, end, before);
      for (EqualsPass pass : passes) {
        assertThat(found(pass, bytes, from, end, before))
            .as("%s [%d, %d) after %d", pass, from, end, before)
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

  /** Lengths around whole vectors of {@code lanes} bytes, and signs on the vectors' edges. */
  void aroundWholeVectors(int lanes) {
    Random random = new Random(7);
    for (int vectors = 0; vectors <= 4; vectors++) {
      for (int extra = -2; extra <= 2; extra++) {
        int length = Math.max(0, vectors * lanes + extra);
        byte[] all = new byte[length];
        Arrays.fill(all, (byte) '=');
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

  void accessLogLines() {
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
}
