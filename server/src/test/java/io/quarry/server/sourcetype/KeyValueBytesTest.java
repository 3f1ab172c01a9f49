package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.exec.KeyValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyValueBytes} finds exactly what {@link KeyValues#values} read plain ({@code kvMode:
 * auto}) finds, on any ASCII text, a backslash included.
 */
class KeyValueBytesTest {

  private static List<String> values(String text, String key) {
    List<String> found = new ArrayList<>();
    count(text, key, found);
    return found;
  }

  /** What the byte scan answers on {@code text}, its values added to {@code found}. */
  private static int count(String text, String key, List<String> found) {
    // the text in the middle of a larger array, as an event lies in a journal block
    byte[] padded = ("xx=yy " + text + " a=b").getBytes(StandardCharsets.US_ASCII);
    int offset = 6;
    int length = text.length();
    int count =
        KeyValueBytes.values(
            padded,
            offset,
            length,
            key.getBytes(StandardCharsets.US_ASCII),
            (start, end) ->
                found.add(new String(padded, start, end - start, StandardCharsets.US_ASCII)));
    assertThat(count).isEqualTo(found.size());
    return count;
  }

  @Test
  void readsABackslashOutsideQuotedValuesInPlace() {
    // a Windows path in an unquoted value, a backslash between pairs: no escape to the scan
    String text = "path=C:\\temp\\x.log \\ JSESSIONID=S1 q=\"a b\" tail\\";
    List<String> found = new ArrayList<>();
    assertThat(count(text, "JSESSIONID", found)).isEqualTo(1);
    assertThat(found).containsExactly("S1");
    assertThat(count(text, "path", new ArrayList<>())).isEqualTo(1);
    assertThat(values(text, "path")).containsExactly("C:\\temp\\x.log");
  }

  @Test
  void aBackslashInAQuotedValueIsAnOrdinaryByte() {
    // kvMode auto (Splunk's props.conf.spec): the first quote closes the value, so the pairs after
    // an escaped quote are read; auto_escaped (KeyValues escaped, not this scan) reads msg whole
    String forged = "msg=\"x\\\" count=999999 y=\" count=1";
    assertThat(values(forged, "msg")).containsExactly("x\\");
    assertThat(values(forged, "count")).containsExactly("999999", "1");
    assertThat(KeyValues.values(forged, "count", true)).containsExactly("1");
    assertThat(values("count=2 msg=\"a\\\"b\"", "count")).containsExactly("2");
    assertThat(values("k=\"a\\\\\" n=1", "k")).containsExactly("a\\\\");
    assertThat(values("k=\"a\\\\\" n=1", "n")).containsExactly("1");
  }

  @Test
  void findsWhatTheTextScanFinds() {
    String access =
        "10.0.0.1 - - [07/Jan/2026:10:00:00 +0000] \"GET /cart?JSESSIONID=SD5SL9FF2ADFF4958"
            + "&item=EST-15 HTTP/1.1\" 200 1665 \"-\" \"Mozilla\"";
    assertThat(values(access, "JSESSIONID")).containsExactly("SD5SL9FF2ADFF4958");
    assertThat(values("a=1 b=\"two words\" a=3", "a")).containsExactly("1", "3");
    assertThat(values("a=1 b=\"two words\" a=3", "b")).containsExactly("two words");
    assertThat(values("x=\"unclosed a=1", "a")).containsExactly("1");
    assertThat(values("1a=2 _k=v k.-1=z a=b=c", "a")).containsExactly("b=c");
    assertThat(values("ka=1", "a")).isEmpty();
    assertThat(values("=x a= b", "a")).isEmpty();
  }

  @Test
  void findsTheKeyOnlyWhereTheScanOfPairsReachesIt() {
    // the key's bytes before an '=' inside another pair's value, quoted or not, are no pair
    assertThat(values("q=xJSESSIONID=1 r=2", "JSESSIONID")).isEmpty();
    assertThat(values("q=\"a JSESSIONID=1\" r=2", "JSESSIONID")).isEmpty();
    assertThat(values("q=a&JSESSIONID=1", "JSESSIONID")).containsExactly("1");
    assertThat(values("xJSESSIONID=1 JSESSIONID=2", "JSESSIONID")).containsExactly("2");
    // every value, the last one ending the text, and none after the last
    assertThat(values("JSESSIONID=1&JSESSIONID=2 u=JSESSIONID", "JSESSIONID"))
        .containsExactly("1", "2");
    assertThat(values("a=1 JSESSIONID=", "JSESSIONID")).isEmpty();
    assertThat(values("JSESSIONID=\"3 4\" z JSESSIONID=5", "JSESSIONID"))
        .containsExactly("3 4", "5");
  }

  @Test
  void agreesWithKeyValuesOnRandomPairs() {
    // texts of whole keys, values and separators, so a key stands before an '=' often and in
    // every place the scan of pairs can leave it: inside a value, after one, quoted, repeated
    Random random = new Random(7);
    List<String> tokens =
        List.of(
            "K", "K=", "xK=", "a=", "=", "v", "\"", " ", "&", ";", ",", "?", "K=\"", "_", "\\",
            "\\\"");
    for (int i = 0; i < 20_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(16);
      for (int t = 0; t < length; t++) {
        text.append(tokens.get(random.nextInt(tokens.size())));
      }
      for (String key : List.of("K", "a", "xK")) {
        assertThat(values(text.toString(), key))
            .as("'%s' key %s", text, key)
            .isEqualTo(KeyValues.values(text.toString(), key, false));
      }
    }
  }

  @Test
  void agreesWithKeyValuesOnRandomText() {
    Random random = new Random(42);
    String alphabet = "ab_K.-1= \"&;,\t=xa=b\\";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(40);
      for (int c = 0; c < length; c++) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      for (String key : List.of("a", "b", "K", "_", "a.-1", "xa")) {
        assertThat(values(text.toString(), key))
            .as("'%s' key %s", text, key)
            .isEqualTo(KeyValues.values(text.toString(), key, false));
      }
    }
  }
}
